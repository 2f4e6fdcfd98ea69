import * as assert from 'node:assert/strict';
import { z } from 'zod';
import { allTools } from '../../src/engine/tools/registry';
import { defineTool } from '../../src/engine/tools/toolDefinition';
import { ToolError } from '../../src/engine/errors';
import { parseToolInput } from '../../src/engine/tools/toolInput';

const tool = defineTool({
  name: 'sample',
  displayName: 'Sample',
  modelDescription: 'A sample tool used to test argument validation shared by every surface.',
  userDescription: 'sample',
  referenceName: 'sample',
  tags: [],
  effects: 'read',
  input: z.strictObject({ target: z.string().optional(), queries: z.array(z.string()).min(1).max(16).optional(), offset: z.number().int().min(0).optional() }),
  invoke: async (input) => input,
  render: () => '',
});

describe('tool argument validation', () => {
  it('names unknown arguments and lists the valid ones', () => {
    assert.throws(() => parseToolInput(tool, { target: 'a', bogus: 1 }), (error: unknown) => {
      assert.ok(error instanceof ToolError);
      assert.equal(error.code, 'invalid_request');
      assert.match(error.message, /unknown argument "bogus"/);
      assert.match(error.message, /Valid arguments: target, queries, offset/);
      return true;
    });
  });

  it('accepts an array argument sent as a JSON string', () => {
    assert.deepEqual(parseToolInput(tool, { queries: '["a","b"]' }), { queries: ['a', 'b'] });
  });

  it('rejects a negative offset', () => {
    assert.throws(() => parseToolInput(tool, { offset: -1 }), /offset: .*>=0|offset: Too small/);
  });

  it('renders errors as "error CODE: message"', () => {
    const error = new ToolError('target_ambiguous', 'Several solutions.', { candidates: ['A.sln', 'B.slnx'] });
    assert.equal(error.render(), 'error target_ambiguous: Several solutions.\n  A.sln\n  B.slnx');
  });
});

describe('tool effects', () => {
  it('marks the edit tools write, verify_workspace build, and every other tool read', () => {
    const byEffect = (effect: string) => allTools.filter((tool) => tool.effects === effect).map((tool) => tool.name).sort();
    assert.deepEqual(byEffect('write'), ['csharp_edit', 'csharp_rename_symbol']);
    assert.deepEqual(byEffect('build'), ['verify_workspace']);
    assert.equal(byEffect('read').length, allTools.length - 3);
  });
});
