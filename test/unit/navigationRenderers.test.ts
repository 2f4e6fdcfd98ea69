// The compact text of csharp_navigate, csharp_bulk_navigate and csharp_symbols (bridge-tools spec formats),
// and how their arguments are checked and mapped to the host's params.
import * as assert from 'node:assert/strict';
import type { NavigateResult, SymbolsResult } from '../../src/engine/protocol/navigation';
import { renderBulkNavigate, renderNavigate, renderSymbols } from '../../src/engine/tools/navigation/renderNavigation';
import { bulkNavigateTool, navigateTool, symbolsTool, toBulkNavigateParams, toNavigateParams, type BulkNavigateInput, type NavigateInput } from '../../src/engine/tools/navigation/navigationTools';
import { findTool } from '../../src/engine/tools/registry';
import { ToolError } from '../../src/engine/errors';
import { parseToolInput } from '../../src/engine/tools/toolInput';
import { toToolError } from '../../src/engine/host/hostRequester';
import { renderDiagnostics } from '../../src/engine/tools/symbols/diagnosticsTool';

const symbol = { name: 'MyApp.Greeter.Greet(string)', kind: 'method', container: 'MyApp.Greeter', locations: [{ path: 'src/Greeter.cs', line: 5, character: 19 }] };

function result(action: string, extra: Partial<NavigateResult> = {}): NavigateResult {
  return {
    action,
    symbol,
    project: 'src/MyApp.csproj',
    targetFramework: 'net10.0',
    locations: null,
    related: null,
    hover: null,
    sources: null,
    members: null,
    sections: null,
    omittedToFit: null,
    total: 0,
    offset: 0,
    limit: 50,
    truncated: false,
    nextOffset: null,
    omittedGenerated: 0,
    omittedAccesses: 0,
    excludedAnalyzers: null,
    ...extra,
  };
}

const loc = (path: string, line: number, character: number, context: string | null = null) => ({ path, line, character, context });

describe('csharp_navigate renderings', () => {
  it('writes locations one line per file, then the project, then a truncated: line', () => {
    const text = renderNavigate(
      result('references', { locations: [loc('src/Calculator.cs', 12, 9), loc('src/Calculator.cs', 40, 17), loc('src/Program.cs', 3, 1)], total: 300, truncated: true, nextOffset: 50, omittedGenerated: 2 }),
    );
    assert.equal(
      text,
      [
        'src/Calculator.cs 12:9 40:17',
        'src/Program.cs 3:1',
        '2 source-generated occurrences left out',
        'project: src/MyApp.csproj (net10.0)',
        'truncated: 300 locations in total, next offset: 50. Raise limit or narrow the query.',
      ].join('\n'),
    );
  });

  it('starts with the resolved file and shows context lines one position per line', () => {
    const text = renderNavigate(result('writes', { resolvedFile: 'src/Counter.cs', locations: [loc('src/Counter.cs', 7, 9, 'x += 1;')], total: 1 }));
    assert.equal(text.split('\n')[0], 'resolved file: src/Counter.cs');
    assert.match(text, /^src\/Counter\.cs:7:9 x \+= 1;$/m);
  });

  it('says no reads, no writes, no callers (with the reflection note) and the offset past the end', () => {
    assert.match(renderNavigate(result('reads')), /^no reads$/m);
    assert.match(renderNavigate(result('writes')), /^no writes$/m);
    assert.match(renderNavigate(result('callers')), /^no callers\nReflection or code outside the workspace may still call it\.$/m);
    assert.match(renderNavigate(result('callees')), /^no callees$/m);
    assert.match(renderNavigate(result('supertypes')), /^no supertypes$/m);
    assert.match(renderNavigate(result('subtypes')), /^no subtypes$/m);
    assert.match(renderNavigate(result('references', { total: 12, offset: 60, locations: [] })), /^offset 60 is past the last of 12 locations$/m);
  });

  it('lists callers with their call sites in the caller\'s file, and callees with the accesses they leave out', () => {
    const callers = renderNavigate(
      result('callers', {
        total: 1,
        related: [{ name: 'MyApp.Consumer.Run(IGreeter)', kind: 'method', location: { path: 'src/Consumer.cs', line: 7, character: 26 }, callSites: [loc('src/Consumer.cs', 7, 59)] }],
      }),
    );
    assert.match(callers, /^src\/Consumer\.cs:7:26 method MyApp\.Consumer\.Run\(IGreeter\)\n {2}calls 7:59$/m);

    const callees = renderNavigate(
      result('callees', {
        total: 2,
        omittedAccesses: 3,
        related: [
          { name: 'MyApp.Box.Box(int)', kind: 'constructor', location: { path: 'src/Box.cs', line: 3, character: 12 }, callSites: [loc('src/Greeter.cs', 6, 13, 'var box = new Box(1);'), loc('src/Greeter.cs', 8, 13, 'box = new Box(2);')] },
          { name: 'System.Console.WriteLine(string?)', kind: 'method', location: null, callSites: [loc('src/Greeter.cs', 9, 17)] },
        ],
      }),
    );
    assert.match(callees, /^src\/Box\.cs:3:12 constructor MyApp\.Box\.Box\(int\)\n {2}calls 6:13 var box = new Box\(1\);\n {2}calls 8:13 box = new Box\(2\);\nmethod System\.Console\.WriteLine\(string\?\)\n {2}calls 9:17$/m);
    assert.match(callees, /^3 property, field and constant accesses left out$/m);
  });

  it('locations with context stop under 8 KB with their next offset; without context they are left whole', () => {
    const locations = Array.from({ length: 50 }, (_, i) => ({ ...loc(`src/Generated/File${i}.cs`, i + 1, 9), context: `${'x'.repeat(190)} ${i}` }));
    const text = renderNavigate(result('references', { locations, total: 120, offset: 50, truncated: true, nextOffset: 100 }));
    assert.ok(Buffer.byteLength(text) < 8 * 1024, `${Buffer.byteLength(text)} bytes`);
    const shown = text.split('\n').filter((line) => line.startsWith('src/')).length;
    assert.ok(shown >= 20 && shown < 50, `${shown}`);
    assert.match(text, new RegExp(`\ntruncated: ${shown} of 120 locations shown to stay under 8 KB \\(each with its source line\\), next offset: ${50 + shown}\\. Page on, or ask without context\\.$`));
    const plain = renderNavigate(result('references', { locations: locations.map((l) => ({ ...l, context: null })), total: 120, offset: 50, truncated: true, nextOffset: 100 }));
    assert.match(plain, /\ntruncated: 120 locations in total, next offset: 100\./);
  });

  it('impact: the largest sections by bytes go when long lines pass 8 KB, named beside the ones the host left out', () => {
    const references = Array.from({ length: 40 }, (_, i) => ({ ...loc(`src/Generated/File${i}.cs`, i + 1, 9), context: `${'x'.repeat(190)} ${i}` }));
    const callers = Array.from({ length: 10 }, (_, i) => ({ name: `MyApp.Caller${i}.Run()`, kind: 'method', location: { path: `src/Caller${i}.cs`, line: 3, character: 17 }, via: null, callSites: null }));
    const text = renderNavigate(result('impact', {
      sections: [
        { action: 'references', total: 40, locations: references, related: null, omittedGenerated: 0 },
        { action: 'callers', total: 10, locations: null, related: callers, omittedGenerated: 0 },
      ],
      omittedToFit: [{ action: 'implementations', total: 200, lines: 200 }],
      total: 250,
    }));
    assert.ok(Buffer.byteLength(text) < 8 * 1024, `${Buffer.byteLength(text)} bytes`);
    assert.match(text, /^## callers\nsrc\/Caller0\.cs:3:17 method MyApp\.Caller0\.Run\(\)\n/);
    assert.doesNotMatch(text, /## references/);
    assert.match(text, /\nomitted to fit: implementations \(200 lines\), references \(40 lines\)\. Request those alone\.\n/);
  });

  it('bulk: sections that do not fit under 8 KB together are named with their size, the rest answered', () => {
    const big = (index: number) => ({
      index,
      action: 'source',
      target: `Big${index}`,
      result: result('source', { sources: [{ path: `src/Big${index}.cs`, firstLine: 1, lastLine: 60, kind: 'class', name: `MyApp.Big${index}`, text: Array.from({ length: 60 }, (_, i) => `    public int Value${i} { get; } = ${i}; // ${'x'.repeat(20)}`).join('\n') }] }),
      error: null,
    });
    const hover = { index: 4, action: 'hover', target: 'Greeter.Greet', result: result('hover', { hover: 'string Greeter.Greet(string name)' }), error: null };
    const text = renderBulkNavigate({ timedOut: false, sections: [big(1), big(2), big(3), hover] });
    assert.ok(Buffer.byteLength(text) < 8 * 1024, `${Buffer.byteLength(text)} bytes`);
    assert.match(text, /^## 1 source Big1\nsrc\/Big1\.cs:1-60 class MyApp\.Big1\n/);
    assert.match(text, /\n## 2 source Big2\nomitted to fit under 8 KB \(62 lines, 3770 bytes\): ask for this query alone\.\n## 3 source Big3\nomitted to fit under 8 KB \(62 lines, 3770 bytes\): ask for this query alone\.\n## 4 hover Greeter\.Greet\nstring Greeter\.Greet\(string name\)\n/);
  });

  it('cuts the source of a large declaration under 8 KB and says where the rest starts', () => {
    const body = Array.from({ length: 400 }, (_, i) => `    public int Value${i} => ${i}; // ${'x'.repeat(40)}`);
    const part = { path: 'src/Big.cs', firstLine: 10, lastLine: 411, kind: 'class', name: 'MyApp.Big', text: ['public sealed class Big', '{', ...body.slice(0, 399)].join('\n') };
    const text = renderNavigate(result('source', { sources: [part, { ...part, path: 'src/Big.Part2.cs', firstLine: 1 }] }));
    assert.ok(Buffer.byteLength(text) < 8 * 1024, `${Buffer.byteLength(text)} bytes`);
    const lines = text.split('\n');
    assert.equal(lines[0], 'src/Big.cs:10-411 class MyApp.Big');
    const shownText = lines.length - 3; // The header, the truncated line, the answered-by line.
    assert.match(text, new RegExp(`\ntruncated: ${2 * 401 - shownText} lines of source left out to stay under 8 KB; read src/Big\\.cs from line ${10 + shownText}, or ask members for the outline\\.\n`));
    assert.equal(lines[shownText], `    public int Value${shownText - 3} => ${shownText - 3}; // ${'x'.repeat(40)}`);

    const small = renderNavigate(result('source', { sources: [{ ...part, text: 'public sealed class Big { }', lastLine: 10 }] }));
    assert.doesNotMatch(small, /truncated/);
  });

  it('renders hover as plain text, source after file:first-last headers, and members grouped by file', () => {
    assert.match(renderNavigate(result('hover', { hover: '(method) public string MyApp.Greeter.Greet(string name)\nSays hello.' })), /^\(method\) public string MyApp\.Greeter\.Greet\(string name\)\nSays hello\.\nproject: /);
    const source = renderNavigate(result('source', { sources: [{ path: 'src/Greeter.cs', firstLine: 4, lastLine: 5, kind: 'method', name: symbol.name, text: '    /// <summary>Says hello.</summary>\n    public string Greet(string name) => name;' }] }));
    assert.match(source, /^src\/Greeter\.cs:4-5 method MyApp\.Greeter\.Greet\(string\)\n {4}\/\/\/ <summary>Says hello\.<\/summary>\n {4}public string Greet/);
    const members = renderNavigate(
      result('members', {
        symbol: { name: 'MyApp.Circle', kind: 'class', container: 'MyApp', locations: [{ path: 'src/Circle.A.cs', line: 3, character: 22 }] },
        total: 2,
        members: [
          { path: 'src/Circle.A.cs', line: 5, character: 19, kind: 'property', name: 'Radius' },
          { path: 'src/Circle.B.cs', line: 5, character: 19, kind: 'method', name: 'Area()' },
        ],
      }),
    );
    assert.match(members, /^src\/Circle\.A\.cs:3:22 class MyApp\.Circle\nsrc\/Circle\.A\.cs\n {2}5:19 property Radius\nsrc\/Circle\.B\.cs\n {2}5:19 method Area\(\)$/m);
  });

  it('heads impact sections with ## action and names what did not fit', () => {
    const text = renderNavigate(
      result('impact', {
        sections: [
          { action: 'references', total: 1, locations: [loc('src/A.cs', 3, 5)], related: null, omittedGenerated: 0 },
          { action: 'implementations', total: 0, locations: null, related: [], omittedGenerated: 0 },
        ],
        omittedToFit: [{ action: 'callers', total: 1, lines: 101 }],
      }),
    );
    assert.match(text, /^## references\nsrc\/A\.cs 3:5\n## implementations\nno implementations\nomitted to fit: callers \(101 lines\)\. Request those alone\.$/m);
  });
});

describe('csharp_bulk_navigate and csharp_symbols renderings', () => {
  it('gives one section per query in request order; a failed query shows its error with its candidates', () => {
    const text = renderBulkNavigate({
      timedOut: false,
      sections: [
        { index: 1, action: 'definition', target: 'Greeter.Greet', result: result('definition', { locations: [loc('src/Greeter.cs', 5, 19)], total: 1 }), error: null },
        { index: 2, action: 'references', target: 'Helpers.cs:5:30', result: null, error: { code: 'ambiguous_file', message: "'Helpers.cs' matches 2 files.", candidates: ['src/A/Helpers.cs', 'src/B/Helpers.cs'] } },
        { index: 3, action: 'callers', target: 'Slow.Run', result: null, error: { code: 'timeout', message: 'The bulk call timed out before this query finished.', candidates: null } },
      ],
    });
    assert.equal(
      text,
      [
        '## 1 definition Greeter.Greet',
        'src/Greeter.cs 5:19',
        'project: src/MyApp.csproj (net10.0)',
        '## 2 references Helpers.cs:5:30',
        "error ambiguous_file: 'Helpers.cs' matches 2 files.",
        '  src/A/Helpers.cs',
        '  src/B/Helpers.cs',
        '## 3 callers Slow.Run',
        'error timeout: The bulk call timed out before this query finished.',
      ].join('\n'),
    );
  });

  it('indents document symbols under their container with the declaration end after a dash', () => {
    const document: SymbolsResult = {
      path: 'src/Greeter.cs',
      query: null,
      items: [
        { name: 'MyApp.Greeter', kind: 'class', path: 'src/Greeter.cs', line: 3, character: 14, endLine: 9, endCharacter: 2, depth: 0 },
        { name: 'MyApp.Greeter.Greet(string)', kind: 'method', path: 'src/Greeter.cs', line: 5, character: 18, endLine: 8, endCharacter: 6, depth: 1 },
      ],
      total: 3,
      offset: 0,
      limit: 2,
      truncated: true,
      nextOffset: 2,
      projects: [{ project: 'src/MyApp.csproj', targetFramework: 'net10.0' }],
      incomplete: false,
      excludedAnalyzers: null,
      resolvedFile: 'src/Greeter.cs',
    };
    assert.equal(
      renderSymbols(document),
      [
        'resolved file: src/Greeter.cs',
        '3:14-9:2 class MyApp.Greeter',
        '  5:18-8:6 method MyApp.Greeter.Greet(string)',
        'project: src/MyApp.csproj (net10.0)',
        'truncated: 3 symbols in total, next offset: 2. Raise limit or narrow the query.',
      ].join('\n'),
    );
    const workspace = renderSymbols({ ...document, path: null, query: 'Greet', resolvedFile: null, truncated: false, nextOffset: null, items: [document.items[1]!] });
    assert.equal(workspace.split('\n')[0], 'src/Greeter.cs:5:18 method MyApp.Greeter.Greet(string)');
  });
});

describe('navigation tool arguments', () => {
  it('registers the three tools as read tools', () => {
    for (const name of ['csharp_navigate', 'csharp_bulk_navigate', 'csharp_symbols']) {
      const tool = findTool(name);
      assert.ok(tool, name);
      assert.equal(tool.effects, 'read');
    }
  });

  it('maps symbol and file to the host\'s name and path', () => {
    const input = parseToolInput<NavigateInput>(navigateTool, { action: 'callers', symbol: 'Calculator.Add(int, int)', file: 'Calculator.cs', context: true });
    assert.deepEqual(toNavigateParams(input), { action: 'callers', context: true, name: 'Calculator.Add(int, int)', path: 'Calculator.cs' });
  });

  it('accepts queries as a JSON string and rejects unknown arguments with the valid names', () => {
    const input = parseToolInput<BulkNavigateInput>(bulkNavigateTool, { queries: '[{"action":"hover","symbol":"A.B"},{"action":"source","file":"A.cs","line":3}]', limit: 5 });
    assert.deepEqual(toBulkNavigateParams(input), { limit: 5, queries: [{ action: 'hover', name: 'A.B' }, { action: 'source', path: 'A.cs', line: 3 }] });
    assert.throws(() => parseToolInput(navigateTool, { action: 'hover', symbol: 'A', name: 'A' }), (error: unknown) => {
      assert.ok(error instanceof ToolError);
      assert.equal(error.code, 'invalid_request');
      assert.match(error.message, /unknown argument "name"/);
      assert.match(error.message, /Valid arguments: action, symbol, file, line, character, /);
      return true;
    });
  });

  it('rejects a negative offset, more than 16 queries, a missing target and symbols without file or query', () => {
    assert.throws(() => parseToolInput(navigateTool, { action: 'references', symbol: 'A', offset: -1 }), /invalid_request|offset/);
    const queries = Array.from({ length: 17 }, () => ({ action: 'hover', symbol: 'A' }));
    assert.throws(() => parseToolInput(bulkNavigateTool, { queries }), /queries/);
    assert.throws(() => parseToolInput(navigateTool, { action: 'hover' }), /Give symbol, or file with line/);
    assert.throws(() => parseToolInput(navigateTool, { action: 'teleport', symbol: 'A' }), /action/);
    assert.throws(() => parseToolInput(symbolsTool, {}), /exactly one of file or query/);
  });

  it('turns the host\'s ambiguous_file into "error ambiguous_file:" with one path per line', () => {
    const error = toToolError({ code: -32001, message: 'x', data: { kind: 'ambiguous_file', message: "'Helpers.cs' matches 2 files.", candidates: ['Core/A/Helpers.cs', 'Core/B/Helpers.cs'], projects: null, command: null } });
    assert.ok(error instanceof ToolError);
    assert.equal(error.render(), "error ambiguous_file: 'Helpers.cs' matches 2 files.\n  Core/A/Helpers.cs\n  Core/B/Helpers.cs");
  });

  it('starts the diagnostics answer with the resolved file too', () => {
    const text = renderDiagnostics({
      projects: [],
      diagnostics: [],
      summary: null,
      severity: 'warning',
      filteredByIds: false,
      filesChecked: 1,
      total: 0,
      filesWithDiagnostics: 0,
      belowSeverity: 0,
      offset: 0,
      limit: 50,
      truncated: false,
      nextOffset: null,
      incomplete: [],
      excludedAnalyzers: null,
      resolvedFile: 'App/Warn.cs',
    });
    assert.equal(text.split('\n')[0], 'resolved file: App/Warn.cs');
  });
});

describe('excluded analyzers in answers (one line; the full list only in dotnet_solution_inspect)', () => {
  // 18 projects, each excluding 12 package analyzers and a project generator: the shape that made every answer carry ~10 KB.
  const excluded = Array.from({ length: 18 }, (_, p) => ({
    project: `src/Project${p}/Project${p}.csproj`,
    targetFramework: 'net10.0',
    analyzers: [
      { path: `src/Gen/bin/Gen.dll`, name: 'Gen.dll', origin: 'project' as const, package: null },
      ...Array.from({ length: 12 }, (_, a) => ({ path: `/home/u/.nuget/packages/analyzers${a}/1.0.0/analyzers/dotnet/cs/Analyzers${a}.dll`, name: `Analyzers${a}.dll`, origin: 'package' as const, package: `analyzers${a}/1.0.0` })),
    ],
  }));

  it('a navigate answer names the exclusion in one line: the count, and the names in the answering project', () => {
    const text = renderNavigate(result('definition', { project: 'src/Project3/Project3.csproj', locations: [loc('src/Greeter.cs', 5, 19)], total: 1, excludedAnalyzers: excluded }));
    const lines = text.split('\n').filter((line) => line.startsWith('excluded'));
    assert.deepEqual(lines, ['excluded: 234 project/package analyzer(s)/generator(s) in 18 project(s) not run; in the answering project: Analyzers0.dll, Analyzers1.dll, Analyzers10.dll, Analyzers11.dll, Analyzers2.dll, +8 more (full list: dotnet_solution_inspect)']);
    assert.ok(Buffer.byteLength(text) < 1024);
  });

  it('a 16-query bulk answer carries it once and stays under 8 KB', () => {
    const text = renderBulkNavigate({
      timedOut: false,
      sections: Array.from({ length: 16 }, (_, i) => ({ index: i + 1, action: 'definition', target: `T${i}`, result: result('definition', { locations: [loc('src/Greeter.cs', 5, 19)], total: 1, excludedAnalyzers: excluded }), error: null })),
    });
    assert.equal(text.split('\n').filter((line) => line.startsWith('excluded')).length, 1);
    assert.ok(Buffer.byteLength(text) < 8 * 1024, `${Buffer.byteLength(text)} bytes`);
  });

  it('a diagnostics page of polyfill errors (CommunityToolkit/dotnet) names the generators once and stays under 8 KB, paging on', () => {
    const generators = 'Microsoft.CodeAnalysis.Analyzers, Microsoft.CodeAnalysis.CSharp.Analyzers, PolySharp.SourceGenerators';
    const diagnostics = Array.from({ length: 50 }, (_, i) => ({
      path: `src/CommunityToolkit.Mvvm.SourceGenerators/ComponentModel/Models/Info${Math.floor(i / 8)}.cs`,
      line: 10 + i, character: 16, endLine: 10 + i, endCharacter: 20, severity: 'error', id: 'CS0518',
      message: "Predefined type 'System.Runtime.CompilerServices.IsExternalInit' is not defined or imported",
      project: 'src/CommunityToolkit.Mvvm.SourceGenerators.Roslyn4001/CommunityToolkit.Mvvm.SourceGenerators.Roslyn4001.csproj',
      excludedGenerator: generators,
    }));
    const text = renderDiagnostics({
      projects: [], diagnostics, summary: null, severity: 'error', filteredByIds: false, filesChecked: 329, total: 105, filesWithDiagnostics: 28, belowSeverity: 1804,
      offset: 0, limit: 50, truncated: true, nextOffset: 50,
      incomplete: Array.from({ length: 55 }, (_, i) => `tests/CommunityToolkit.Mvvm.UnitTests/Test${i}.cs`),
      excludedAnalyzers: null, possiblyFromExcludedGenerators: 105,
    });
    assert.ok(Buffer.byteLength(text) < 8 * 1024, `${Buffer.byteLength(text)} bytes`);
    assert.equal(text.split(generators).length - 1, 1);
    assert.match(text, /^ {2}11:16 error CS0518 .* \(possibly from the excluded generator, as above\)$/m);
    assert.match(text, /^incomplete: 55 files in no project, so no semantic diagnostics: tests\/CommunityToolkit\.Mvvm\.UnitTests\/Test0\.cs, .*Test4\.cs, \+50 more$/m);
    const shown = text.split('\n').filter((line) => line.startsWith('  ')).length;
    assert.ok(shown > 20 && shown < 50, `${shown} lines`);
    assert.match(text, new RegExp(`^truncated: ${shown} of 105 diagnostics shown to stay under 8 KB, next offset: ${shown}\\.`, 'm'));
  });

  it('diagnostics mark errors possibly from an excluded generator and count them apart in the totals line', () => {
    const text = renderDiagnostics({
      projects: [{ project: 'Consumer/Consumer.csproj', targetFramework: 'net10.0' }],
      diagnostics: [
        { path: 'Consumer/Report.cs', line: 1, character: 16, endLine: 1, endCharacter: 25, severity: 'error', id: 'CS0234', message: "The type or namespace name 'Generated' does not exist in the namespace 'Consumer'", project: 'Consumer/Consumer.csproj', excludedGenerator: 'Generator' },
        { path: 'Consumer/Report.cs', line: 9, character: 5, endLine: 9, endCharacter: 6, severity: 'error', id: 'CS0029', message: 'Cannot convert', project: 'Consumer/Consumer.csproj', excludedGenerator: null },
      ],
      summary: null,
      severity: 'warning',
      filteredByIds: false,
      filesChecked: 1,
      total: 2,
      filesWithDiagnostics: 1,
      belowSeverity: 0,
      offset: 0,
      limit: 50,
      truncated: false,
      nextOffset: null,
      incomplete: [],
      excludedAnalyzers: [{ project: 'Consumer/Consumer.csproj', targetFramework: 'net10.0', analyzers: [{ path: 'Generator/bin/Debug/netstandard2.0/Generator.dll', name: 'Generator.dll', origin: 'project', package: null }] }],
      possiblyFromExcludedGenerators: 1,
    });
    assert.match(text, /^ {2}1:16 error CS0234 .*'Consumer' \(possibly from the excluded generator Generator\)$/m);
    assert.match(text, /^ {2}9:5 error CS0029 Cannot convert$/m);
    assert.match(text, /^1 file checked, 2 diagnostics \(1 possibly from excluded generators, listed last: a build may not have them\) in 1 file$/m);
    assert.match(text, /^excluded: 1 project\/package analyzer\(s\)\/generator\(s\) in 1 project\(s\) not run; in the answering project: Generator\.dll/m);
  });

  it('says first which excluded generator was not run and where, names it on each error it may explain, partial types first, and tags summary lines', () => {
    const base = { endLine: 1, endCharacter: 2, severity: 'error' };
    const text = renderDiagnostics({
      projects: [],
      diagnostics: [
        { ...base, path: 'Standalone/Counter.cs', line: 7, character: 9, id: 'CS0103', message: "The name 'missing' does not exist in the current context", project: 'Standalone/Standalone.csproj' },
        { ...base, path: 'Shapes.Models/Circle.cs', line: 11, character: 43, id: 'CS0311', message: 'No conversion to IShapeable<Circle>', project: 'Shapes.Models/Shapes.Models.csproj', excludedGenerator: 'Markers.Gen', partialType: 'Circle' },
        { ...base, path: 'App/Gallery.cs', line: 8, character: 50, id: 'CS0311', message: 'No conversion to IShapeable<Circle>', project: 'App/App.csproj', excludedGenerator: 'Markers.Gen' },
        { ...base, path: 'Standalone/Counter.cs', line: 9, character: 1, id: 'CS0266', message: 'Cannot convert', project: 'Standalone/Legacy.csproj', excludedGenerator: 'PolySharp, Markers.Gen' },
      ],
      summary: null, severity: 'warning', filteredByIds: false, filesChecked: 6, total: 4, filesWithDiagnostics: 3, belowSeverity: 0,
      offset: 0, limit: 50, truncated: false, nextOffset: null, incomplete: [], excludedAnalyzers: null, possiblyFromExcludedGenerators: 3,
      generatorCaveats: [
        { generator: 'Markers.Gen', origin: 'project generator', errors: 3, projectCount: 5, projects: ['App/App.csproj', 'Shapes.Models/Shapes.Models.csproj', 'Standalone/Legacy.csproj'] },
        { generator: 'PolySharp', origin: 'package generator PolySharp/1.15.0', errors: 1, projectCount: 1, projects: ['Standalone/Legacy.csproj'] },
      ],
    });
    assert.deepEqual(text.split('\n'), [
      'Markers.Gen (project generator) was not run: 3 errors in 5 projects may not be real (App/App.csproj, Shapes.Models/Shapes.Models.csproj, Standalone/Legacy.csproj and 2 more)',
      'PolySharp (package generator PolySharp/1.15.0) was not run: 1 error in 1 project may not be real (Standalone/Legacy.csproj)',
      'Standalone/Counter.cs',
      "  7:9 error CS0103 The name 'missing' does not exist in the current context",
      'Shapes.Models/Circle.cs',
      '  11:43 error CS0311 No conversion to IShapeable<Circle> (possibly from the excluded generator Markers.Gen; it may complete partial Circle)',
      'App/Gallery.cs',
      '  8:50 error CS0311 No conversion to IShapeable<Circle> (possibly from the excluded generator, as above)',
      'Standalone/Counter.cs',
      '  9:1 error CS0266 Cannot convert (possibly from the excluded generators PolySharp, Markers.Gen)',
      '6 files checked, 4 diagnostics (3 possibly from excluded generators, listed last: a build may not have them) in 3 files',
    ]);

    const summary = renderDiagnostics({
      projects: [], diagnostics: null,
      summary: [
        { id: 'CS0103', count: 1, severity: 'error', example: { path: 'Standalone/Counter.cs', line: 7, character: 9 }, message: 'missing', excludedGenerator: null },
        { id: 'CS0311', count: 613, severity: 'error', example: { path: 'App/Gallery.cs', line: 8, character: 50 }, message: 'No conversion', excludedGenerator: 'Markers.Gen' },
      ],
      severity: 'warning', filteredByIds: false, filesChecked: 6, total: 614, filesWithDiagnostics: 3, belowSeverity: 0,
      offset: 0, limit: 50, truncated: false, nextOffset: null, incomplete: [], excludedAnalyzers: null, possiblyFromExcludedGenerators: 613,
      generatorCaveats: [{ generator: 'Markers.Gen', origin: 'project generator', errors: 613, projectCount: 1, projects: ['App/App.csproj'] }],
    });
    assert.deepEqual(summary.split('\n').slice(0, 3), [
      'Markers.Gen (project generator) was not run: 613 errors in 1 project may not be real (App/App.csproj)',
      'CS0103 x1 error Standalone/Counter.cs:7:9 missing',
      'CS0311 x613 error App/Gallery.cs:8:50 No conversion (possibly from the excluded generator Markers.Gen)',
    ]);
  });

  it('says first which project\'s restore failed and with what, tags its errors, counts them apart (fixtures/RestoreFailed, as the host answers it)', () => {
    const base = { endLine: 1, endCharacter: 2, severity: 'error' };
    const text = renderDiagnostics({
      projects: [],
      diagnostics: [
        { ...base, path: 'Core/Broken.cs', line: 6, character: 34, id: 'CS0103', message: "The name 'missing' does not exist in the current context", project: 'Core/Core.csproj', restoreFailed: null },
        { ...base, path: 'App/Uses.cs', line: 1, character: 7, id: 'CS0246', message: "The type or namespace name 'NoSuchPackage' could not be found", project: 'App/App.csproj', restoreFailed: 'NU1101 SharpClaw.Fixtures.NoSuchPackage' },
      ],
      summary: null, severity: 'error', filteredByIds: false, filesChecked: 2, total: 2, filesWithDiagnostics: 2, belowSeverity: 1,
      offset: 0, limit: 50, truncated: false, nextOffset: null, incomplete: [], excludedAnalyzers: null, possiblyFromExcludedGenerators: 0,
      possiblyFromFailedRestores: 1,
      restoreCaveats: [{ project: 'App/App.csproj', failure: 'NU1101 SharpClaw.Fixtures.NoSuchPackage', errors: 1 }],
    });
    assert.deepEqual(text.split('\n'), [
      'the restore of App/App.csproj failed (NU1101 SharpClaw.Fixtures.NoSuchPackage): its 1 error may come from what it could not restore; a build stops at the restore',
      'Core/Broken.cs',
      "  6:34 error CS0103 The name 'missing' does not exist in the current context",
      'App/Uses.cs',
      "  1:7 error CS0246 The type or namespace name 'NoSuchPackage' could not be found (possibly from its project's failed restore)",
      '2 files checked, 2 diagnostics (1 possibly from failed restores, listed last: a build may not have them) in 2 files, 1 below the severity',
    ]);

    const summary = renderDiagnostics({
      projects: [], diagnostics: null,
      summary: [
        { id: 'CS0103', count: 1, severity: 'error', example: { path: 'Core/Broken.cs', line: 6, character: 34 }, message: 'missing', excludedGenerator: null, restoreFailed: false },
        { id: 'CS0246', count: 3, severity: 'error', example: { path: 'App/Uses.cs', line: 1, character: 7 }, message: 'not found', excludedGenerator: 'Gen', restoreFailed: true },
      ],
      severity: 'error', filteredByIds: false, filesChecked: 2, total: 4, filesWithDiagnostics: 2, belowSeverity: 0,
      offset: 0, limit: 50, truncated: false, nextOffset: null, incomplete: [], excludedAnalyzers: null, possiblyFromExcludedGenerators: 3, possiblyFromFailedRestores: 3,
    });
    assert.deepEqual(summary.split('\n'), [
      'CS0103 x1 error Core/Broken.cs:6:34 missing',
      "CS0246 x3 error App/Uses.cs:1:7 not found (possibly from its project's failed restore; possibly from the excluded generator Gen)",
      '2 files checked, 4 diagnostics (3 possibly from failed restores, 3 possibly from excluded generators, listed last: a build may not have them) in 2 files',
    ]);
  });
});

describe('list answers an excluded generator could add to', () => {
  const gaps = [{ generator: 'Markers.Gen', origin: 'project generator', projectCount: 4, projects: ['App/App.csproj', 'Models/Models.csproj', 'Tests/Tests.csproj'] }];

  it('an empty implementation list is not a confident "none": the generator and its projects are named next to it', () => {
    const text = renderNavigate(result('implementation', { generatorGaps: gaps }));
    assert.deepEqual(text.split('\n').slice(0, 3), [
      'no implementations',
      'may be incomplete: Markers.Gen (project generator, not run) could implement it in App/App.csproj, Models/Models.csproj, Tests/Tests.csproj and 1 more',
      'project: src/MyApp.csproj (net10.0)',
    ]);
  });

  it('callers say what a generator could call and count the call sites in source-generated code they leave out', () => {
    const text = renderNavigate(result('callers', { generatorGaps: gaps, omittedGenerated: 2 }));
    assert.deepEqual(text.split('\n').slice(0, 4), [
      'no callers',
      'Reflection or code outside the workspace may still call it.',
      '2 source-generated call sites left out',
      'may be incomplete: Markers.Gen (project generator, not run) could call it in App/App.csproj, Models/Models.csproj, Tests/Tests.csproj and 1 more',
    ]);
    const impact = renderNavigate(result('impact', { sections: [{ action: 'callers', total: 0, locations: null, related: [], omittedGenerated: 1 }], generatorGaps: gaps }));
    assert.match(impact, /^## callers\nno callers\nReflection or code outside the workspace may still call it\.\n1 source-generated call site left out\nmay be incomplete: Markers\.Gen \(project generator, not run\) could reference, call or implement it in /m);
  });

  it('a type the generator may declare itself (post-initialization output) is named with where its uses bind to nothing; empty is not "none"', () => {
    const declaring = [{ generator: 'Jab', origin: 'package generator Jab/0.11.0', projectCount: 1, projects: ['App/App.csproj'], declares: 'IServiceProvider<T>', unresolvedUses: 152 }, ...gaps];
    const text = renderNavigate(result('implementation', { generatorGaps: declaring }));
    assert.deepEqual(text.split('\n').slice(0, 3), [
      'no implementations in the compiled code',
      'Jab (package generator Jab/0.11.0, not run) may declare IServiceProvider<T>: 152 uses (base types, attributes, typeof) in App/App.csproj name it and bind to nothing, so what implements or uses it there cannot be listed',
      'may be incomplete: Markers.Gen (project generator, not run) could implement it in App/App.csproj, Models/Models.csproj, Tests/Tests.csproj and 1 more',
    ]);
    assert.equal(renderNavigate(result('implementation', { generatorGaps: gaps })).split('\n')[0], 'no implementations');
    // callers and tests list related symbols, not locations: the same words on their empty line.
    assert.equal(renderNavigate(result('callers', { generatorGaps: declaring })).split('\n')[0], 'no callers in the compiled code');
    assert.equal(renderNavigate(result('tests', { generatorGaps: declaring })).split('\n')[0], 'no tests reach it in the compiled code');
    assert.equal(renderNavigate(result('callers', { generatorGaps: gaps })).split('\n')[0], 'no callers');
  });

  it('references and the type hierarchy carry the same line; answers without gaps carry none', () => {
    assert.match(renderNavigate(result('references', { generatorGaps: gaps })), /^may be incomplete: Markers\.Gen \(project generator, not run\) could reference it in /m);
    assert.doesNotMatch(renderNavigate(result('callers')), /may be incomplete/);
    assert.doesNotMatch(renderNavigate(result('hover', { hover: 'x', generatorGaps: gaps })), /may be incomplete/);
  });
});

describe('csharp_navigate tests: the reached test methods, where the walk could not follow, its limit', () => {
  const test = (path: string, line: number, name: string) => ({ name, kind: 'test', location: { path, line, character: 17 }, callSites: null });
  const places = (count: number) => Array.from({ length: count }, (_, i) => ({ kind: i % 2 ? 'dynamic' : 'reflection', path: `src/P${i}.cs`, line: i + 1, character: 5 }));

  it('one "path:line:char test Namespace.Class.Method" line per test, paged like the other lists', () => {
    const text = renderNavigate(
      result('tests', {
        related: [test('tests/A/CalcTests.cs', 12, 'A.Tests.CalcTests.Adds'), test('tests/B/MoreTests.cs', 3, 'B.Tests.MoreTests.Works')],
        total: 5,
        truncated: true,
        nextOffset: 2,
        limit: 2,
      }),
    );
    assert.deepEqual(text.split('\n').slice(0, 2), ['tests/A/CalcTests.cs:12:17 test A.Tests.CalcTests.Adds', 'tests/B/MoreTests.cs:3:17 test B.Tests.MoreTests.Works']);
    assert.match(text, /^truncated: 5 tests in total, next offset: 2\. Raise limit or narrow the query\.$/m);
  });

  it('names where it could not follow (the first five of more), and the limit it stopped at', () => {
    const text = renderNavigate(result('tests', { related: [], total: 0, unfollowable: { total: 7, kinds: ['reflection', 'dynamic'], places: places(5) }, walkLimit: 3000 }));
    const lines = text.split('\n');
    assert.equal(lines[0], 'no tests reach it');
    assert.equal(
      lines[1],
      'cannot follow: src/P0.cs:1:5 reflection, src/P1.cs:2:5 dynamic, src/P2.cs:3:5 reflection, src/P3.cs:4:5 dynamic, src/P4.cs:5:5 reflection (first 5 of 7); tests reaching it only through these are not listed',
    );
    assert.equal(lines[2], 'walk limit: stopped after 3000 members; more tests may reach it');
  });

  it('past the last test, and without anything unfollowable, says only that', () => {
    assert.equal(renderNavigate(result('tests', { related: [], total: 3, offset: 10 })).split('\n')[0], 'offset 10 is past the last of 3 tests');
    assert.doesNotMatch(renderNavigate(result('tests', { related: [test('t/T.cs', 1, 'T.A')], total: 1 })), /cannot follow|walk limit/);
  });
});
