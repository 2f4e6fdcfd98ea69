// The MCP load wait (src/surfaces/mcp/mcpLoadWait.ts): a read call still running when the wait,
// counted from the request's arrival, runs out answers `error loading` — with the host's start, the
// load's progress, or that a ready host is still working on it — and hands its own answer-to-be on;
// calls that write, lsp status, and calls whose permission question is with the person keep waiting
// for their own answer.
import * as assert from 'node:assert/strict';
import { editTool } from '../../src/engine/tools/edits/editTools';
import { lspTool } from '../../src/engine/tools/lsp/lspTool';
import { navigateTool } from '../../src/engine/tools/navigation/navigationTools';
import { symbolSearchTool } from '../../src/engine/tools/store/storeTools';
import type { ToolOutcome } from '../../src/engine/tools/runTool';
import type { LoadProgress } from '../../src/engine/protocol/callbacks';
import { answerMarginMs, answerTimeOf, withinLoadWait } from '../../src/surfaces/mcp/mcpLoadWait';

const progress: LoadProgress = { kind: 'load', target: 'App.slnx', configuration: 'Debug', targetFramework: null, projectIndex: 2, projectCount: 5, currentProject: 'src/Core/Core.csproj', percent: 40 };
const ready = () => ({ kind: 'ready', pid: 1, roslynVersion: '5.0.0' }) as const;
const starting = () => ({ kind: 'starting' }) as const;
const answered: ToolOutcome = { ok: true, text: 'the answer', data: {} };
const nobody = () => false;

/** A call that answers after `ms` milliseconds. */
const after = (ms: number) => () => new Promise<ToolOutcome>((resolve) => setTimeout(() => resolve(answered), ms));

describe('mcp load wait', () => {
  it('answers error loading with the progress when a read call still waits on a load', async () => {
    const outcome = await withinLoadWait(navigateTool, { action: 'references', symbol: 'A.B' }, { loading: () => progress, state: ready, asking: nobody }, 0.05, after(2_000));
    assert.equal(outcome.ok, false);
    assert.equal(outcome.text, 'error loading: Roslyn is still loading the workspace: Loading App.slnx 40% (project 2 of 5, src/Core/Core.csproj). The load goes on; call again shortly (lsp with action=status shows its progress).');
  });

  it('says a syntax index build is under way, with the file it reached, not a project count', async () => {
    const index: LoadProgress = { kind: 'index', target: 'syntax index of efcore', configuration: '', targetFramework: null, projectIndex: 4100, projectCount: 11522, currentProject: 'parsed src/EFCore/DbContext.cs', percent: 35 };
    const outcome = await withinLoadWait(symbolSearchTool, { query: 'DbContext' }, { loading: () => index, state: ready, asking: nobody }, 0.05, after(2_000));
    assert.equal(outcome.ok, false);
    assert.equal(outcome.text, "error loading: SharpClaw is still building the workspace's syntax index: Building the syntax index of efcore 35% (parsed src/EFCore/DbContext.cs). The build goes on; call again shortly (lsp with action=status shows its progress).");
  });

  it('answers that a ready host is still working on a read past the wait, and hands the running call on', async () => {
    let left: Promise<ToolOutcome> | undefined;
    const startedAt = Date.now();
    const outcome = await withinLoadWait(navigateTool, { action: 'references', symbol: 'A.B' }, { loading: () => undefined, state: ready, asking: nobody }, 0.05, after(2_000), undefined, (running) => (left = running));
    assert.ok(Date.now() - startedAt < 1_500, 'answered at the wait, not with the call');
    assert.equal(outcome.ok, false);
    assert.match(outcome.text, /^error loading: SharpClaw is still working on this answer \(0 s since this call arrived: a first question builds and compiles what it needs\)\. The work goes on in the host; make the same call again shortly and it picks up that work/);
    assert.ok(left, 'the running call was handed on');
    assert.equal(await left, answered, "the handed-on call is the call's own answer");
  });

  it('keeps waiting while the person is being asked, and answers as soon as the call does; a call that answers in time hands nothing on', async () => {
    let left: Promise<ToolOutcome> | undefined;
    const outcome = await withinLoadWait(navigateTool, { action: 'references', symbol: 'A.B' }, { loading: () => undefined, state: ready, asking: () => true }, 0.01, after(300), undefined, (running) => (left = running));
    assert.equal(outcome, answered);
    assert.equal(left, undefined);
  });

  it('never answers loading for a call that may write, nor for lsp status', async () => {
    const edit = await withinLoadWait(editTool, { action: 'rename', symbol: 'A.B', newName: 'C', apply: true }, { loading: () => progress, state: ready, asking: nobody }, 0.01, after(100));
    assert.equal(edit, answered);
    const status = await withinLoadWait(lspTool, { action: 'status' }, { loading: () => progress, state: ready, asking: nobody }, 0.01, after(100));
    assert.equal(status, answered);
    const request = await withinLoadWait(lspTool, { action: 'request', method: 'textDocument/hover' }, { loading: () => progress, state: ready, asking: nobody }, 0.01, after(2_000));
    assert.equal(request.ok, false);
  });

  it('answers error loading while the host is still starting, before any load progress', async () => {
    const outcome = await withinLoadWait(navigateTool, { action: 'references', symbol: 'A.B' }, { loading: () => undefined, state: starting, asking: nobody }, 0.05, after(2_000));
    assert.equal(outcome.ok, false);
    assert.match(outcome.text, /^error loading: The SharpClaw host is still starting \(0 s since this call arrived\); the workspace load comes next\. The start goes on; call again shortly/);
  });

  it('gives a search the time to answer from what is indexed: the wait from arrival less the margin, never before arrival', () => {
    assert.equal(answerTimeOf(1_000_000, 45), 1_000_000 + 45_000 - answerMarginMs);
    assert.equal(answerTimeOf(1_000_000, 1), 1_000_000, 'a wait shorter than the margin: due at once (the host answers after its first chunk)');
  });

  it("counts the wait from the request's arrival, not from when the call reached the wait", async () => {
    const arrivedAt = Date.now() - 60_000;
    const startedAt = Date.now();
    const outcome = await withinLoadWait(navigateTool, { action: 'references', symbol: 'A.B' }, { loading: () => progress, state: ready, asking: nobody }, 45, after(2_000), arrivedAt);
    assert.equal(outcome.ok, false, 'the 45 s from arrival were spent before the call reached the wait');
    assert.ok(Date.now() - startedAt < 1_900, 'answered loading before the call itself');
    const starts = await withinLoadWait(navigateTool, { action: 'references', symbol: 'A.B' }, { loading: () => undefined, state: starting, asking: nobody }, 45, after(2_000), arrivedAt);
    assert.match(starts.text, /still starting \(60 s since this call arrived\)/);
  });
});
