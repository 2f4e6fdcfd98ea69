// The lifecycle of the Roslyn host as the rest of the extension sees it.
export type HostState =
  /** Not running; it starts the first time something needs it. */
  | { kind: 'stopped' }
  | { kind: 'starting' }
  | { kind: 'ready'; pid: number; roslynVersion: string }
  /** Exited unexpectedly; the next request starts a new host. */
  | { kind: 'crashed'; message: string }
  /** Cannot start (missing .NET, missing host build) or crashed too often; needs the user. */
  | { kind: 'failed'; message: string; cause: 'start' | 'crashes' };

export type HostStateKind = HostState['kind'];

export function describeHostState(state: HostState): string {
  switch (state.kind) {
    case 'stopped':
      return 'Host not running; it starts when a SharpClaw feature needs it.';
    case 'starting':
      return 'Host starting…';
    case 'ready':
      return `Host ready (pid ${state.pid}, Roslyn ${state.roslynVersion}).`;
    case 'crashed':
      return `${state.message} The next request starts a new host.`;
    case 'failed':
      return state.message;
  }
}

/** A load's progress as lsp status and the loading error say it: "Loading Calculator.slnx 40%" (no percentage when Roslyn gives none). */
export function describeLoadProgress(progress: { target: string; percent: number | null }): string {
  return `Loading ${progress.target}${progress.percent === null ? '' : ` ${progress.percent}%`}`;
}
