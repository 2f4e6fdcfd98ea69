// Attacks of issue 12 on `sharpclaw verify`, as a person running it sees them: switches planted
// above the generated traversal project, a solution listing projects whose folders are gone.
// The real CLI, real dotnet and real Git on temporary copies of fixtures.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { descendantPids, isAlive, processIdentity } from '../../../src/engine/processes/processTree';
import type { VerificationReport } from '../../../src/engine/verification/report';
import { verificationStateFolder } from '../../../src/engine/verification/runDirectory';
import { acquireWorkspaceLock, lockGroupsPath, workspaceLockPath } from '../../../src/engine/workspaceLock';
import { cleanUpCopies, cliPath, copyFixture, initRepository, residentHosts, runCli, tempStateRoot } from '../support';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await sleep(200);
  }
  return condition();
}

const commandOf = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
};

const parse = (stdout: string) => JSON.parse(stdout) as { ok: boolean; data?: VerificationReport; text: string };

describe('sharpclaw verify: hardening (issue 12)', function () {
  this.timeout(300_000);
  after(cleanUpCopies);

  it('names the missing project files of a solution instead of "spawn dotnet ENOENT" (item 13)', async () => {
    const workspace = copyFixture('SolutionMissingProjects');
    const result = await runCli(['verify', '--scope', 'build', '--allow-shell', '--output-format', 'json'], { cwd: workspace, env: { SHARPCLAW_STATE_DIR: tempStateRoot() } });
    assert.equal(result.code, 1, result.stderr);
    const report = parse(result.stdout).data!;
    assert.equal(report.status, 'failed');
    assert.match(report.summary, /2 listed project files do not exist: Gone[\\/]Gone\.csproj, lib[\\/]Vanished[\\/]Vanished\.csproj\./);
    assert.doesNotMatch(result.stdout, /ENOENT|Could not start/);
  });

  it('builds the generated affected.proj without Directory.Build.rsp or Directory.Build.props from folders above it (item 2)', async () => {
    const workspace = copyFixture('VerifyTwoRoots', 'VerifyTwoRoots.slnx');
    initRepository(workspace);
    const stateRoot = tempStateRoot();
    // A stranger's files in the folders above the generated project (like a world-writable /tmp).
    const marker = path.join(stateRoot, 'planted-code-ran.txt');
    const evil = path.join(stateRoot, 'evil.targets');
    fs.writeFileSync(evil, `<Project><Target Name="Planted" BeforeTargets="Build;CoreCompile"><WriteLinesToFile File="${marker}" Lines="$(MSBuildProjectFullPath)" /></Target></Project>\n`);
    fs.writeFileSync(path.join(stateRoot, 'Directory.Build.rsp'), `-p:CustomBeforeMicrosoftCommonTargets=${evil}\n-p:CustomAfterMicrosoftCommonTargets=${evil}\n`);
    fs.writeFileSync(path.join(stateRoot, 'Directory.Build.props'), `<Project><Import Project="${evil}" /></Project>\n`);
    fs.writeFileSync(path.join(stateRoot, 'Directory.Build.targets'), `<Project><Import Project="${evil}" /></Project>\n`);
    for (const name of ['Alpha', 'Beta']) fs.appendFileSync(path.join(workspace, name, `${name}.cs`), '// changed\n');

    const result = await runCli(['verify', '--scope', 'affected', '--allow-shell', '--output-format', 'json'], { cwd: workspace, env: { SHARPCLAW_STATE_DIR: stateRoot } });
    const report = parse(result.stdout).data!;
    assert.equal(report.build?.status, 'passed', result.stdout);
    const build = report.steps.find((step) => step.kind === 'build')!;
    assert.equal(build.target, '2 affected projects');
    assert.match(build.commandLine, /affected\.proj/);
    assert.match(build.commandLine, /-noAutoResponse/);
    assert.equal(fs.existsSync(marker), false, fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : '');
  });

  // Both signals on one copy and state folder: the second run's build is started the same way (its sleep step
  // runs again, SlowSeconds being an MSBuild property), and its verify may find the resident host the first left.
  let slow: { workspace: string; stateRoot: string } | undefined;
  for (const signal of ['SIGKILL', 'SIGHUP'] as const) {
    it(`kills the build's whole process tree when sharpclaw verify dies of ${signal} (item 6)`, async function () {
      if (process.platform !== 'linux') this.skip();
      slow ??= { workspace: copyFixture('VerificationSlow', 'Slow/Slow.csproj'), stateRoot: tempStateRoot() };
      const { workspace, stateRoot } = slow;
      const cli = spawn(process.execPath, [cliPath, 'verify', '--scope', 'build', '--target', 'Slow/Slow.csproj', '--allow-shell', '--timeout', '300'], {
        cwd: workspace,
        env: { ...process.env, SHARPCLAW_STATE_DIR: stateRoot, SlowSeconds: '60' },
        stdio: 'ignore',
      });
      // Wait for the build's grandchild (dotnet → MSBuild → sh → sleep 60).
      let tree: number[] = [];
      const sleeping = await until(() => {
        tree = descendantPids(cli.pid!);
        return tree.some((pid) => /^sleep 60/.test(commandOf(pid)));
      }, 120_000);
      assert.ok(sleeping, 'the slow build step never started');
      // The resident host the verify asked for its project graph outlives it by design (its own process group),
      // and so does the watchdog that ends that group once the host is gone.
      const residents = residentHosts(stateRoot);
      const resident = new Set(residents.flatMap((pid) => [pid, ...descendantPids(pid)]));
      const watchesResident = (pid: number) => residents.some((host) => commandOf(pid).includes(`sharpclaw-watchdog ${host} `));
      const build = tree.filter((pid) => !resident.has(pid) && !watchesResident(pid)).map((pid) => ({ pid, command: commandOf(pid), identity: processIdentity(pid) }));
      cli.kill(signal);

      const gone = await until(() => build.every((p) => !isAlive(p.identity)), 15_000);
      const survivors = build.filter((p) => isAlive(p.identity)).map((p) => `${p.pid} ${p.command}`);
      for (const p of build) if (isAlive(p.identity)) process.kill(p.pid, 'SIGKILL');
      assert.ok(gone, `still running 15 s after ${signal} of sharpclaw verify:\n${survivors.join('\n')}`);

      // The lock it left is taken over by the next run (its owner and the owner's tree are gone).
      const next = await runCli(['verify', '--scope', 'build', '--target', 'Slow/Slow.csproj', '--allow-shell', '--output-format', 'json', '--timeout', '60'], { cwd: workspace, env: { SHARPCLAW_STATE_DIR: stateRoot, SlowSeconds: '0' } });
      assert.equal(parse(next.stdout).data?.status, 'passed', next.stdout);
    });
  }

  it('takes over a stale lock only once its owner\'s process tree is gone (item 6)', async function () {
    if (process.platform === 'win32') this.skip();
    const stateDir = verificationStateFolder(copyFixture('VerificationSlow'), tempStateRoot());
    // A lock left by a dead owner whose child process group still runs (a build it started).
    const build = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
    const deadOwner = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => deadOwner.once('exit', resolve));
    fs.writeFileSync(workspaceLockPath(stateDir), `pid ${deadOwner.pid}\nstart -\nhost ${os.hostname()}\npurpose verify\n`);
    fs.writeFileSync(lockGroupsPath(stateDir), JSON.stringify([processIdentity(build.pid!)]));
    try {
      await assert.rejects(acquireWorkspaceLock(stateDir, { timeoutMs: 3000 }), /held by a verification .* for the whole timeout/);
    } finally {
      process.kill(-build.pid!, 'SIGKILL');
    }
    await until(() => !isAlive(processIdentity(build.pid!), true), 5000);
    const lock = await acquireWorkspaceLock(stateDir, { timeoutMs: 10_000 });
    assert.match(fs.readFileSync(workspaceLockPath(stateDir), 'utf8'), new RegExp(`^pid ${process.pid}\n`));
    await lock.release();
    assert.equal(fs.existsSync(lockGroupsPath(stateDir)), false);
    assert.equal(fs.existsSync(workspaceLockPath(stateDir)), false);
  });
});
