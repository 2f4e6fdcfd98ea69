// The one tool pipeline (engine/tools/runTool.ts) and the Session that runs it: the outcome every
// surface prints — compact text and typed data, or a typed error with its text — for valid input,
// invalid input (the context is never made), a failing definition, and no open workspace.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import { z } from 'zod';
import type { HostTransport } from '../../src/engine/host/hostTransport';
import { Session } from '../../src/engine/session';
import { runTool } from '../../src/engine/tools/runTool';
import { defineTool, type ToolContext } from '../../src/engine/tools/toolDefinition';
import { ToolError } from '../../src/engine/errors';

const echo = defineTool<{ word: string }, { word: string; length: number }>({
  name: 'echo',
  displayName: 'Echo',
  modelDescription: 'Echoes a word.',
  userDescription: 'Echoes a word.',
  referenceName: 'echo',
  tags: [],
  input: z.object({ word: z.string() }).strict(),
  effects: 'read',
  async invoke(input, context) {
    if (input.word === 'fail') throw new ToolError('symbol_not_found', `no ${input.word} in ${context.workspaceFolder}`);
    if (input.word === 'bug') throw new Error('a bug');
    return { word: input.word, length: input.word.length };
  },
  render: (result) => `${result.word} (${result.length})`,
});

const noHost: HostTransport = { start: () => Promise.reject(new Error('no host in unit tests')) };

describe('runTool, the one pipeline of every surface', () => {
  const context = (): ToolContext => ({
    workspaceFolder: '/ws',
    permissions: { request: async () => ({ granted: false, source: 'policy' }) },
    host: { request: () => Promise.reject(new Error('unused')) },
    surface: 'cli',
    signal: new AbortController().signal,
    progress: () => undefined,
    verify: () => Promise.reject(new Error('unused')),
  });

  it('returns the compact text and the typed data', async () => {
    assert.deepEqual(await runTool(echo, { word: 'hello' }, context), { ok: true, text: 'hello (5)', data: { word: 'hello', length: 5 } });
  });

  it('answers invalid input with invalid_request naming the valid arguments, before any context is made', async () => {
    let made = false;
    const outcome = await runTool(echo, { wrod: 'x' }, () => ((made = true), context()));
    assert.equal(outcome.ok, false);
    assert.equal(!outcome.ok && outcome.error.code, 'invalid_request');
    assert.match(outcome.text, /^error invalid_request: .*unknown argument "wrod".*Valid arguments: word\./);
    assert.equal(made, false);
  });

  it('keeps a typed error and reports anything else as internal_error', async () => {
    const typed = await runTool(echo, { word: 'fail' }, context);
    assert.equal(typed.text, 'error symbol_not_found: no fail in /ws');
    const bug = await runTool(echo, { word: 'bug' }, context);
    assert.equal(bug.text, 'error internal_error: a bug');
  });
});

describe('the session', () => {
  const session = (folder: string | undefined) =>
    new Session({ surface: 'mcp', workspaceFolder: () => folder, permissions: { request: async () => ({ granted: true, source: 'policy' }) }, transport: noHost, dotnetPath: () => '' });

  it('runs a tool in its workspace and tells listeners about applied edits', async () => {
    // A real folder: the session checks the workspace folder it is given (input/paths.ts).
    const repo = os.tmpdir();
    const s = session(repo);
    const edits: string[] = [];
    s.onDidApplyEdit((edit) => edits.push(`${edit.tool}: ${edit.summary}`));
    const context = s.toolContext(echo, new AbortController().signal);
    assert.equal(context.workspaceFolder, repo);
    assert.equal(context.surface, 'mcp');
    assert.equal(s.dotnetPath(), undefined, 'an empty dotnetPath means dotnet on PATH');
    context.onEditApplied?.('rename Add to Sum');
    assert.deepEqual(edits, ['echo: rename Add to Sum']);
    assert.deepEqual(await s.runTool(echo, { word: 'hi' }, new AbortController().signal), { ok: true, text: 'hi (2)', data: { word: 'hi', length: 2 } });
    s.dispose();
  });

  it('answers every tool call with one typed error when no folder is open', async () => {
    const s = session(undefined);
    const outcome = await s.runTool(echo, { word: 'hi' }, new AbortController().signal);
    assert.equal(outcome.text, 'error invalid_request: Open a folder that contains a .NET solution or project first.');
    s.dispose();
  });
});
