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

type ProgressStep = { kind: 'load' | 'index'; target: string; percent: number | null; projectIndex: number; projectCount: number; currentProject: string };

/**
 * A load's progress as lsp status and the loading error say it: "Loading Calculator.slnx 40%" (no percentage when
 * Roslyn gives none), or a syntax index build's: "Building the syntax index of efcore 40%".
 */
export function describeLoadProgress(progress: Pick<ProgressStep, 'kind' | 'target' | 'percent'>): string {
  return `${progress.kind === 'index' ? 'Building the' : 'Loading'} ${progress.target}${progress.percent === null ? '' : ` ${progress.percent}%`}`;
}

/** Where a step is: "project 2 of 5, src/A/A.csproj" for a load, "parsed src/A/B.cs" for an index build (its counts are file steps, not projects). */
export function describeProgressStep(progress: Omit<ProgressStep, 'target' | 'percent'>): string {
  return progress.kind === 'index' ? progress.currentProject : `project ${progress.projectIndex} of ${progress.projectCount}, ${progress.currentProject}`;
}
