// The authorization vocabulary (protocol/effects.ts: read, write, build) across its two tables:
// every tool's effect covers the effects of the host methods it may call, a host-backed tool has its
// method's effect, and the lsp tool calls nothing it does not declare. (How the host schedules each
// method, its other vocabulary, is checked against these effects by the drift test in host-e2e.)
import * as assert from 'node:assert/strict';
import { z } from 'zod';
import type { HostRequester } from '../../src/engine/host/hostRequester';
import { effectCovers, effects } from '../../src/engine/protocol/effects';
import { Methods } from '../../src/engine/protocol/methods';
import { hostTool } from '../../src/engine/tools/hostTool';
import { allTools, bridgeOnlyTools } from '../../src/engine/tools/registry';
import type { ToolContext } from '../../src/engine/tools/toolDefinition';

describe('effects: what a call may do', () => {
  it('gives every host method a read or write effect', () => {
    for (const method of Object.values(Methods)) assert.ok(method.effects === 'read' || method.effects === 'write', method.method);
    assert.deepEqual(
      Object.values(Methods).filter((method) => method.effects === 'write').map((method) => method.method),
      ['sharpclaw/edit', 'sharpclaw/undoEdit', 'sharpclaw/redoEdit', 'sharpclaw/interruptedEdits'],
    );
  });

  it('gives every tool an effect that covers the effect of each host method it may call', () => {
    for (const tool of [...allTools, ...bridgeOnlyTools]) {
      assert.ok(effects.includes(tool.effects), tool.name);
      assert.ok(tool.hostMethods?.length, `${tool.name} names the host methods it calls`);
      for (const method of tool.hostMethods) assert.ok(effectCovers(tool.effects, method.effects), `${tool.name} (${tool.effects}) calls ${method.method} (${method.effects})`);
    }
  });

  it('refuses a host-backed tool that says it does less than its method', () => {
    const definition = { name: 'x', displayName: 'x', modelDescription: 'x', userDescription: 'x', referenceName: 'x', tags: [], input: z.object({}), render: () => '', method: Methods.edit, params: () => ({}) };
    assert.throws(() => hostTool({ ...definition, effects: 'read' }), /x says it may read, but its method sharpclaw\/edit may write/);
    assert.equal(hostTool(definition).effects, 'write');
    assert.equal(hostTool({ ...definition, effects: 'build' }).effects, 'build');
  });

  it('has the lsp tool call only the methods it declares', async () => {
    const lsp = bridgeOnlyTools.find((tool) => tool.name === 'lsp')!;
    const called = new Set<string>();
    const host: HostRequester = {
      request: async <T>(method: string, _params: unknown, schema: z.ZodType<T>) => {
        called.add(method);
        const answers: Record<string, unknown> = {
          'sharpclaw/status': { hostVersion: '0', roslynVersion: '0', runtime: { frameworkDescription: '.NET', runtimeIdentifier: 'x', dotnetRoot: null }, sdks: [], loadedContexts: [], processId: 1, clientProcessId: null, startedAt: '2026-01-01T00:00:00Z', logFile: null },
          'sharpclaw/lspRequest': { json: '{}' },
        };
        return schema.parse(answers[method]);
      },
    };
    const context: ToolContext = {
      workspaceFolder: '/ws',
      host,
      permissions: { request: async () => ({ granted: true, source: 'cli-flag' }) },
      surface: 'mcp',
      signal: new AbortController().signal,
      progress: () => undefined,
      hostSession: { state: () => ({ kind: 'ready', pid: 1 }) as never, loading: () => undefined, restart: async () => undefined },
      verify: () => Promise.reject(new Error('unused')),
    };
    for (const input of [{ action: 'status' }, { action: 'capabilities' }, { action: 'request', method: 'textDocument/hover', parameters: {} }]) await lsp.invoke(lsp.input.parse(input), context);
    assert.deepEqual([...called].sort(), lsp.hostMethods!.map((method) => method.method).sort());
  });
});
