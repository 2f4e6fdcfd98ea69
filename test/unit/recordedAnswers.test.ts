// What `sharpclaw tool` prints for the host's recorded answers (test/host-answers; the server tests check
// each against a live host, test/support/hostAnswers.ts replays it through the client's real pipeline).
// Every recording: the tool sends exactly the recorded params and its answer passes the protocol's
// schema. Then, per bug class, what a person sees: C# 14 extension members, multi-targeted libraries,
// answers on large code and long lines kept under 8 KB with the way on.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from '../support/fixtures';
import { allRecordings, recording, replay, replayOverMcp } from '../support/hostAnswers';

const printed = async (id: string) => {
  const { outcome, stdout, stderr } = await replay(recording(id));
  assert.ok(outcome.ok, `${id}: ${stderr}`);
  return stdout;
};
const refused = async (id: string) => {
  const { outcome, stderr } = await replay(recording(id));
  assert.ok(!outcome.ok, `${id} answered: ${outcome.text}`);
  return stderr;
};
const kilobytes8 = 8 * 1024;

describe('recorded host answers: each tool sends the recorded params, renders the answer, and MCP says the same', () => {
  for (const answer of allRecordings()) {
    it(answer.id, async () => {
      const { outcome } = await replay(answer);
      // A recorded error is a typed error, never an internal one; a recorded result renders.
      if (answer.error) assert.ok(!outcome.ok && outcome.error.code !== 'internal_error', outcome.text);
      else assert.ok(outcome.ok, outcome.text);
      assert.ok(Buffer.byteLength(outcome.text) < kilobytes8, `${Buffer.byteLength(outcome.text)} bytes`);

      // The MCP server: the same text (tool names as it serves them), isError for an error, the structure the whole-result budget left beside the text (structuredResult.ts) as structured content.
      const mcp = await replayOverMcp(answer);
      const content = mcp.result.content as Array<{ type: string; text: string }>;
      const expected = mcp.expected(outcome);
      assert.deepEqual(content, [{ type: 'text', text: expected.text }]);
      assert.equal(mcp.result.isError === true, !outcome.ok);
      assert.deepEqual(mcp.result.structuredContent, expected.structured);
    });
  }
});

describe('C# 14 extension members (fixtures/ExtensionMembers): the name symbol_search prints is one navigate resolves', () => {
  it('symbol_search names a block member with the block as a segment (it printed "TextExtensions..Shout()")', async () => {
    const lines = (await printed('ExtensionMembers/symbol-search-shout')).split('\n').filter((line) => line.startsWith('TextExtensions.cs:'));
    assert.deepEqual(lines, ['TextExtensions.cs:11:23 method TextExtensions.extension(string).Shout()', 'TextExtensions.cs:13:23 method TextExtensions.extension(string).Shout(int)']);
    assert.equal(recording('ExtensionMembers/references-shout').input.symbol, lines[0]!.split(' method ')[1], 'the references query asks by the printed name');
  });

  it('references and callers of the member by that name and by the name without the block', async () => {
    assert.match(await printed('ExtensionMembers/references-shout'), /^TextExtensions\.cs 13:80\nUsages\.cs 7:31 13:52\n/);
    assert.match(await printed('ExtensionMembers/callers-shout'), /^Usages\.cs:13:26 method Shapes\.Usages\.Again\(\)\n {2}calls 13:52$/m);
  });
});

describe('a multi-targeted library (fixtures/MultiTargetHierarchy: netstandard2.0;netstandard2.1)', () => {
  it('names the flavours once on the project line and marks callers through an interface or base member', async () => {
    const sections = (await printed('MultiTargetHierarchy/bulk-flavours')).split(/^## /m).filter(Boolean);
    assert.equal(sections.length, 3, sections.join('## '));
    // One-compilation answer: the default flavour is the one 3 of the 4 dependent projects compile against.
    assert.match(sections[0]!, /^project: Lib\/Lib\.csproj \(netstandard2\.1: 3 of 4 dependent projects compile against it; not searched: netstandard2\.0\)$/m);
    // Searched and merged: said once, compactly.
    assert.match(sections[1]!, /^project: Lib\/Lib\.csproj \(netstandard2\.0, netstandard2\.1; searched both\)$/m);
    assert.match(sections[1]!, /class Legacy\.Hexagon/);
    assert.match(sections[1]!, /class Shapes\.Square/);
    assert.equal(sections[1]!.match(/^project: /gm)?.length, 1);
    assert.match(sections[2]!, /^Transitive\/Report\.cs:8:26 method Transitive\.Report\.Total\(Lib\.IShape\) via Lib\.IShape\.Area\(\)$/m);
    assert.match(sections[2]!, /^Transitive\/Report\.cs:10:26 method Transitive\.Report\.Base\(Lib\.ShapeBase\) via Lib\.ShapeBase\.Area\(\)$/m);
  });
});

describe('navigate on large code (fixtures/LongSource: a class of 400 properties, 60 lines of 250 characters) stays under 8 KB', () => {
  it('cuts the class under 8 KB, naming where the rest starts; a member comes whole', async () => {
    const whole = await printed('LongSource/source-class');
    assert.ok(Buffer.byteLength(whole) < kilobytes8, `${Buffer.byteLength(whole)} bytes`);
    const lines = whole.split('\n');
    assert.equal(lines[0], 'Settings.cs:3-1205 class LongSource.Settings');
    assert.equal(lines[1], '/// <summary>A settings class as large as real ones get: its source is far past 8 KB.</summary>');
    const cut = /^truncated: (\d+) lines of source left out to stay under 8 KB; read Settings\.cs from line (\d+), or ask members for the outline\.$/m.exec(whole);
    assert.ok(cut, whole);
    const from = Number(cut[2]);
    assert.equal(Number(cut[1]), 1205 - from + 1);
    const shown = lines.slice(1, lines.findIndex((line) => line.startsWith('truncated: ')));
    assert.equal(shown.length, from - 3);
    const file = fs.readFileSync(path.join(repoRoot, 'fixtures', 'LongSource', 'Settings.cs'), 'utf8').split('\n');
    assert.deepEqual(shown, file.slice(2, from - 1));

    const member = await printed('LongSource/source-member');
    assert.match(member, /^Settings\.cs:1203-1204 property LongSource\.Settings\.Setting399\n {4}\/\/\/ <summary>Setting number 399\.<\/summary>\n {4}public int Setting399 \{ get; set; \} = 399;\n/);
    assert.doesNotMatch(member, /truncated/);
  });

  it('references with context: each long line cut around the reference, the page stopped under 8 KB with its next offset', async () => {
    const first = await printed('LongSource/references-context');
    assert.ok(Buffer.byteLength(first) < kilobytes8, `${Buffer.byteLength(first)} bytes`);
    const lines = first.split('\n').filter((line) => line.startsWith('Usages.cs:'));
    assert.ok(lines.length >= 10, first);
    lines.forEach((line, i) => assert.match(line, new RegExp(`^Usages\\.cs:${6 + i}:\\d+ ….*settings\\.Setting001 \\* ${i};$`)));
    // Cut by the text's own budget, or by the whole result's (text and structure: wholeResult.ts).
    assert.match(first, new RegExp(`^truncated: (?:${lines.length} of 60 locations shown to stay under 8 KB \\(each with its source line\\)|60 locations in total), next offset: ${lines.length}\\.`, 'm'));
    const next = recording('LongSource/references-context-next');
    assert.equal(next.input.offset, lines.length, 'the second page asks from the offset the first names');
    assert.match((await printed(next.id)).split('\n')[0]!, new RegExp(`^Usages\\.cs:${6 + lines.length}:\\d+ `));
  });

  it('impact with context: a section whose lines pass 8 KB is named with the ones the host left out', async () => {
    const impact = await printed('LongSource/impact-context');
    assert.ok(Buffer.byteLength(impact) < kilobytes8, `${Buffer.byteLength(impact)} bytes`);
    assert.match(impact, /^omitted to fit: .*references \(60 lines\).*\. Request those alone\.$/m);
    assert.doesNotMatch(impact, /^## references$/m);
  });

  it('bulk: a section that does not fit beside the others is named with its size, the others answered', async () => {
    const bulk = await printed('LongSource/bulk-budget');
    assert.ok(Buffer.byteLength(bulk) < kilobytes8, `${Buffer.byteLength(bulk)} bytes`);
    assert.match(bulk, /^## 1 source LongSource\.Settings\.Setting001\nSettings\.cs:9-10 property LongSource\.Settings\.Setting001\n/);
    assert.match(bulk, /\n## 2 source LongSource\.Settings\nomitted to fit under 8 KB \(\d+ lines, \d+ bytes\): ask for this query alone\.\n## 3 hover LongSource\.Settings\.Setting399\n.*Setting399/);
  });
});

describe('the syntax-only searches on long lines and long declarations (fixtures/StoreLongAnswers) stay under 8 KB', () => {
  it('workspace_search: 80 generated lines of 270 characters, each cut around its match, paged on from where it cut', async () => {
    const text = await printed('StoreLongAnswers/workspace-search-long-lines');
    assert.ok(Buffer.byteLength(text) < kilobytes8, `${Buffer.byteLength(text)} bytes`);
    const matches = text.split('\n').filter((line) => line.startsWith('src/'));
    assert.ok(matches.length >= 10, text);
    matches.forEach((line, i) => assert.match(line, new RegExp(`^src/Generated/Messages\\.cs:${6 + i}:\\d+ ….*\\(see LookupKey${String(i).padStart(2, '0')} for the key that names it\\)";$`)));
    const cut = /^truncated: (\d+) of 80 matching lines in 1 file shown to stay under 8 KB, next offset: (\d+)\./m.exec(text);
    assert.ok(cut, text);
    assert.equal(Number(cut[1]), matches.length);
    const next = recording('StoreLongAnswers/workspace-search-long-lines-next');
    assert.equal(next.input.offset, Number(cut[2]), 'the second page asks from the offset the first names');
    assert.match((await printed(next.id)).split('\n')[1]!, new RegExp(`^src/Generated/Messages\\.cs:${6 + matches.length}:\\d+ .*LookupKey${String(matches.length).padStart(2, '0')} `));
  });

  it('symbol_search: 60 overloads whose names run past 200 characters', async () => {
    const symbols = await printed('StoreLongAnswers/symbol-search-long-names');
    assert.ok(Buffer.byteLength(symbols) < kilobytes8, `${Buffer.byteLength(symbols)} bytes`);
    const declarations = symbols.split('\n').filter((line) => line.startsWith('src/'));
    assert.ok(declarations.length >= 10, symbols);
    assert.match(symbols, new RegExp(`^truncated: ${declarations.length} of 60 declarations shown to stay under 8 KB, next offset: ${declarations.length}\\.`, 'm'));
  });

  it('a bad regular expression is the host\'s typed invalid_request', async () => {
    assert.match(await refused('StoreLongAnswers/workspace-search-bad-regex'), /^error invalid_request: .*not a valid regular expression/m);
  });
});

describe('the edit tools\' answers (fixtures/EditTools)', () => {
  it('a rename preview names its proposal and files, shows the changed lines, and writes nothing', async () => {
    const preview = await printed('EditTools/rename-preview');
    assert.match(preview, /^proposal [0-9a-f]{6}: 4 files, not applied$/m);
    assert.match(preview, /^\+ {5}public int Sum\(int a, int b\) => a \+ b;$/m);
  });

  it('typed edit errors: a keyword as the new name, and a rename that would touch a generated file', async () => {
    assert.match(await refused('EditTools/rename-keyword'), /^error invalid_identifier: 'class' is a C# keyword; write '@class'/m);
    assert.match(await refused('EditTools/rename-generated'), /^error generated_document: .*Lib\/Settings\.Designer\.cs/m);
  });

  it('dotnet_solution_inspect: the target, its projects as MSBuild evaluates them, the test project by its evaluated property', async () => {
    const { outcome } = await replay(recording('EditTools/inspect'));
    assert.ok(outcome.ok, outcome.text);
    const data = outcome.data as { target: string; projects: Array<{ path: string; isTestProject: boolean; isTestProjectSource: string }> };
    assert.equal(data.target, 'EditTools.slnx');
    assert.deepEqual(data.projects.map((p) => p.path).sort(), ['App/App.csproj', 'Lib/Lib.csproj', 'Tests/Tests.csproj']);
    const tests = data.projects.find((p) => p.path.startsWith('Tests/'))!;
    assert.equal(tests.isTestProject, true);
    assert.equal(tests.isTestProjectSource, 'evaluated');
    assert.match(outcome.text, /^target: EditTools\.slnx \(Debug\), 3 projects, load complete(, cached)?$/m);
    assert.match(await refused('EditTools/inspect-missing-target'), /^error invalid_request: The target 'Nope\.slnx' does not exist\./m);
  });
});

describe('csharp_diagnostics with the default severity of .sharpclaw/settings.jsonc (fixtures/ReadTools, App/Warn.cs: CS0168)', () => {
  const home = process.env.HOME;
  let workspace: string;
  beforeEach(() => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-unit-settings-'));
    process.env.HOME = workspace; // no user settings file from the machine
  });
  afterEach(() => {
    process.env.HOME = home;
    fs.rmSync(workspace, { recursive: true, force: true });
  });
  const settings = (text: string) => {
    fs.mkdirSync(path.join(workspace, '.sharpclaw'), { recursive: true });
    fs.writeFileSync(path.join(workspace, '.sharpclaw', 'settings.jsonc'), text);
  };
  const input = { path: 'App/Warn.cs' };

  it('reports the warning by default, hides it below a project default of error, and an explicit severity wins', async () => {
    const byDefault = await replay({ ...recording('ReadTools/diagnostics-warning'), input }, workspace);
    assert.match(byDefault.stdout, /^ {2}\d+:\d+ warning CS0168 /m);

    settings('{ "diagnostics": { "defaultSeverity": "error" } }');
    // The settings' severity is what the tool sends: the params of the recorded severity-error query.
    const errorsOnly = await replay({ ...recording('ReadTools/diagnostics-errors-only'), input }, workspace);
    assert.doesNotMatch(errorsOnly.stdout, /CS0168/);
    assert.match(errorsOnly.stdout, /^1 file checked, 0 diagnostics in 0 files, 1 below the severity$/m);

    const explicit = await replay({ ...recording('ReadTools/diagnostics-warning'), input: { ...input, severity: 'warning' } }, workspace);
    assert.match(explicit.stdout, /^ {2}\d+:\d+ warning CS0168 /m);
  });

  it('rejects an invalid default with invalid_request naming the key and the file, before asking the host', async () => {
    settings('{ "diagnostics": { "defaultSeverity": "loud" } }');
    const { outcome } = await replay({ ...recording('ReadTools/diagnostics-warning'), input }, workspace, { hostCalls: 0 });
    assert.equal(outcome.ok, false);
    assert.match(outcome.text, /^error invalid_request: Invalid setting diagnostics\.defaultSeverity = "loud" in .*settings\.jsonc: expected one of error, warning, information, hint\./m);
  });
});

describe('the read tools\' answers (fixtures/ReadTools)', () => {
  it('diagnostics: a file, and a filter by ids', async () => {
    assert.match(await printed('ReadTools/diagnostics-broken'), /^App\/Broken\.cs\n {2}5:\d+ error CS0103 The name 'UndefinedThing' does not exist in the current context\n1 file checked, 1 diagnostic in 1 file$/m);
    assert.equal(await printed('ReadTools/diagnostics-ids'), "App/Warn.cs\n  7:13 warning CS0168 The variable 'unused' is declared but never used\n1 file checked, 1 diagnostic in 1 file, filtered by ids\n");
  });

  it('navigate pages with limit and offset: no overlap, the total kept, past the end says the total', async () => {
    const first = await printed('ReadTools/references-page-1');
    assert.match(first, /^App\/Many\.cs 11:18 12:18 13:18 14:18 15:18$/m);
    assert.match(first, /^truncated: 100 locations in total, next offset: 5\. Raise limit or narrow the query\.$/m);
    const second = await printed('ReadTools/references-page-2');
    assert.match(second, /^App\/Many\.cs 16:18 17:18 18:18 19:18 20:18$/m);
    assert.match(second, /^truncated: 100 locations in total, next offset: 10\./m);
    assert.match(await printed('ReadTools/references-past-the-end'), /^offset 1000 is past the last of 100 locations$/m);
  });

  it('navigate: the typed errors of the bridge spec, each candidate once by a name that resolves to it alone', async () => {
    assert.match(
      await refused('ReadTools/hover-ambiguous'),
      /^error ambiguous_symbol: 'Calculator\.Add' matches 2 symbols\. Ask again with one of these names, exactly as written\.\n {2}Calculator\.Add\(double, double\) \(method, Core\/Calculator\.cs:\d+:\d+\)\n {2}Calculator\.Add\(int, int\) \(method, Core\/Calculator\.cs:\d+:\d+\)\n$/,
    );
    assert.match(await printed('ReadTools/hover-by-signature'), /ReadTools\.Core\.Calculator\.Add\(int/);
    assert.match(await refused('ReadTools/hover-not-found'), /^error symbol_not_found: No type matches the container 'Nope'\./);
    assert.match(await refused('ReadTools/definition-ambiguous-file'), /^error ambiguous_file: 'Helpers\.cs' matches 2 files\..*\n {2}Core\/A\/Helpers\.cs\n {2}Core\/B\/Helpers\.cs\n$/);
  });

  it('bulk_navigate: one section per query in order, a failed query in its own section', async () => {
    const answer = await printed('ReadTools/bulk-with-a-failed-query');
    assert.match(answer, /^## 1 hover Calculator\.Sum\n\(method\) public int ReadTools\.Core\.Calculator\.Sum\(int first, int second\)$/m);
    assert.match(answer, /^## 2 definition Helpers\.cs:5:30\nerror ambiguous_file: 'Helpers\.cs' matches 2 files\./m);
  });

  it('symbols: a file resolved from a unique suffix, a query paged, and an ambiguous file', async () => {
    const document = await printed('ReadTools/symbols-file');
    assert.match(document, /^resolved file: Core\/A\/Helpers\.cs$/m);
    assert.match(document, /^3:\d+-\d+:\d+ class ReadTools\.Core\.A\.Helpers$/m);
    const workspace = await printed('ReadTools/symbols-query');
    assert.match(workspace, /^Core\/[AB]\/Helpers\.cs:3:\d+ class ReadTools\.Core\.[AB]\.Helpers$/m);
    assert.match(workspace, /^truncated: .*next offset: 1\./m);
    assert.match(await refused('ReadTools/symbols-ambiguous-file'), /^error ambiguous_file: /);
  });

  it('dotnet_solution_inspect: the projects as MSBuild evaluates them', async () => {
    const answer = await printed('ReadTools/inspect');
    assert.match(answer, /^target: ReadTools\.slnx \(Debug\), 2 projects, load complete(, cached)?$/m);
    assert.match(answer, /^App\/App\.csproj: library\n {2}frameworks: net10\.0\n {2}references: Core\/Core\.csproj$/m);
  });
});

describe('tests reaching a symbol (fixtures/TestReach: xunit.v3, xunit, NUnit, MSTest; DI and reflection)', () => {
  it('lists the tests through interface dispatch, lambdas, method groups and a member only in one flavour, in file order', async () => {
    const lines = (await printed('TestReach/tests-circle-area')).split('\n');
    assert.deepEqual(lines.slice(0, 7), [
      'tests/Shapes.MSTest/SquareTests.cs:11:17 test Shapes.MSTest.SquareTests.Area_ThroughTheInterface',
      'tests/Shapes.MSTest/SquareTests.cs:21:17 test Shapes.MSTest.SquareTests.Doubled_IsTwiceTheArea',
      'tests/Shapes.XunitV3/CircleTests.cs:15:17 test Shapes.XunitV3.CircleTests.UnitCircle_HasAreaPi',
      'tests/Shapes.XunitV3/CircleTests.cs:22:17 test Shapes.XunitV3.CircleTests.Total_AddsEveryShape',
      'tests/Shapes.XunitVstest/PassedCodeTests.cs:12:17 test Shapes.XunitVstest.PassedCodeTests.Largest_ByLambda',
      'tests/Shapes.XunitVstest/PassedCodeTests.cs:15:17 test Shapes.XunitVstest.PassedCodeTests.Largest_ByMethodGroup',
      'tests/Shapes.XunitVstest/PassedCodeTests.cs:18:17 test Shapes.XunitVstest.PassedCodeTests.Describe_OnlyInNet',
    ]);
    assert.equal(lines[7], 'project: src/Shapes/Shapes.csproj (net10.0, netstandard2.0; searched both)');
  });

  it('names the DI registration by type it cannot follow, and the reflection in a bulk section', async () => {
    assert.match(await printed('TestReach/tests-stamp-now'), /^no tests reach it\ncannot follow: src\/App\/Composition\.cs:30:70 DI registration by type; tests reaching it only through it are not listed$/m);
    const sections = (await printed('TestReach/bulk-tests')).split(/^## /m).filter(Boolean);
    assert.match(sections[0]!, /^cannot follow: src\/App\/Printer\.cs:13:75 reflection;/m);
    assert.match(sections[1]!, /^tests\/Shapes\.NUnit\/CartTests\.cs:\d+:17 test Shapes\.NUnit\.CartTests\.NewCart_IsEmpty$/m);
  });
});
