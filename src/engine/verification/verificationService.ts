// Remembers the latest verification report of this process and tells listeners (the Problems
// panel, the sidebar) when a new one arrives, whichever surface ran it: a command or the
// verify_workspace tool. No vscode import: the CLI and the MCP server can use it too.
import type { VerificationReport } from './report';
import type { VerifyRequest } from './request';
import { verify, type VerifyContext } from './runner';

export type ReportListener = (report: VerificationReport) => void;

export class VerificationService {
  private latest: VerificationReport | undefined;
  private readonly listeners = new Set<ReportListener>();

  /** The latest finished report (JSON-serializable), if any. */
  get lastReport(): VerificationReport | undefined {
    return this.latest;
  }

  onDidReport(listener: ReportListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  async run(request: VerifyRequest, context: VerifyContext): Promise<VerificationReport> {
    const report = await verify(request, context);
    this.publish(report);
    return report;
  }

  publish(report: VerificationReport): void {
    this.latest = report;
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
