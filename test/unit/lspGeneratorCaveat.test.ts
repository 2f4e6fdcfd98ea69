// The raw lsp tool carries navigate's generator caveat (issue 37): an implementation, references, incoming-calls
// or subtypes list that an excluded generator could add to is never a bare "[]". The host's answer is the one
// GeneratorReachTests.RawLspImplementationsAndReferences_CarryTheSameCaveat asserts on fixtures/GeneratorInterfaces.
import * as assert from 'node:assert/strict';
import { lspTool } from '../../src/engine/tools/lsp/lspTool';
import { runTool } from '../../src/engine/tools/runTool';
import type { ToolContext } from '../../src/engine/tools/toolDefinition';

const workspace = '/home/person/src/shapes';
const gap = { generator: 'Markers.Gen', origin: 'project generator', projectCount: 1, projects: ['Shapes.Models/Shapes.Models.csproj'] };

function context(answer: unknown): ToolContext {
  return {
    workspaceFolder: workspace,
    permissions: { request: async () => ({ granted: true, source: 'policy' }) },
    host: { request: async () => answer as never },
    surface: 'mcp',
    signal: new AbortController().signal,
    progress: () => undefined,
    verify: () => Promise.reject(new Error('unused')),
  };
}

const at = { textDocument: { uri: `file://${workspace}/Shapes.Core/Shapeable.cs` }, position: { line: 12, character: 17 } };

describe('lsp request: the generator caveat', () => {
  it('an empty implementation list is followed by the generator that could implement it and where', async () => {
    const outcome = await runTool(lspTool, { action: 'request', method: 'textDocument/implementation', parameters: at }, context({ json: '[]', generatorGaps: [gap] }));
    assert.equal(outcome.text, '[]\nmay be incomplete: Markers.Gen (project generator, not run) could implement it in Shapes.Models/Shapes.Models.csproj');
  });

  it('references and incoming calls say what the generator could do there', async () => {
    const references = await runTool(lspTool, { action: 'request', method: 'textDocument/references', parameters: at }, context({ json: '[]', generatorGaps: [gap] }));
    assert.match(references.text, /\nmay be incomplete: Markers\.Gen \(project generator, not run\) could reference it in /);
    const incoming = await runTool(lspTool, { action: 'request', method: 'callHierarchy/incomingCalls', parameters: { item: {} } }, context({ json: '[]', generatorGaps: [gap] }));
    assert.match(incoming.text, /could call it in /);
  });

  it('an answer with no gap is the LSP JSON alone, one line', async () => {
    const outcome = await runTool(lspTool, { action: 'request', method: 'textDocument/definition', parameters: at }, context({ json: '[]', generatorGaps: null }));
    assert.equal(outcome.text, '[]');
  });
});
