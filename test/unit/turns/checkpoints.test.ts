import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CheckpointStore } from '../../../src/engine/turns/checkpointStore';
import { mutationKind } from '../../../src/engine/turns/mutations';
import { TurnEventLog, budgetFromEvents } from '../../../src/engine/turns/turnEvents';
import { TurnRecorder } from '../../../src/engine/turns/turnRecorder';
import { undoCheckpoint } from '../../../src/engine/turns/undoTurn';

describe('turn mutations and checkpoints', () => {
  let folder: string;
  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-ckpt-'));
  });
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('classifies source, project and build-input files; other files do not start a check', () => {
    assert.equal(mutationKind('/ws/src/A.cs'), 'source');
    assert.equal(mutationKind('/ws/src/App.csproj'), 'project');
    for (const file of ['Directory.Build.props', 'global.json', 'NuGet.Config', 'App.slnx', 'Directory.Packages.props', 'build/x.targets']) assert.equal(mutationKind(`/ws/${file}`), 'buildInput', file);
    assert.equal(mutationKind('/ws/README.md'), 'other');
  });

  it('records writes in order with their tool; a retried write adds nothing', () => {
    const recorder = new TurnRecorder('t1', '/ws');
    assert.equal(recorder.record({ id: 'a', file: '/ws/A.cs', tool: 'csharp_edit', before: '1', after: '2' }), true);
    assert.equal(recorder.record({ id: 'b', file: '/ws/B.cs', tool: 'csharp_rename_symbol', before: '1', after: '2' }), true);
    assert.equal(recorder.record({ id: 'a', file: '/ws/A.cs', tool: 'csharp_edit', before: '1', after: '2' }), false);
    assert.deepEqual(recorder.recorded.map((m) => [m.id, m.tool, m.kind]), [['a', 'csharp_edit', 'source'], ['b', 'csharp_rename_symbol', 'source']]);
  });

  it('saving a checkpoint again (a retry) never duplicates its mutation ids', () => {
    const store = new CheckpointStore(folder);
    const recorder = new TurnRecorder('t1', '/ws');
    recorder.record({ id: 'a', file: '/ws/A.cs', tool: 'csharp_edit', before: '1', after: '2' });
    const checkpoint = recorder.checkpoint();
    store.save({ ...checkpoint, mutations: [...checkpoint.mutations, ...checkpoint.mutations] });
    store.save(checkpoint);
    assert.deepEqual(store.load('t1')!.mutations.map((m) => m.id), ['a']);
    assert.deepEqual(fs.readdirSync(store.folder), ['t1.json']);
  });

  it('undo reverts the turn and names, and leaves alone, a file changed since', async () => {
    const a = path.join(folder, 'A.cs');
    const b = path.join(folder, 'B.cs');
    const created = path.join(folder, 'New.cs');
    fs.writeFileSync(a, 'a0');
    fs.writeFileSync(b, 'b0');
    const recorder = new TurnRecorder('t1', folder);
    const write = (id: string, file: string, after: string | null) => {
      const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
      if (after === null) fs.rmSync(file);
      else fs.writeFileSync(file, after);
      recorder.record({ id, file, tool: 'csharp_edit', before, after });
    };
    write('1', a, 'a1');
    write('2', b, 'b1');
    write('3', a, 'a2');
    write('4', created, 'new');
    fs.writeFileSync(b, 'b1 + the person'); // the person edits B after the turn
    const result = await undoCheckpoint(recorder.finalize());
    assert.deepEqual(result, { reverted: [a, created], changedSince: [b] });
    assert.equal(fs.readFileSync(a, 'utf8'), 'a0');
    assert.equal(fs.readFileSync(b, 'utf8'), 'b1 + the person');
    assert.equal(fs.existsSync(created), false);
  });

  it('undo of a repair that wrote on top of the person\'s change keeps the person\'s change', async () => {
    const a = path.join(folder, 'A.cs');
    const recorder = new TurnRecorder('t1', folder);
    recorder.record({ id: '1', file: a, tool: 'csharp_edit', before: 'a0', after: 'a1' }); // the first pass
    // the person edits a1 → a1+p; the repair edits that: a1+p → a1+p+fix
    recorder.record({ id: '2', file: a, tool: 'csharp_edit', before: 'a1+p', after: 'a1+p+fix' });
    fs.writeFileSync(a, 'a1+p+fix');
    const result = await undoCheckpoint(recorder.finalize());
    assert.equal(fs.readFileSync(a, 'utf8'), 'a1+p');
    assert.deepEqual(result.changedSince, [a]);
  });

  it('events are appended, read back in order, and a torn last line is skipped', () => {
    const log = new TurnEventLog(folder);
    const seen: string[] = [];
    log.onDidAppend((event) => seen.push(event.type));
    log.append({ type: 'turnStarted', turnId: 't1', mode: 'build', prompt: 'p', maxRepairIterations: 2 });
    log.append({ type: 'repairStarted', turnId: 't1', attempt: 1, of: 2 });
    fs.appendFileSync(log.file, '{"type":"repairSta');
    assert.deepEqual(log.read().map((event) => event.type), ['turnStarted', 'repairStarted']);
    assert.deepEqual(seen, ['turnStarted', 'repairStarted']);
    assert.deepEqual(log.turnIds(), ['t1']);
    assert.deepEqual(budgetFromEvents(log.turn('t1'), 4), { ceiling: 2, consumed: 1 });
    assert.deepEqual(budgetFromEvents(log.turn('t1'), 1), { ceiling: 1, consumed: 1 });
  });

  it('an event that does not match its schema is refused when appended', () => {
    const log = new TurnEventLog(folder);
    assert.throws(() => log.append({ type: 'turnStarted', turnId: 't1', mode: 'build', prompt: 'p', maxRepairIterations: 9 }));
  });
});
