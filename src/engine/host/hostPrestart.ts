// The host's head start: the CLI (`sharpclaw tool`, `verify`, `mcp`) starts its Roslyn host from dist/cli.js before
// it loads dist/core.js, so the host's own start (a .NET process and its JIT, about 0.3 s) runs beside the bundle's
// module initialisation and the MCP handshake instead of after them. The transport then takes the process it would
// have started (hostProcess.ts, residentHost.ts) instead of starting another.
// A head start is a guess and never an error: whatever fails here is left to the transport, which starts the host
// and reports as before. A stdio host that is never taken ends with this process (its group is bound here, and the
// host watches its client's pid); a resident host started for a call that ends before asking idles out like any.
// Starting our own host runs no project code: that needs a load, which only an approved request asks for.
// dist/cli.js and dist/core.js each bundle this file: the head start they share lives on globalThis.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import type { Socket } from 'node:net';
import { bindProcessGroup } from '../processes/processTree';
import { residentSocketPath, spawnResidentHost, spawnStdioHost, stdioLaunch, type StartedResident, type StdioLaunch } from './hostLaunch';

interface PrestartedStdio {
  launch: StdioLaunch;
  child: ChildProcessWithoutNullStreams;
  endGroup: () => void;
  /** Set once the process ended or failed to start: such a head start is not taken. */
  gone: boolean;
  taken: boolean;
}

interface HeadStart {
  stdio?: PrestartedStdio;
  resident?: { socket: string; started: StartedResident };
}

const slot = Symbol.for('sharpclaw.hostHeadStart');

function headStart(): HeadStart {
  const global = globalThis as { [slot]?: HeadStart };
  return (global[slot] ??= {});
}

function pipes(child: ChildProcessWithoutNullStreams): Socket[] {
  return [child.stdin, child.stdout, child.stderr] as unknown[] as Socket[];
}

/** Starts the host a call of `mode` will ask for; never throws. */
export function prestartHost(serverDll: string, mode: 'stdio' | 'resident'): void {
  try {
    if (!fs.existsSync(serverDll)) return;
    const socket = mode === 'resident' ? residentSocketPath({ serverDll }) : undefined;
    if (socket) {
      // A socket file most likely means a resident host that answers: nothing to start. (A stale one is the
      // transport's to replace, as without a head start.)
      if (!fs.existsSync(socket)) headStart().resident = { socket, started: spawnResidentHost(socket, { serverDll }) };
      return;
    }
    const launch = stdioLaunch({ serverDll });
    const child = spawnStdioHost(launch);
    const started: PrestartedStdio = { launch, child, endGroup: child.pid === undefined ? () => undefined : bindProcessGroup(child.pid), gone: false, taken: false };
    child.once('error', () => (started.gone = true));
    child.once('exit', () => {
      started.gone = true;
      if (!started.taken) started.endGroup(); // once taken, the transport's to end
    });
    // Until a transport takes it, it keeps neither this process nor its event loop alive.
    child.unref();
    for (const pipe of pipes(child)) pipe.unref();
    headStart().stdio = started;
  } catch {
    // No dotnet, an unwritable state folder: the transport finds the same and says so.
  }
}

/**
 * The stdio host started ahead for exactly this launch (same dotnet, same arguments), taken once; undefined when there
 * is none or it has ended. Its 'exit' and 'error' events have not been missed: the caller listens from now on, in this
 * same turn of the event loop.
 */
export function takePrestartedStdio(launch: StdioLaunch): { child: ChildProcessWithoutNullStreams; endGroup: () => void } | undefined {
  const state = headStart();
  const started = state.stdio;
  if (!started) return undefined;
  state.stdio = undefined;
  const same = started.launch.executable === launch.executable && started.launch.args.join('\0') === launch.args.join('\0');
  if (started.gone || !same) {
    if (!started.gone) started.child.kill('SIGKILL');
    return undefined;
  }
  started.taken = true;
  started.child.ref();
  for (const pipe of pipes(started.child)) pipe.ref();
  return { child: started.child, endGroup: started.endGroup };
}

/** The resident host started ahead on `socket`, taken once. */
export function takePrestartedResident(socket: string): StartedResident | undefined {
  const state = headStart();
  const started = state.resident;
  if (!started) return undefined;
  state.resident = undefined;
  return started.socket === socket ? started.started : undefined;
}
