// Issue 12 item 1: a host that dies mid-request must not read as success. The real CLI starts the
// real host on a restored copy of fixtures/VerificationSlow, whose design-time build sleeps, and the
// test SIGKILLs the host while the CLI waits for its answer. During an apply (fixtures/WideRename,
// a rename across hundreds of files) the error also lists the files already written.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanUpCopies, cliPath, copyFixture, tempStateRoot, waitFor } from './support';

/** The pid of the SharpClaw host started by process `parent`, if it runs yet (Linux /proc). */
function hostPid(parent: number): number | undefined {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent && fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('SharpClaw.Server.dll')) return Number(entry);
    } catch {
      // Gone meanwhile.
    }
  }
  return undefined;
}

/** Processes whose working folder is inside `folder` (Linux /proc): what a killed host's evaluation left running. */
function processesIn(folder: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cwd = fs.readlinkSync(`/proc/${entry}/cwd`);
      if (cwd === folder || cwd.startsWith(folder + path.sep)) found.push(`${entry} ${fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').slice(0, 120)}`);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** Starts the real CLI and collects its output; `closed` resolves with its exit code. */
function startCli(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [cliPath, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  return { pid: child.pid!, output, closed };
}

describe('a host that dies mid-request (real CLI, real host)', function () {
  this.timeout(300_000);
  let workspace: string;
  let stateRoot: string;

  before(function () {
    if (process.platform !== 'linux') this.skip();
    assert.ok(fs.existsSync(cliPath), `${cliPath} is missing: run "npm run build"`);
    workspace = copyFixture('VerificationSlow', 'Slow/Slow.csproj');
    stateRoot = tempStateRoot();
  });
  after(cleanUpCopies);

  it('fails with a typed host_exited error naming the signal and the log, and exits 1', async () => {
    const cli = startCli(['tool', 'dotnet_solution_inspect', '--cwd', workspace, '--input', JSON.stringify({ target: 'Slow/Slow.csproj' }), '--allow-evaluation'], { SHARPCLAW_STATE_DIR: stateRoot, SlowSeconds: '60' });
    const pid = await waitFor('the host to start', () => hostPid(cli.pid), 60_000);
    // The request has reached the host once it reports the load (whose design-time build then sleeps 60 s).
    await waitFor('the host to report the load', () => /^Loading \S*Slow\.csproj/m.test(cli.output.stderr), 120_000);
    // ... and its design-time build is in the 60 s sleep.
    const realWorkspace = fs.realpathSync(workspace);
    await waitFor('the design-time build to sleep', () => processesIn(realWorkspace).some((line) => / sleep 60/.test(line)), 120_000);
    process.kill(pid, 'SIGKILL');
    const code = await cli.closed;
    const { stdout, stderr } = cli.output;

    assert.equal(code, 1, `exit ${code}\nstdout: ${stdout}\nstderr: ${stderr}`);
    assert.equal(stdout, '');
    const log = path.join(stateRoot, 'logs', `sharpclaw-host-${pid}.log`);
    assert.match(stderr, /^error host_exited: The SharpClaw host was killed by SIGKILL while a request was pending; its log: /m);
    assert.ok(stderr.includes(log), stderr);
    assert.ok(fs.existsSync(log), `${log} exists`);
    // The design-time build the host started ends with it instead of running on, orphaned.
    await waitFor('the killed host\'s design-time build to end', () => (processesIn(realWorkspace).length === 0 ? true : undefined), 10_000).catch(() => {
      assert.fail(`still running in ${realWorkspace} after the host was killed:\n${processesIn(realWorkspace).join('\n')}`);
    });
  });
});

describe('a host killed during the apply of a multi-file rename (real CLI, real host)', function () {
  this.timeout(400_000);
  const useFiles = 250;
  let workspace: string;
  let stateRoot: string;

  before(function () {
    if (process.platform !== 'linux') this.skip();
    assert.ok(fs.existsSync(cliPath), `${cliPath} is missing: run "npm run build"`);
    // Restoring reads the project file only: the generated uses join the restored copy.
    workspace = copyFixture('WideRename', 'WideRename.csproj');
    fs.mkdirSync(path.join(workspace, 'Uses'));
    for (let i = 1; i <= useFiles; i++) {
      const name = `Use${String(i).padStart(3, '0')}`;
      fs.writeFileSync(path.join(workspace, 'Uses', `${name}.cs`), `namespace WideRename.Uses;\n\npublic static class ${name}\n{\n    public static int Run(Widget widget) => widget.Spin(${i});\n}\n`);
    }
    stateRoot = tempStateRoot();
  });
  after(cleanUpCopies);

  it('fails with host_exited and lists exactly the files already written', async () => {
    const cli = startCli(
      ['tool', 'csharp_rename_symbol', '--cwd', workspace, '--input', JSON.stringify({ name: 'Widget.Spin', newName: 'Twirl', apply: true }), '--allow-evaluation', '--allow-write'],
      { SHARPCLAW_STATE_DIR: stateRoot },
    );
    const pid = await waitFor('the host to start', () => hostPid(cli.pid), 60_000);
    // The first file the apply puts in place (its temp file renamed over it) is the moment to kill.
    let killed = false;
    const watcher = fs.watch(path.join(workspace, 'Uses'), (_event, name) => {
      if (killed || !name || !/^Use\d+\.cs$/.test(name) || !fs.readFileSync(path.join(workspace, 'Uses', name), 'utf8').includes('Twirl')) return;
      killed = true;
      process.kill(pid, 'SIGKILL');
    });
    const code = await cli.closed;
    const { stdout, stderr } = cli.output;
    watcher.close();

    assert.ok(killed, `the apply wrote nothing before the command ended (exit ${code})\nstdout: ${stdout}\nstderr: ${stderr}`);
    assert.equal(code, 1, `exit ${code}\nstdout: ${stdout}\nstderr: ${stderr}`);
    assert.equal(stdout, '');
    assert.match(stderr, /^error host_exited: The SharpClaw host was killed by SIGKILL while a request was pending; its log: .*sharpclaw-host-\d+\.log\. The interrupted apply had already written \d+ files? \(listed below\)/m);
    const listed = stderr.split('\n').filter((line) => line.startsWith('  ') && line.trim().endsWith('.cs')).map((line) => line.trim()).sort();
    const onDisk = ['Widget.cs', ...fs.readdirSync(path.join(workspace, 'Uses')).filter((name) => name.endsWith('.cs')).map((name) => `Uses/${name}`)]
      .filter((relative) => fs.readFileSync(path.join(workspace, relative), 'utf8').includes('Twirl'))
      .sort();
    assert.ok(onDisk.length > 0 && onDisk.length < useFiles + 1, `${onDisk.length} of ${useFiles + 1} files renamed: the kill did not land mid-apply`);
    assert.deepEqual(listed, onDisk);
    console.log(`      killed after ${onDisk.length} of ${useFiles + 1} files; the error listed them all`);
  });

  it('the next host to start reports the interrupted apply with its files and how to undo it, before any edit', async () => {
    // Runs after the test above: its killed host left the apply's durable record.
    const cli = startCli(['tool', 'csharp_symbols', '--cwd', workspace, '--input', JSON.stringify({ file: 'Widget.cs' }), '--allow-evaluation'], { SHARPCLAW_STATE_DIR: stateRoot });
    const code = await cli.closed;
    const { stdout, stderr } = cli.output;
    assert.equal(code, 0, `exit ${code}\nstdout: ${stdout}\nstderr: ${stderr}`);
    assert.match(stderr, /^interrupted edit: 'rename .*Spin.* to Twirl' \(rename, started \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ\) stopped after \d+ of \d+ file\(s\); \d+ leftover temporary file\(s\) removed\.$/m);
    const written = stderr.split('\n').filter((line) => line.startsWith('  written: ')).map((line) => line.slice('  written: '.length)).sort();
    const onDisk = ['Widget.cs', ...fs.readdirSync(path.join(workspace, 'Uses')).filter((name) => name.endsWith('.cs')).map((name) => `Uses/${name}`)]
      .filter((relative) => fs.readFileSync(path.join(workspace, relative), 'utf8').includes('Twirl'))
      .sort();
    assert.deepEqual(written, onDisk);
    assert.match(stderr, /Undo it with SharpClaw: Undo Last Edit/);
    assert.match(stdout, /Widget/);
  });
});
