// The whole-result budget (engine/tools/wholeResult.ts) and the agent's structure
// (engine/tools/structuredResult.ts) as runTool applies them for every surface: an answer whose text
// and structure do not fit 8 KB together is cut to the page that fits, and the text's truncated: line
// and the structure's nextOffset then agree; an answer with no page keeps its lines that fit and says
// what it left out; the structure summarises excluded analyzers as the text does and never carries a
// path outside the workspace.
import * as assert from 'node:assert/strict';
import { z } from 'zod';
import { runTool } from '../../src/engine/tools/runTool';
import { defineTool, type ToolContext } from '../../src/engine/tools/toolDefinition';
import { navigateTool } from '../../src/engine/tools/navigation/navigationTools';
import { NavigateResultSchema, type NavigateResult } from '../../src/engine/protocol/navigation';
import { agentSchema, relativeToWorkspace } from '../../src/engine/tools/structuredResult';
import { wholeResultBudget } from '../../src/engine/tools/wholeResult';

const workspace = '/home/person/src/shop';
const packageCache = '/home/person/.nuget/packages';

function context(result: unknown, surface: ToolContext['surface'] = 'mcp'): ToolContext {
  return {
    workspaceFolder: workspace,
    permissions: { request: async () => ({ granted: true, source: 'policy' }) },
    host: { request: async () => result as never },
    surface,
    signal: new AbortController().signal,
    progress: () => undefined,
    verify: () => Promise.reject(new Error('unused')),
  };
}

/** A references answer of `count` long locations, as the host sends it, with 30 excluded analyzers in 3 flavours. */
function references(count: number): NavigateResult {
  const analyzers = Array.from({ length: 10 }, (_, i) => ({ path: `${packageCache}/analyzer${i}/1.0.0/analyzers/dotnet/cs/Analyzer${i}.dll`, name: `Analyzer${i}.dll`, origin: 'package' as const, package: `Analyzer${i}` }));
  return {
    action: 'references',
    symbol: { name: 'Shop.Orders.OrderValidationService.ValidateEverything(string)', kind: 'method', container: 'Shop.Orders.OrderValidationService', locations: [{ path: 'src/Orders/OrderValidationService.cs', line: 5, character: 24 }] },
    project: 'src/Orders/Orders.csproj',
    targetFramework: 'net10.0',
    locations: Array.from({ length: count }, (_, i) => ({ path: `src/Orders/Consumers/AnExtremelyLongConsumerOfTheOrderValidationServiceNumber${String(i).padStart(3, '0')}.cs`, line: 9, character: 80, context: null })),
    related: null,
    hover: null,
    sources: null,
    members: null,
    sections: null,
    omittedToFit: null,
    total: count,
    offset: 0,
    limit: 200,
    truncated: false,
    nextOffset: null,
    omittedGenerated: 0,
    omittedAccesses: 0,
    excludedAnalyzers: ['net10.0', 'net8.0', 'netstandard2.0'].map((targetFramework) => ({ project: 'src/Orders/Orders.csproj', targetFramework, analyzers })),
  };
}

describe('the whole-result budget and the agent structure (runTool)', () => {
  it('cuts a page whose text and structure pass 8 KB together, text and structure saying the same next offset', async () => {
    const outcome = await runTool(navigateTool, { action: 'references', symbol: 'OrderValidationService.ValidateEverything', limit: 200 }, context(references(120)));
    assert.ok(outcome.ok, outcome.text);
    if (!outcome.ok) return;
    const whole = Buffer.byteLength(JSON.stringify({ content: [{ type: 'text', text: outcome.text }], structuredContent: outcome.structured }));
    assert.ok(whole <= wholeResultBudget - 512, `whole result ${whole} bytes`);
    const structured = outcome.structured as { locations: unknown[]; nextOffset: number; truncated: boolean };
    assert.ok(structured.locations.length > 10 && structured.locations.length < 120, `${structured.locations.length} locations kept`);
    assert.equal(structured.nextOffset, structured.locations.length);
    assert.match(outcome.text, new RegExp(`^truncated: 120 locations in total, next offset: ${structured.nextOffset}\\. `, 'm'));
    // The text's last location is the structure's last.
    assert.match(outcome.text, new RegExp(`Number${String(structured.locations.length - 1).padStart(3, '0')}\\.cs 9:80\\n(?!src/Orders/Consumers)`));
    // The typed result stays whole for callers in this process.
    assert.equal((outcome.data as NavigateResult).locations?.length, 120);
  });

  it('summarises excluded analyzers as the text does, with no package-cache path, and checks against the published schema', async () => {
    const outcome = await runTool(navigateTool, { action: 'references', symbol: 'OrderValidationService.ValidateEverything' }, context(references(3)));
    assert.ok(outcome.ok);
    if (!outcome.ok) return;
    assert.doesNotMatch(JSON.stringify(outcome.structured), /\.nuget|\/home\//);
    assert.deepEqual((outcome.structured as { excludedAnalyzers: unknown }).excludedAnalyzers, {
      analyzers: 10,
      projects: 1,
      inAnsweringProjects: Array.from({ length: 10 }, (_, i) => `Analyzer${i}.dll`),
      fullList: 'dotnet_solution_inspect',
    });
    assert.match(outcome.text, /^excluded: 10 project\/package analyzer\(s\)\/generator\(s\) in 1 project\(s\) not run; .* \(full list: dotnet_solution_inspect\)$/m);
    assert.equal('hover' in (outcome.structured ?? {}), false, 'a null field is left out');
    agentSchema(NavigateResultSchema).parse(outcome.structured);
  });

  it('keeps the lines of an answer with no page that fit, and says what it left out', async () => {
    const huge = defineTool<Record<string, never>, { lines: string[] }>({
      name: 'huge',
      displayName: 'Huge',
      modelDescription: 'A long answer.',
      userDescription: 'A long answer.',
      referenceName: 'huge',
      tags: [],
      input: z.object({}).strict(),
      effects: 'read',
      output: z.object({ lines: z.array(z.string()) }),
      invoke: async () => ({ lines: Array.from({ length: 400 }, (_, i) => `line ${i} ${'x'.repeat(60)}`) }),
      render: (result) => result.lines.join('\n'),
    });
    const outcome = await runTool(huge, {}, context(undefined));
    assert.ok(outcome.ok);
    if (!outcome.ok) return;
    const whole = Buffer.byteLength(JSON.stringify({ content: [{ type: 'text', text: outcome.text }], structuredContent: outcome.structured }));
    assert.ok(whole <= wholeResultBudget - 512, `whole result ${whole} bytes`);
    assert.match(outcome.text, /^line 0 /);
    assert.match(outcome.text, /\nomitted to fit: \d+ lines \(\d+ bytes\) past the 8 KB answer budget\. Narrow the query to see them\.$/);
    assert.ok(Array.isArray((outcome.structured as { lines: unknown }).lines), 'the structure keeps its shape');
  });

  it('writes paths below the workspace relative to it and leaves others as they are', () => {
    assert.equal(relativeToWorkspace(`${workspace}/src/A.cs`, workspace), 'src/A.cs');
    assert.equal(relativeToWorkspace(workspace, workspace), '.');
    assert.equal(relativeToWorkspace('/home/person/src/shopping/A.cs', workspace), '/home/person/src/shopping/A.cs');
    assert.equal(relativeToWorkspace('src/A.cs', workspace), 'src/A.cs');
  });
});
