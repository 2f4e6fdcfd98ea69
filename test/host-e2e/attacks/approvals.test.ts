// Attacks on approvals: an "Allow once" must cover exactly the one call, target, configuration,
// framework and build inputs the person was asked about. fixtures/TwoMarkedSolutions has A.slnx
// (Alpha) and B.slnx (Beta); every MSBuild run of a project adds a line to its initial-marker.txt,
// so the tests count what ran, and for which target. The real bundled CLI and Roslyn host, driven
// by the official MCP client SDK (doors.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanUpCopies, copyFixture, tempStateRoot } from '../support';
import { openDoor, type Door } from './doors';

/** Lines in a project's marker: how many MSBuild runs executed its code. */
function runsOf(workspace: string, project: 'Alpha' | 'Beta'): number {
  const marker = path.join(workspace, project, 'initial-marker.txt');
  return fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8').split('\n').filter((line) => line.trim()).length : 0;
}

/** Edits the shared Directory.Build.props the way an agent would: a structural change of both solutions. */
function editBuildProps(workspace: string, value: string): void {
  const file = path.join(workspace, 'Directory.Build.props');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/<\/PropertyGroup>/, `  <AttackMarker>${value}</AttackMarker>\n  </PropertyGroup>`));
}

interface Round {
  resultType?: string;
  requestState?: string;
  isError?: boolean;
  content?: Array<{ type: string; text?: string }>;
}

const allowOnce = { permission: { action: 'accept', content: { decision: 'allow_once' } } };
const textOf = (round: Round) => (round.content ?? []).map((c) => c.text ?? '').join('\n');

describe('attacks on approvals', function () {
  this.timeout(600_000);
  let workspace: string;
  const doors: Door[] = [];
  /**
   * The first test's copy and server, kept for the raw lsp replay test and the target test: after its edits
   * A must be asked about again (a structural change) and B was never evaluated, which is all they need (and
   * the lsp test leaves A so too); two cold loads fewer.
   */
  let spent: { workspace: string; door: Door } | undefined;

  beforeEach(() => {
    workspace = copyFixture('TwoMarkedSolutions', ['A.slnx', 'B.slnx']);
    for (const project of ['Alpha', 'Beta']) fs.rmSync(path.join(workspace, project, 'initial-marker.txt'), { force: true });
  });

  afterEach(async () => {
    for (const door of doors.splice(0)) await door.close().catch(() => undefined);
  });

  after(async () => {
    await spent?.door.close().catch(() => undefined);
    await cleanUpCopies();
  });

  async function manual(): Promise<Door> {
    const door = await openDoor('mcp-2026', { workspace, stateDir: tempStateRoot(), manualRounds: true });
    doors.push(door);
    return door;
  }

  /** One tools/call that may answer input_required (manual rounds). */
  async function send(door: Door, name: string, args: Record<string, unknown>, retry?: { requestState: string; inputResponses: unknown }): Promise<Round> {
    return (await door.client!.callTool({ name, arguments: args, ...(retry ?? {}) } as never, { allowInputRequired: true, timeout: 300_000 } as never)) as Round;
  }

  describe('mcp-2026: a used requestState is spent', () => {
    it('replaying an answered navigate requestState after the agent edited Directory.Build.props evaluates nothing', async () => {
      const door = await openDoor('mcp-2026', { workspace, stateDir: tempStateRoot(), manualRounds: true }); // closed in after()
      spent = { workspace, door };
      const call = { action: 'definition', symbol: 'Greeter.Greet', target: 'A.slnx' };
      const question = await send(door, 'navigate', call);
      assert.equal(question.resultType, 'input_required', JSON.stringify(question));
      assert.equal(runsOf(workspace, 'Alpha'), 0, 'nothing ran before the person answered');

      const answered = await send(door, 'navigate', call, { requestState: question.requestState!, inputResponses: allowOnce });
      assert.notEqual(answered.isError, true, textOf(answered));
      const approvedRuns = runsOf(workspace, 'Alpha');
      assert.ok(approvedRuns > 0, 'Allow once let the load run');

      for (const edit of ['one', 'two']) {
        editBuildProps(workspace, edit);
        const replay = await send(door, 'navigate', call, { requestState: question.requestState!, inputResponses: allowOnce });
        assert.notEqual(replay.resultType, 'input_required');
        assert.equal(replay.isError, true, `the replay after edit ${edit} was answered: ${textOf(replay)}`);
        assert.match(textOf(replay), /^error invalid_request: This approval was already used/);
        assert.equal(runsOf(workspace, 'Alpha'), approvedRuns, `the replay after edit ${edit} ran project code`);
      }
    });

    it('replaying an answered raw lsp request\'s requestState after an edit of Directory.Build.props runs nothing', async () => {
      // The `lsp` tool's door (raw lsp requests, the MCP bridge's only). On the first test's server when it ran
      // (A asked about again after its edits: this request asks too, and its Allow once reloads A), else on a fresh one.
      if (spent) workspace = spent.workspace;
      const door = spent?.door ?? (await manual());
      const call = { action: 'request', method: 'textDocument/hover', target: 'A.slnx', parameters: { textDocument: { uri: pathToFileURL(path.join(workspace, 'Alpha', 'Alpha.cs')).href }, position: { line: 4, character: 26 } } };
      const before = runsOf(workspace, 'Alpha');
      const question = await send(door, 'lsp', call);
      assert.equal(question.resultType, 'input_required', JSON.stringify(question));
      const answered = await send(door, 'lsp', call, { requestState: question.requestState!, inputResponses: allowOnce });
      assert.notEqual(answered.isError, true, textOf(answered));
      const loaded = runsOf(workspace, 'Alpha');
      assert.ok(loaded > before, 'Allow once let the load run');

      editBuildProps(workspace, 'replay');
      const replay = await send(door, 'lsp', call, { requestState: question.requestState!, inputResponses: allowOnce });
      assert.equal(replay.isError, true, `the replay was answered: ${textOf(replay)}`);
      assert.match(textOf(replay), /^error invalid_request: This approval was already used/);
      assert.equal(runsOf(workspace, 'Alpha'), loaded, 'the replay ran project code');
    });

    it('replaying an answered verify_workspace requestState builds nothing', async () => {
      const door = await manual();
      const call = { target: 'A.slnx', scope: 'build' };
      const question = await send(door, 'verify_workspace', call);
      assert.equal(question.resultType, 'input_required', JSON.stringify(question));
      const answered = await send(door, 'verify_workspace', call, { requestState: question.requestState!, inputResponses: allowOnce });
      assert.match(textOf(answered), /passed|succeeded|build/i);
      const builtRuns = runsOf(workspace, 'Alpha');
      assert.ok(builtRuns > 0, 'Allow once let the build run');

      const replay = await send(door, 'verify_workspace', call, { requestState: question.requestState!, inputResponses: allowOnce });
      assert.equal(replay.isError, true, `the replay was answered: ${textOf(replay)}`);
      assert.match(textOf(replay), /^error invalid_request: This approval was already used/);
      assert.equal(runsOf(workspace, 'Alpha'), builtRuns, 'the replay ran dotnet build again');
    });
  });

  describe('mcp-2026: an approval covers the target it names', () => {
    it('a navigate on B.slnx sent without approval beside A\'s approved retry evaluates nothing of B; A is not asked again', async () => {
      // On the first test's server when it ran (A asked about again after its edits), else on a fresh one.
      if (spent) workspace = spent.workspace;
      const door = spent?.door ?? (await manual());
      const alphaRuns = runsOf(workspace, 'Alpha');
      const onA = { action: 'definition', symbol: 'Greeter.Greet', target: 'A.slnx' };
      const onB = { action: 'definition', symbol: 'Counter.Next', target: 'B.slnx' };
      const question = await send(door, 'navigate', onA);
      assert.equal(question.resultType, 'input_required');

      // B just before A's retry, then both at once.
      const [b, a] = await Promise.all([send(door, 'navigate', onB), send(door, 'navigate', onA, { requestState: question.requestState!, inputResponses: allowOnce })]);
      assert.equal(runsOf(workspace, 'Beta'), 0, `B was evaluated with A's approval: ${JSON.stringify(b)}`);
      assert.equal(b.resultType, 'input_required', `B must be asked about itself: ${JSON.stringify(b)}`);
      assert.notEqual(a.resultType, 'input_required', 'A was asked again after the person allowed it');
      assert.notEqual(a.isError, true, textOf(a));
      assert.ok(runsOf(workspace, 'Alpha') > alphaRuns, 'A was evaluated after its approval');
    });
  });
});

describe('attacks on approvals: answers that are not Allow once or Deny', function () {
  this.timeout(600_000);
  let workspace: string;
  const doors: Door[] = [];

  before(() => {
    workspace = copyFixture('TwoMarkedSolutions', 'A.slnx');
    fs.rmSync(path.join(workspace, 'Alpha', 'initial-marker.txt'), { force: true });
  });

  afterEach(async () => {
    for (const door of doors.splice(0)) await door.close().catch(() => undefined);
  });

  after(cleanUpCopies);

  const call = { action: 'definition', symbol: 'Greeter.Greet', target: 'A.slnx' };

  it('mcp-2025: an elicitation the client answers with an error is refused saying so (not "nobody could be asked"); nothing ran', async () => {
    const door = await openDoor('mcp-2025', {
      workspace,
      stateDir: tempStateRoot(),
      elicit: () => {
        throw new Error('the dialog crashed');
      },
    });
    doors.push(door);
    const reply = await door.call('csharp_navigate', call);
    assert.equal(door.asked.length, 1, 'the client was asked');
    assert.equal(reply.code, 'permission_denied', reply.text);
    assert.doesNotMatch(reply.text, /nobody could be asked/);
    assert.match(reply.text, /asked through the MCP client whether it may evaluate A\.slnx.*got no usable answer: the client answered with an error \(.*the dialog crashed.*\)\. Nothing ran\./s);
    assert.equal(runsOf(workspace, 'Alpha'), 0);
  });

  it('mcp-2025: an answer outside the question\'s schema is refused naming what came back; nothing ran', async () => {
    const door = await openDoor('mcp-2025', { workspace, stateDir: tempStateRoot(), elicit: () => ({ action: 'accept', content: { choice: 'yes' } }) });
    doors.push(door);
    const reply = await door.call('csharp_navigate', call);
    assert.equal(reply.code, 'permission_denied', reply.text);
    assert.doesNotMatch(reply.text, /nobody could be asked|The person declined/);
    assert.match(reply.text, /got no usable answer: the answer did not fit the question \(.*"decision".*\)\. Nothing ran\./s);
    assert.equal(runsOf(workspace, 'Alpha'), 0);
  });

  it('mcp-2026: a retry whose answer is outside the question\'s schema, or missing, is refused saying so; nothing ran', async () => {
    const door = await openDoor('mcp-2026', { workspace, stateDir: tempStateRoot(), manualRounds: true });
    doors.push(door);
    const send = async (retry?: object) =>
      (await door.client!.callTool({ name: 'navigate', arguments: call, ...(retry ?? {}) } as never, { allowInputRequired: true, timeout: 300_000 } as never)) as Round;
    const wrong = await send({ requestState: (await send()).requestState, inputResponses: { permission: { action: 'accept', content: { decision: 'yes' } } } });
    assert.equal(wrong.isError, true);
    assert.match(textOf(wrong), /^error permission_denied: SharpClaw asked through the MCP client whether it may evaluate A\.slnx.*got no usable answer: the answer did not fit the question \(decision must be allow_once or deny, got "yes"\)/s);
    const missing = await send({ requestState: (await send()).requestState });
    assert.match(textOf(missing), /^error permission_denied: .*got no usable answer: the retry carries no answer under inputResponses\.permission/s);
    assert.equal(runsOf(workspace, 'Alpha'), 0);
  });
});

describe('attacks on approvals, through every door: an approval covers one call', function () {
  this.timeout(900_000);
  const doors: Door[] = [];

  afterEach(async () => {
    for (const door of doors.splice(0)) await door.close().catch(() => undefined);
  });

  after(cleanUpCopies);

  // fixtures/ImportedBuildProps: Directory.Build.props imports build/Shared.props (ImportScanner follows it).
  // One copy and one cold load per door: each edit follows an allowed load (the second, of the project as the
  // first edit left it), so each refusal is the edit's own. The CLI's run of both edits is
  // test/host-e2e/cli/importedBuildFileCli.test.ts. The MCP eras then do the same through a raw lsp request.
  for (const name of ['mcp-2025', 'mcp-2026', 'vscode-adapter'] as const) {
    it(`${name}: after one allowed load, the agent edits Directory.Build.props, and after the next allowed load build/Shared.props, which Directory.Build.props imports: each time the next call asks again and Deny runs nothing (MCP: then a raw lsp request after its allowed load and an edit likewise)`, async () => {
      const workspace = copyFixture('ImportedBuildProps', 'App.slnx');
      const marker = path.join(workspace, 'App', 'initial-marker.txt');
      fs.rmSync(marker, { force: true });
      const runs = () => (fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8').split('\n').filter((line) => line.trim()).length : 0);
      const door = await openDoor(name, { workspace, stateDir: tempStateRoot(), answer: ['allow_once', 'deny', 'allow_once', 'deny', 'allow_once', 'deny'] });
      doors.push(door);
      const onApp = { action: 'definition', symbol: 'Greeter.Greet', target: 'App.slnx' };
      const allowed = await door.call('csharp_navigate', onApp);
      assert.equal(allowed.code, undefined, allowed.text);
      const loaded = runs();
      assert.ok(loaded > 0);

      const props = path.join(workspace, 'Directory.Build.props');
      fs.writeFileSync(props, fs.readFileSync(props, 'utf8').replace(/<\/Project>/, '  <PropertyGroup>\n    <AttackMarker>carried</AttackMarker>\n  </PropertyGroup>\n</Project>'));
      const refusedProps = await door.call('csharp_navigate', onApp);
      assert.equal(refusedProps.code, 'permission_denied', refusedProps.text);
      assert.equal(runs(), loaded, 'project code ran again after Directory.Build.props changed, without a new approval');
      assert.equal(door.asked.length, 2, `the person was not asked again after Directory.Build.props changed: ${refusedProps.text}`);
      if (name !== 'vscode-adapter') assert.match(door.asked[1]!, /\nFiles: Directory\.Build\.props$/);

      const reloaded = await door.call('csharp_navigate', onApp);
      assert.equal(reloaded.code, undefined, reloaded.text);
      const reloadedRuns = runs();
      assert.ok(reloadedRuns > loaded, 'Allow once evaluated the edited project');
      assert.equal(door.asked.length, 3);

      const shared = path.join(workspace, 'build', 'Shared.props');
      fs.writeFileSync(shared, fs.readFileSync(shared, 'utf8').replace(/<\/PropertyGroup>/, '  <AttackMarker>imported</AttackMarker>\n  </PropertyGroup>'));
      const refused = await door.call('csharp_navigate', onApp);
      assert.equal(refused.code, 'permission_denied', refused.text);
      assert.equal(door.asked.length, 4, `the person was not asked again: ${refused.text}`);
      // What the person sees: the question says the build files changed and, in the MCP client, names the file (VS Code's dialog lists it as Files:).
      if (name !== 'vscode-adapter') assert.match(door.asked[3]!, /\nWhy: project, build or restore files changed since the last load\nAsked by: csharp_navigate\nFiles: build\/Shared\.props$/);
      if (name !== 'mcp-2026') assert.match(refused.text, /build files of 'App\.slnx' changed \(build\/Shared\.props\)/);
      assert.equal(runs(), reloadedRuns, 'project code ran after the imported file changed, without an approval');

      // The MCP eras' raw lsp door (the `lsp` tool), on this server instead of a server and cold load of its
      // own: after one load allowed through it and an edit of Directory.Build.props, an lsp request runs
      // nothing without a new approval.
      if (name === 'vscode-adapter') return;
      const hover = { action: 'request', method: 'textDocument/hover', target: 'App.slnx', parameters: { textDocument: { uri: pathToFileURL(path.join(workspace, 'App', 'Greeter.cs')).href }, position: { line: 4, character: 26 } } };
      const lspAllowed = await door.call('lsp', hover);
      assert.equal(lspAllowed.code, undefined, lspAllowed.text);
      assert.equal(door.asked.length, 5);
      const lspLoaded = runs();
      assert.ok(lspLoaded > reloadedRuns, "Allow once let the lsp request's load run");
      fs.writeFileSync(props, fs.readFileSync(props, 'utf8').replace('<AttackMarker>carried</AttackMarker>', '<AttackMarker>lsp</AttackMarker>'));
      const lspRefused = await door.call('lsp', hover);
      assert.equal(lspRefused.code, 'permission_denied', lspRefused.text);
      assert.equal(runs(), lspLoaded, 'project code ran again after Directory.Build.props changed, without a new approval');
      assert.equal(door.asked.length, 6, `the person was not asked again: ${lspRefused.text}`);
    });
  }
});
