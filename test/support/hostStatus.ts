// The status answer a started host gives (sharpclaw/status), for the unit layer's hosts that are not
// a Roslyn host: the supervisor's fake transport and the recorded-answer replays.
import type { HostStatus } from '../../src/engine/protocol/hostStatus';

export function startedHostStatus(pid: number, versions: { hostVersion: string; roslynVersion: string; frameworkDescription: string; runtimeIdentifier: string }): HostStatus {
  return {
    hostVersion: versions.hostVersion,
    roslynVersion: versions.roslynVersion,
    runtime: { frameworkDescription: versions.frameworkDescription, runtimeIdentifier: versions.runtimeIdentifier, dotnetRoot: null },
    sdks: [],
    loadedContexts: [],
    processId: pid,
    clientProcessId: null,
    startedAt: '2026-01-01T00:00:00Z',
    logFile: null,
  };
}
