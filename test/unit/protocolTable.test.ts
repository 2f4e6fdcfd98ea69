// The protocol table (engine/protocol/methods.ts) types every host call: callHost and hostTool take
// their params type from it, so a param the host does not know fails to compile (the
// expect-error lines below are compile-time assertions: tsc fails if they compile cleanly).
import * as assert from 'node:assert/strict';
import { z } from 'zod';
import type { HostRequester } from '../../src/engine/host/hostRequester';
import { callHost } from '../../src/engine/protocol/callHost';
import { Callbacks, HostMethods, Methods, protocolSchemas } from '../../src/engine/protocol/methods';
import { hostTool } from '../../src/engine/tools/hostTool';
import { allTools } from '../../src/engine/tools/registry';

/** Records what a tool asks the host and answers with a canned result (no host exists in unit tests). */
function recordingHost(answer: unknown) {
  const calls: Array<{ method: string; params: unknown }> = [];
  const host: HostRequester = {
    request: async <T>(method: string, params: unknown, schema: z.ZodType<T>) => {
      calls.push({ method, params });
      return schema.parse(answer);
    },
  };
  return { host, calls };
}

const symbolsAnswer = { path: null, query: 'Calc', items: [], total: 0, offset: 0, limit: 50, truncated: false, nextOffset: null, projects: [], incomplete: false, excludedAnalyzers: null };

describe('protocol table', () => {
  it('binds every method to a params schema, a result schema and effects', () => {
    for (const entry of Object.values(Methods)) {
      assert.ok(entry.params instanceof z.ZodType && entry.result instanceof z.ZodType, entry.method);
      assert.ok(['none', 'read', 'write'].includes(entry.effects), entry.method);
    }
    assert.equal(Methods.edit.effects, 'write');
    assert.equal(Methods.navigate.effects, 'read');
    assert.equal(HostMethods.navigate, 'sharpclaw/navigate');
  });

  it('lists the callbacks and every schema under the key the host exports it with', () => {
    const keys = Object.keys(protocolSchemas());
    for (const key of ['sharpclaw/navigate', 'sharpclaw/navigate:params', 'sharpclaw/edit:params', 'sharpclaw/redoEdit:params', 'initialize', 'error:data']) assert.ok(keys.includes(key), key);
    assert.ok(keys.includes(`${Callbacks.authorizeWrite.method}:result`));
    assert.ok(keys.includes(`${Callbacks.loadProgress.method}:params`));
    assert.ok(!keys.includes(`${Callbacks.loadProgress.method}:result`), 'a notification has no result');
    assert.ok(!keys.includes('initialize:params'));
  });

  it('callHost sends the method name and validates the result with the table\'s schema', async () => {
    const { host, calls } = recordingHost(symbolsAnswer);
    const result = await callHost(host, Methods.symbols, { workspace: '/ws', query: 'Calc' });
    assert.deepEqual(calls, [{ method: 'sharpclaw/symbols', params: { workspace: '/ws', query: 'Calc' } }]);
    assert.equal(result.total, 0);
    const broken = recordingHost({ nonsense: true });
    await assert.rejects(callHost(broken.host, Methods.symbols, { workspace: '/ws', query: 'Calc' }));
  });

  it('does not compile a param the host does not know', () => {
    const { host } = recordingHost(symbolsAnswer);
    // @ts-expect-error: symbols has no `nmae` param.
    void callHost(host, Methods.symbols, { workspace: '/ws', nmae: 'Calc' }).catch(() => undefined);
    // @ts-expect-error: `limit` is a number.
    void callHost(host, Methods.symbols, { workspace: '/ws', limit: 'ten' }).catch(() => undefined);
    const Input = z.strictObject({ path: z.string(), fileName: z.string() });
    // @ts-expect-error: a tool argument renamed away from the host's `path` (fileName) does not compile.
    hostTool({
      name: 'x', displayName: 'x', modelDescription: 'x', userDescription: 'x', referenceName: 'x', tags: [], effects: 'read', input: Input, render: () => '',
      method: Methods.symbols,

      params: (input) => input,
    });
  });

  it('every host-backed tool sends the workspace, its own name and typed params', async () => {
    const { host, calls } = recordingHost(symbolsAnswer);
    const tool = allTools.find((candidate) => candidate.name === 'csharp_symbols')!;
    const context = { workspaceFolder: '/ws', host, permissions: { request: async () => ({ granted: true, source: 'cli-flag' as const }) }, surface: 'cli' as const, signal: new AbortController().signal, progress: () => undefined, verify: () => Promise.reject(new Error('unused')) };
    await tool.invoke(tool.input.parse({ file: 'Calculator.cs' }), context);
    assert.deepEqual(calls, [{ method: 'sharpclaw/symbols', params: { path: 'Calculator.cs', workspace: '/ws', tool: 'csharp_symbols' } }]);
  });
});
