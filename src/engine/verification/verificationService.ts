// Remembers the latest verification report of this process and tells listeners (the Problems
// panel, the sidebar) when a new one arrives, whichever surface ran it: a command or the
// verify_workspace tool. No vscode import: the CLI and the MCP server can use it too.
import type { VerificationReport } from './report';
import type { VerifyRequest } from './request';
import { verify, type VerifyContext } from './runner';

export type ReportListener = (report: VerificationReport) => void;

/** A verification under way (what the sidebar shows as "Verifying…"), or undefined when none is. */
export interface RunningVerification {
  scope: VerifyRequest['scope'];
  requestedBy: string;
  /** The latest progress step, e.g. "Building 3 affected projects…". */
  step?: string;
}
export type RunningListener = (running: RunningVerification | undefined) => void;

export class VerificationService {
  private latest: VerificationReport | undefined;
  private latestBuild: VerificationReport | undefined;
  private readonly listeners = new Set<ReportListener>();
  private readonly runningListeners = new Set<RunningListener>();

  /** The latest finished report (JSON-serializable), if any. */
  get lastReport(): VerificationReport | undefined {
    return this.latest;
  }

  /**
   * The latest report whose build actually ran (passed or failed): a later tests-only run or a
   * missing prerequisite does not replace it, so prompts keep the latest real build result.
   */
  get lastBuildReport(): VerificationReport | undefined {
    return this.latestBuild;
  }

  onDidReport(listener: ReportListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Fires when a verification starts, at each progress step, and with undefined when it ends. */
  onDidChangeRunning(listener: RunningListener): { dispose(): void } {
    this.runningListeners.add(listener);
    return { dispose: () => this.runningListeners.delete(listener) };
  }

  async run(request: VerifyRequest, context: VerifyContext): Promise<VerificationReport> {
    const running: RunningVerification = { scope: request.scope, requestedBy: context.requestedBy };
    this.notifyRunning(running);
    try {
      const report = await verify(request, {
        ...context,
        progress: (message) => {
          this.notifyRunning({ ...running, step: message });
          context.progress?.(message);
        },
      });
      this.publish(report);
      return report;
    } finally {
      this.notifyRunning(undefined);
    }
  }

  private notifyRunning(running: RunningVerification | undefined): void {
    for (const listener of [...this.runningListeners]) {
      try {
        listener(running);
      } catch {
        // A failing listener must not fail the verification.
      }
    }
  }

  publish(report: VerificationReport): void {
    this.latest = report;
    if (report.build?.status === 'passed' || report.build?.status === 'failed') this.latestBuild = report;
    for (const listener of [...this.listeners]) {
      try {
        listener(report);
      } catch {
        // A failing listener must not fail the verification.
      }
    }
  }
}

/** The process-wide service: the tool and the commands publish to the same one. */
export const verificationService = new VerificationService();
