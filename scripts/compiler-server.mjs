// The C# compiler server a test layer's builds share: the .NET default a person has (UseSharedCompilation,
// one warm VBCSCompiler for all compiles), which a CI machine's environment may turn off
// (UseSharedCompilation=false: a cold csc per project and target framework, about 3 CPU-s each, 56 of them
// in a host-e2e run). The layer gets a server of its own, under a pipe name of its own
// (SharedCompilationId, which the SDK's Csc task reads as an MSBuild property from the environment), so its
// builds never talk to another person's or another run's server, and the layer stops only its own when it
// ends (`dotnet build-server shutdown` would stop every server of the default pipe, other people's too).
//
// The server is started here, in a session of its own, before the first build: a server that the first
// build's compile starts lives in that build's process group, which the verifier kills on a timeout or a
// cancellation, and the watchdog of a killed CLI kills (src/engine/processes/processTree.ts) — taking the
// server, and any other file's compile in flight on it, down with that one build. It inherits the layer's
// environment (SHARPCLAW_TEST_CPU_LAYER), so the layer's CPU-s count it. The compiler's diagnostics, its
// output assembly and MSBuild's CoreCompile skipping are the same either way, which is what the verifier's
// compile memory (src/engine/verification/compileMemory.ts) and the tests read.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The compiler server of the SDK `dotnet` picks in `cwd`: [file, ...args before the pipe name], or undefined. */
function serverCommand(cwd) {
  try {
    const env = { ...process.env, DOTNET_NOLOGO: '1', DOTNET_CLI_TELEMETRY_OPTOUT: '1' };
    const version = execFileSync('dotnet', ['--version'], { cwd, encoding: 'utf8', env }).trim();
    // "10.0.401 [/usr/share/dotnet/sdk]"
    const line = execFileSync('dotnet', ['--list-sdks'], { cwd, encoding: 'utf8', env }).split('\n').find((entry) => entry.startsWith(`${version} [`));
    const sdks = line ? /\[(.+)\]\s*$/.exec(line)?.[1] : undefined;
    if (!sdks) return undefined;
    const bincore = path.join(sdks, version, 'Roslyn', 'bincore');
    // As the Csc task starts it: the apphost where there is one, else `dotnet exec` of the dll.
    const apphost = path.join(bincore, os.platform() === 'win32' ? 'VBCSCompiler.exe' : 'VBCSCompiler');
    if (fs.existsSync(apphost)) return [apphost];
    const dll = path.join(bincore, 'VBCSCompiler.dll');
    return fs.existsSync(dll) ? ['dotnet', 'exec', dll] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts a compiler server of the layer's own and returns the environment its builds need, and the server to stop.
 * SHARPCLAW_TEST_SHARED_COMPILER=0 leaves the machine's setting (to compare the layer's CPU-s): no server, no variables.
 */
export function startCompilerServer(layer, { cwd, env }) {
  if (process.env.SHARPCLAW_TEST_SHARED_COMPILER === '0') return { env: {}, pipeName: undefined, pid: undefined };
  const pipeName = `sharpclaw-test-${layer}-${process.pid}-${randomBytes(4).toString('hex')}`;
  const variables = { UseSharedCompilation: 'true', SharedCompilationId: pipeName };
  const command = serverCommand(cwd);
  let pid;
  if (command) {
    const [file, ...args] = command;
    const child = spawn(file, [...args, `-pipename:${pipeName}`], { cwd, env: { ...process.env, ...env, ...variables }, detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
    pid = child.pid;
  }
  // Without a server started here (no SDK found), the first compile starts one under the same pipe name.
  return { env: variables, pipeName, pid };
}

/** Stops the layer's compiler server: every process whose command line names its pipe, by id. Returns how many. */
export function stopCompilerServer(server) {
  if (!server.pipeName) return 0;
  let stopped = 0;
  const pids = os.platform() === 'linux' ? fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)) : server.pid ? [String(server.pid)] : [];
  for (const pid of pids) {
    try {
      if (os.platform() === 'linux' && !fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(`-pipename:${server.pipeName}`)) continue;
      process.kill(Number(pid), 'SIGTERM');
      stopped++;
    } catch {
      // Gone already.
    }
  }
  // On Unix .NET makes the named pipe a socket file in the temporary folder, which a stopped server leaves
  // behind: two in /tmp after every run (seen 2026-12-07).
  if (os.platform() !== 'win32') fs.rmSync(path.join(os.tmpdir(), server.pipeName), { force: true });
  return stopped;
}
