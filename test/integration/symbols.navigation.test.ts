// csharp_navigate, csharp_bulk_navigate and csharp_symbols through vscode.lm.invokeTool in the real
// extension host, on fixtures/Calculator (semantic.test.ts loaded and approved it; this file sorts
// after it): the compact text an agent gets.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

async function invoke(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

const core = 'src/Calculator.Core';
const project = /^project: src\/Calculator\.Core\/Calculator\.Core\.csproj \(net10\.0\)$/m;

describe('C# navigation tools through vscode.lm.invokeTool', () => {
  it('registers csharp_navigate, csharp_bulk_navigate and csharp_symbols', () => {
    for (const name of ['csharp_navigate', 'csharp_bulk_navigate', 'csharp_symbols']) assert.ok(vscode.lm.tools.some((tool) => tool.name === name), name);
  });

  it('references: one line per file with its positions, and the project that answered', async () => {
    const text = await invoke('csharp_navigate', { action: 'references', symbol: 'ICalculator.Add' });
    assert.match(text, /^src\/Calculator\.App\/Program\.cs 6:41\ntests\/Calculator\.Tests\/CalculatorTests\.cs 10:64$/m);
    assert.match(text, project);
  });

  it('callers with context: the caller\'s declaration (and the interface member it calls through), then its call sites with their source lines', async () => {
    const text = await invoke('csharp_navigate', { action: 'callers', symbol: 'Calculator.Divide', context: true });
    // The tests call Divide on an ICalculator, so each caller says it reaches Calculator.Divide via the interface.
    assert.match(
      text,
      /^tests\/Calculator\.Tests\/CalculatorTests\.cs:22:17 method Calculator\.Tests\.CalculatorTests\.Divide_ReturnsQuotient\(\) via Calculator\.Core\.ICalculator\.Divide\(double, double\)\n {2}calls 22:74 public void Divide_ReturnsQuotient\(\) => Assert\.Equal\(2\.5, calculator\.Divide\(10, 4\)\);$/m,
    );
    assert.match(await invoke('csharp_navigate', { action: 'callers', symbol: 'CalculatorTests.Add_ReturnsSum' }), /^no callers\nReflection or code outside the workspace may still call it\.$/m);
  });

  it('hover by a file name and position starts with the resolved file and inherits the interface documentation', async () => {
    const text = await invoke('csharp_navigate', { action: 'hover', file: 'Calculator.cs', line: 6, character: 20 });
    const lines = text.split('\n');
    assert.equal(lines[0], `resolved file: ${core}/Calculator.cs`);
    assert.equal(lines[1], '(method) public double Calculator.Core.Calculator.Add(double a, double b)');
    assert.equal(lines[2], 'Returns a + b.');
  });

  it('reads and writes of a parameter, in the format of references', async () => {
    const position = { file: `${core}/Calculator.cs`, line: 12, character: 50 };
    assert.match(await invoke('csharp_navigate', { action: 'reads', ...position }), /^src\/Calculator\.Core\/Calculator\.cs 15:13 20:27$/m);
    assert.match(await invoke('csharp_navigate', { action: 'writes', ...position }), /^no writes$/m);
  });

  it('source of the declaration around a line, with its documentation comment', async () => {
    const text = await invoke('csharp_navigate', { action: 'source', file: `${core}/ICalculator.cs`, line: 17 });
    assert.match(
      text,
      /^src\/Calculator\.Core\/ICalculator\.cs:15-17 method Calculator\.Core\.ICalculator\.Divide\(double, double\)\n {4}\/\/\/ <summary>Returns <paramref name="dividend"\/> \/ <paramref name="divisor"\/>\.<\/summary>\n.*\n {4}double Divide\(double dividend, double divisor\);$/m,
    );
  });

  it('members of a type grouped by file, named relative to the type', async () => {
    const text = await invoke('csharp_navigate', { action: 'members', symbol: 'ICalculator' });
    assert.match(text, /^src\/Calculator\.Core\/ICalculator\.cs:4:18 interface Calculator\.Core\.ICalculator\nsrc\/Calculator\.Core\/ICalculator\.cs\n {2}7:12 method Add\(double, double\)\n {2}10:12 method Subtract\(double, double\)/m);
  });

  it('impact of an interface member: references, callers and implementations sections', async () => {
    const text = await invoke('csharp_navigate', { action: 'impact', symbol: 'ICalculator.Divide' });
    assert.match(text, /^## references\nsrc\/Calculator\.App\/Program\.cs 8:42 12:16\ntests\/Calculator\.Tests\/CalculatorTests\.cs 22:74 25:97\n## callers\n/m);
    assert.match(text, /^## implementations\nsrc\/Calculator\.Core\/Calculator\.cs:12:19 method Calculator\.Core\.Calculator\.Divide\(double, double\)$/m);
  });

  it('pages with a final truncated: line', async () => {
    const text = await invoke('csharp_navigate', { action: 'references', symbol: 'ICalculator.Divide', limit: 1 });
    assert.equal(text.split('\n').at(-1), 'truncated: 4 locations in total, next offset: 1. Raise limit or narrow the query.');
  });

  it('rejects an unknown argument with the valid names', async () => {
    const text = await invoke('csharp_navigate', { action: 'hover', symbol: 'ICalculator', name: 'ICalculator' });
    assert.match(text, /^error invalid_request: unknown argument "name"\. Valid arguments: action, symbol, file, line, character, /);
  });

  it('bulk_navigate: sections in request order; a failing query fills only its own section (queries sent as a JSON string)', async () => {
    const queries = JSON.stringify([
      { action: 'definition', symbol: 'ICalculator.Multiply' },
      { action: 'hover', symbol: 'Calculator.Nope' },
      { action: 'subtypes', symbol: 'ICalculator' },
    ]);
    const text = await invoke('csharp_bulk_navigate', { queries });
    assert.match(text, /^## 1 definition ICalculator\.Multiply\nsrc\/Calculator\.Core\/ICalculator\.cs 13:12\nproject: /m);
    assert.match(text, /^## 2 hover Calculator\.Nope\nerror symbol_not_found: The type Calculator\.Core\.Calculator has no member 'Nope'/m);
    assert.match(text, /^## 3 subtypes ICalculator\nsrc\/Calculator\.Core\/Calculator\.cs:4:14 class Calculator\.Core\.Calculator$/m);
  });

  it('symbols of a file: ranges after a dash, members indented under their type', async () => {
    const text = await invoke('csharp_symbols', { file: 'ICalculator.cs' });
    assert.match(text, /^resolved file: src\/Calculator\.Core\/ICalculator\.cs\n4:18-18:2 interface Calculator\.Core\.ICalculator\n {2}7:12-7:36 method Calculator\.Core\.ICalculator\.Add\(double, double\)$/m);
  });

  it('workspace symbols: best matches first, then file and position', async () => {
    const text = await invoke('csharp_symbols', { query: 'Divide' });
    const lines = text.split('\n');
    assert.equal(lines[0], 'src/Calculator.Core/Calculator.cs:12:19 method Calculator.Core.Calculator.Divide(double, double)');
    assert.equal(lines[1], 'src/Calculator.Core/ICalculator.cs:17:12 method Calculator.Core.ICalculator.Divide(double, double)');
    assert.match(lines[2]!, /^tests\/Calculator\.Tests\/CalculatorTests\.cs:22:17 method .*Divide_ReturnsQuotient/);
  });
});
