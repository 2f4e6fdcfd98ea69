// `sharpclaw verify` as a real process (dist/cli.js): the JSON envelope and its text, exit codes,
// permission modes, and the workspace lock across processes, including a holder that is killed.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { VerificationReport } from '../../../src/engine/verification/report';
import { verificationStateFolder } from '../../../src/engine/verification/runDirectory';
import { cleanUpCopies, copyFixture, repoRoot, runCli, tempStateRoot } from '../support';

interface Envelope {
  ok: boolean;
  command: string;
  data?: VerificationReport;
  error?: { code: string; message: string };
  text: string;
}

const parse = (stdout: string) => JSON.parse(stdout) as Envelope;

describe('sharpclaw verify (the real CLI process)', function () {
  this.timeout(240_000);
  let workspace: string;
  let stateRoot: string;
  const env = () => ({ SHARPCLAW_STATE_DIR: stateRoot, SlowSeconds: '4' });

  before(() => {
    workspace = copyFixture('VerificationSlow', 'Slow/Slow.csproj');
    stateRoot = tempStateRoot();
  });
  after(cleanUpCopies);

  it('read-only denies before any process starts and exits non-zero with the JSON envelope', async () => {
    const result = await runCli(['verify', '--scope', 'build', '--target', 'Slow/Slow.csproj', '--permission-mode', 'read-only', '--output-format', 'json'], { cwd: workspace, env: env() });
    assert.equal(result.code, 1);
    const envelope = parse(result.stdout);
    assert.equal(envelope.ok, false);
    assert.equal(envelope.error?.code, 'permission_denied');
    assert.equal(envelope.data?.status, 'denied');
    assert.deepEqual(envelope.data?.steps, []);
  });

  it('non-interactive workspace-write needs --allow-shell', async () => {
    const result = await runCli(['verify', '--scope', 'build', '--target', 'Slow/Slow.csproj', '--output-format', 'json'], { cwd: workspace, env: env() });
    assert.equal(result.code, 1);
    assert.match(parse(result.stdout).error!.message, /Pass --allow-shell/);
  });

  it('rejects invalid options with exit code 2', async () => {
    const result = await runCli(['verify', '--scope', 'everything', '--allow-shell'], { cwd: workspace, env: env() });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--scope must be one of build, tests, all, affected/);
  });

  it('serializes two overlapping runs from two processes', async () => {
    const args = ['verify', '--scope', 'build', '--target', 'Slow/Slow.csproj', '--allow-shell', '--output-format', 'json', '--timeout', '120'];
    const [first, second] = await Promise.all([runCli(args, { cwd: workspace, env: env() }), runCli(args, { cwd: workspace, env: env() })]);
    const reports = [parse(first.stdout).data!, parse(second.stdout).data!];
    assert.deepEqual([first.code, second.code], [0, 0], `${first.stderr}\n${second.stderr}`);
    const builds = reports.map((report) => {
      const build = report.steps.find((step) => step.kind === 'build')!;
      const start = Date.parse(build.startedAt);
      return { start, end: start + build.durationMs, waited: report.lockWaitMs };
    });
    builds.sort((a, b) => a.start - b.start);
    assert.ok(builds[0]!.end <= builds[1]!.start, `the builds overlapped: ${JSON.stringify(builds)}`);
    assert.ok(Math.max(...reports.map((r) => r.lockWaitMs)) >= 3000, 'one run waited for the other’s 4 s build');
    // The state folder's first SDK check (no global.json above the fixture): the host's in-process resolver
    // answered it, no dotnet --version ran; the run after it reused that answer.
    const sdkLogs = [...reports].sort((a, b) => a.lockWaitMs - b.lockWaitMs).map((report) => report.steps.find((step) => step.kind === 'sdk')!.log.text);
    assert.match(sdkLogs[0]!, /^\d+\.\d+\.\d+\S*\n\(answered without a process: the \.NET host's SDK resolver/);
    assert.match(sdkLogs[1]!, /\(reused: /);
  });

  it('recovers a lock left by a killed process', async () => {
    const stateDir = verificationStateFolder(workspace, stateRoot);
    const lockModule = path.join(repoRoot, 'out', 'src', 'engine', 'workspaceLock.js');
    // The holder must stay alive until killed: a process that exits normally releases its lock.
    const holder = spawn(
      process.execPath,
      ['-e', `require(${JSON.stringify(lockModule)}).acquireWorkspaceLock(${JSON.stringify(stateDir)}, { timeoutMs: 5000 }).then(() => { console.log('locked'); setInterval(() => undefined, 1000); })`, '--', 'keep-alive'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve()));
    holder.kill('SIGKILL');
    assert.ok(fs.existsSync(path.join(stateDir, 'workspace.lock')), 'the killed holder left its lock behind');
    const result = await runCli(['verify', '--scope', 'build', '--target', 'Slow/Slow.csproj', '--allow-shell', '--output-format', 'json', '--timeout', '60'], { cwd: workspace, env: { ...env(), SlowSeconds: '0' } });
    const report = parse(result.stdout).data!;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(report.status, 'passed');
    assert.ok(report.lockWaitMs < 5000, `took over the stale lock after ${report.lockWaitMs} ms (its holder is gone, so at once)`);
    // What the text format prints (printSuccess writes this text alone without --output-format json).
    assert.match(parse(result.stdout).text, /^verify build Slow\/Slow\.csproj \[Debug\]: passed: build passed/);
  });
});
