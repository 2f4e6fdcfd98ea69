// @sharpclaw turns in a real extension host (VS Code ≥ 1.104), driven through the chat view
// (workbench.action.chat.open with the query, as a person typing it) with the scripted chat model
// of test/integration/chat/scripted-model — the only stand-in: every build, tool call, permission
// dialog and file write is real. The fixture (fixtures/AgentTurn) enables automatic verification
// with the specification's settings example.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TurnEvent } from '../../../src/engine/turns/turnEvents';
import { api, click, restore, screenshot, waitFor } from '../support';

type Step = (messages: string[], token: vscode.CancellationToken) => Promise<{ text?: string; toolCalls?: { name: string; input: unknown }[] }> | { text?: string; toolCalls?: { name: string; input: unknown }[] };
interface ScriptedModel {
  script(steps: Step[]): void;
  requests(): string[][];
  remainingSteps(): number;
}
type TurnFinished = Extract<TurnEvent, { type: 'turnFinished' }>;

const original = 'namespace Shop;\n\npublic static class Pricing\n{\n    public static decimal Total(decimal price, int quantity) => price * quantity;\n}\n';
const edit = (oldText: string, newText: string) => ({ toolCalls: [{ name: 'sharpclaw_edit_file', input: { path: 'Shop/Pricing.cs', oldText, newText } }] });
/** Drops the statement's semicolon: CS1002. */
const breakBuild: Step = () => edit('price * quantity;', 'price * quantity');
const fixBuild: Step = () => edit('price * quantity\n', 'price * quantity;\n');
const done: Step = () => ({ text: 'Done.' });
const say = (text: string): Step => () => ({ text });

function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(folder, 'the harness opens the fixture as the workspace');
  return folder;
}
const pricing = () => path.join(workspaceFolder(), 'Shop', 'Pricing.cs');

function scripted(): ScriptedModel {
  const extension = vscode.extensions.getExtension<ScriptedModel>('sharpclaw-test.scripted-model');
  assert.ok(extension, 'the harness loads the scripted model extension beside SharpClaw');
  return extension.exports;
}

/**
 * Answers SharpClaw's permission dialogs like a person, for the whole suite: each test sets how
 * (by default "Always for this workspace"); every dialog's title is kept.
 */
const dialogs = {
  answer: (_message: string): string => 'Always for this workspace',
  seen: [] as string[],
  stopped: false,
};
async function answerDialogsUntilStopped(): Promise<void> {
  const sharpclaw = await api();
  while (!dialogs.stopped) {
    const dialog = await sharpclaw.nextPermissionDialog!();
    dialogs.seen.push(dialog.message);
    dialog.answer(dialogs.stopped ? 'Deny' : dialogs.answer(dialog.message));
  }
}

async function events(): Promise<readonly TurnEvent[]> {
  return (await api()).turnEvents();
}

/** Types the query into the chat view and waits for the turn's turnFinished event. */
async function runTurn(query: string, whileRunning?: (turnId: () => string | undefined) => Promise<void>): Promise<{ finished: TurnFinished; turn: TurnEvent[] }> {
  const before = (await events()).filter((event) => event.type === 'turnFinished').length;
  const startedBefore = (await events()).filter((event) => event.type === 'turnStarted').length;
  await vscode.commands.executeCommand('workbench.action.chat.open', { query, isPartialQuery: false });
  let latestStarted: string | undefined;
  const turnId = () => latestStarted;
  const watch = setInterval(async () => {
    const started = (await events()).filter((event) => event.type === 'turnStarted');
    if (started.length > startedBefore) latestStarted = started.at(-1)!.turnId;
  }, 100);
  try {
    if (whileRunning) await whileRunning(turnId);
    const finished = await waitFor('the turn to finish', async () => (await events()).filter((event): event is TurnFinished => event.type === 'turnFinished')[before], 300_000);
    return { finished, turn: (await events()).filter((event) => event.turnId === finished.turnId) };
  } finally {
    clearInterval(watch);
  }
}

const types = (turn: TurnEvent[], type: TurnEvent['type']) => turn.filter((event) => event.type === type);

describe('@sharpclaw turns with verify-and-repair, through the chat view', function () {
  this.timeout(600_000);

  before(async function () {
    this.timeout(300_000);
    // Explicit provisioning, as a person would do it: verification itself never restores.
    await restore('AgentTurn.slnx');
    await api();
    void answerDialogsUntilStopped();
    await waitFor('the scripted chat model', async () => (await vscode.lm.selectChatModels({ vendor: 'sharpclaw-scripted' })).length > 0, 120_000);
    // The chat view takes a while to accept its first query after the window opens: ask until a
    // (research, never verified) turn finishes.
    await waitFor('a first @sharpclaw turn', async () => {
      if ((await events()).some((event) => event.type === 'turnFinished')) return true;
      scripted().script([say('Ready.')]);
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@sharpclaw /research are you there?', isPartialQuery: false });
      // Up to 5 s for this query's turn (polled), then ask again: the query may have been dropped.
      return waitFor('the turn', async () => (await events()).some((event) => event.type === 'turnFinished'), 5000).catch(() => false);
    }, 240_000);
  });

  after(() => {
    dialogs.stopped = true;
  });

  beforeEach(async () => {
    // Through the editor, not behind its back: edit_file reads the open buffer, which a disk write
    // reaches only when the file watcher catches up.
    const document = await vscode.workspace.openTextDocument(pricing());
    const reset = new vscode.WorkspaceEdit();
    reset.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), original);
    await vscode.workspace.applyEdit(reset);
    await document.save();
    dialogs.answer = () => 'Always for this workspace';
  });

  it('a denied build approval starts no repair, and says the turn is not verified', async () => {
    dialogs.answer = (message) => (/build and test/i.test(message) ? 'Deny' : 'Always for this workspace');
    scripted().script([breakBuild, done]);
    // The chat asks first (verify_workspace runs with the request's toolInvocationToken): the
    // person allows it for the session, then denies the build in SharpClaw's own dialog.
    const { finished, turn } = await runTurn('@sharpclaw make Total a statement without its semicolon', () => click({ selector: 'text="Allow in this Session" >> visible=true' }));
    assert.equal(finished.verdict, 'unverified', finished.summary);
    assert.equal(finished.succeeded, false);
    assert.equal(types(turn, 'repairStarted').length, 0);
    assert.deepEqual(types(turn, 'verificationFinished').map((event) => (event.type === 'verificationFinished' ? event.status : '')), ['denied']);
    assert.match(finished.summary, /No repair was tried/);
  });

  it('a turn that breaks the build is verified, repaired within budget and reported green, and the sidebar\'s timeline shows it', async () => {
    scripted().script([breakBuild, done, fixBuild, done]);
    // What the sidebar's turn timeline puts on screen, each time it renders.
    const timelineTexts: string[] = [];
    const rendering = (await api()).onDidRenderSidebar((message) => {
      if (message.what === 'turns' && message.text) timelineTexts.push(message.text);
    });
    const { finished, turn } = await runTurn('@sharpclaw change Total');
    assert.equal(finished.verdict, 'passed', finished.summary);
    assert.equal(finished.repairs, 1);
    const checks = types(turn, 'verificationFinished').map((event) => (event.type === 'verificationFinished' ? event.status : ''));
    assert.deepEqual(checks, ['failed', 'passed']);
    // The repair pass was told the new compiler error.
    const repairRequest = scripted().requests()[2]!.join('\n'); // pass 1: two requests; the repair's first
    assert.match(repairRequest, /CS1002/);
    assert.match(repairRequest, /Errors new since the turn started:|Build errors:/);
    assert.equal(fs.readFileSync(pricing(), 'utf8'), original);
    assert.deepEqual(types(turn, 'mutationRecorded').map((event) => (event.type === 'mutationRecorded' ? event.tool : '')), ['sharpclaw_edit_file', 'sharpclaw_edit_file']);
    try {
      await vscode.commands.executeCommand('sharpclaw.openSidebar');
      const shown = await waitFor('the turn in the sidebar\'s timeline', () => timelineTexts.find((text) => text.includes('Verified after 1 repair')), 60_000);
      const lines = shown.split('\n').map((line) => line.trim()).filter(Boolean);
      // The newest turn first: its prompt, its edit, the failed check, the repair, the fix, the passing check, the verdict.
      const turnLines = lines.slice(lines.findIndex((line) => line.startsWith('change Total')));
      assert.ok(lines.findIndex((line) => line.startsWith('change Total')) >= 0, `the timeline does not show the prompt:\n${shown}`);
      const order = ['edit Shop/Pricing.cs (sharpclaw_edit_file)', 'check 0 affected: failed', 'repair 1 of 2', 'edit Shop/Pricing.cs (sharpclaw_edit_file)', 'check 1 affected: passed', 'Verified after 1 repair'];
      let at = 0;
      for (const expected of order) {
        const found = turnLines.findIndex((line, index) => index >= at && line.startsWith(expected));
        assert.ok(found >= 0, `the timeline lacks "${expected}" after line ${at}:\n${shown}`);
        at = found + 1;
      }
    } finally {
      rendering.dispose();
    }
    await screenshot('chat-turn-repaired');
  });

  it('a turn whose budget runs out ends failed with the report', async () => {
    scripted().script([breakBuild, done, say('I could not find it.'), say('Still nothing.')]);
    const { finished, turn } = await runTurn('@sharpclaw change Total again');
    assert.equal(finished.verdict, 'failed', finished.summary);
    assert.equal(finished.repairs, 2);
    assert.equal(types(turn, 'verificationFinished').length, 3);
    assert.match(finished.summary, /2 of 2 repairs used/);
  });

  it('budget 0 verifies without repairing', async () => {
    await vscode.workspace.getConfiguration('sharpclaw.verification').update('maxRepairIterations', 0, vscode.ConfigurationTarget.Workspace);
    try {
      scripted().script([breakBuild, done]);
      const { finished, turn } = await runTurn('@sharpclaw change Total once');
      // The prompt carried the cached result of the last build (the previous turn's failed check), built for nothing.
      const cached = scripted().requests()[0]!.find((message) => message.startsWith('The most recent verification ('));
      assert.ok(cached, 'the first request has no cached diagnostics');
      assert.match(cached, /built with 1 error\(s\)/);
      assert.match(cached, /Shop\/Pricing\.cs\(\d+,\d+\): error CS1002/);
      assert.equal(finished.verdict, 'failed', finished.summary);
      assert.equal(types(turn, 'verificationFinished').length, 1);
      assert.equal(types(turn, 'repairStarted').length, 0);
    } finally {
      await vscode.workspace.getConfiguration('sharpclaw.verification').update('maxRepairIterations', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  for (const mode of ['plan', 'spec', 'research']) {
    it(`a /${mode} turn never verifies (and cannot edit)`, async () => {
      scripted().script([breakBuild, say(`A ${mode}.`)]);
      const { finished, turn } = await runTurn(`@sharpclaw /${mode} how would you change Total?`);
      assert.equal(finished.verdict, 'notVerified', finished.summary);
      assert.equal(types(turn, 'verificationStarted').length, 0);
      assert.equal(types(turn, 'mutationRecorded').length, 0);
      assert.equal(fs.readFileSync(pricing(), 'utf8'), original);
    });
  }

  it('a missing prerequisite (no restored assets) starts no repair', async () => {
    const obj = path.join(workspaceFolder(), 'Shop', 'obj');
    fs.rmSync(obj, { recursive: true, force: true });
    try {
      scripted().script([breakBuild, done]);
      const { finished, turn } = await runTurn('@sharpclaw change Total without assets');
      assert.equal(finished.verdict, 'unverified', finished.summary);
      assert.equal(types(turn, 'repairStarted').length, 0);
      assert.deepEqual(types(turn, 'verificationFinished').map((event) => (event.type === 'verificationFinished' ? event.status : '')), ['missingPrerequisites']);
    } finally {
      await restore('AgentTurn.slnx');
    }
  });

  it('an edit through a link in the workspace to a folder outside it is refused, naming the link; nothing outside is written', async () => {
    // The workspace's parent is the harness's own temporary folder for this session.
    const outside = fs.mkdtempSync(path.join(path.dirname(workspaceFolder()), 'outside-'));
    fs.writeFileSync(path.join(outside, 'Target.cs'), 'original\n');
    const link = path.join(workspaceFolder(), 'Linked');
    fs.symlinkSync(outside, link);
    try {
      const throughTheLink: Step = () => ({ toolCalls: [
        { name: 'sharpclaw_edit_file', input: { path: 'Linked/New.cs', oldText: '', newText: 'class Evil { }\n' } },
        { name: 'sharpclaw_edit_file', input: { path: 'Linked/Target.cs', oldText: 'original', newText: 'changed' } },
      ] });
      scripted().script([throughTheLink, done]);
      const { turn } = await runTurn('@sharpclaw write through the Linked folder');
      assert.equal(types(turn, 'mutationRecorded').length, 0);
      assert.deepEqual(fs.readdirSync(outside), ['Target.cs']);
      assert.equal(fs.readFileSync(path.join(outside, 'Target.cs'), 'utf8'), 'original\n');
      const answers = scripted().requests()[1]!.join('\n');
      assert.equal(answers.match(/error invalid_request: \S*Linked is a link/g)?.length, 2, answers);
    } finally {
      fs.rmSync(link);
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('a repair pass that edits a file the person changed meanwhile keeps the person\'s change', async () => {
    const note = '// the person\'s note, typed while the check ran\n';
    const personTypes: Step = async () => {
      const document = await vscode.workspace.openTextDocument(pricing());
      const change = new vscode.WorkspaceEdit();
      change.insert(document.uri, new vscode.Position(0, 0), note);
      await vscode.workspace.applyEdit(change);
      await document.save();
      return fixBuild([], new vscode.CancellationTokenSource().token) as { toolCalls: { name: string; input: unknown }[] };
    };
    scripted().script([breakBuild, done, personTypes, done]);
    const { finished } = await runTurn('@sharpclaw change Total while I type');
    assert.equal(finished.verdict, 'passed', finished.summary);
    assert.equal(fs.readFileSync(pricing(), 'utf8'), note + original);
  });

  it('cancellation mid-repair finalizes the turn, and Undo Last Turn reverts its edits', async () => {
    const hang: Step = (_messages, token) => new Promise((resolve) => token.onCancellationRequested(() => resolve({ text: '' })));
    scripted().script([breakBuild, done, hang]);
    const { finished, turn } = await runTurn('@sharpclaw change Total and then be cancelled', async (turnId) => {
      await waitFor('the repair to start', async () => {
        const id = turnId();
        return id !== undefined && (await events()).some((event) => event.turnId === id && event.type === 'repairStarted');
      }, 300_000);
      await vscode.commands.executeCommand('workbench.action.chat.cancel');
    });
    assert.equal(finished.verdict, 'cancelled', finished.summary);
    assert.equal(finished.mutations, 1);
    assert.notEqual(fs.readFileSync(pricing(), 'utf8'), original, 'the broken edit is still there before the undo');
    assert.ok(types(turn, 'repairStarted').length === 1);
    await vscode.commands.executeCommand('sharpclaw.undoLastTurn');
    assert.equal(fs.readFileSync(pricing(), 'utf8'), original);
  });
});
