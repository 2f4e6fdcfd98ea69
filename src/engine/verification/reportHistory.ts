// What a session remembers of its verifications: the latest report, and the latest one whose build
// actually ran (prompt assembly passes that build's diagnostics on, and a later tests-only run or a
// missing prerequisite must not hide it). Plus the shape of "a verification is running" that the
// sidebar shows. Held by the Session (engine/session.ts), one per session, never process-wide.
import type { VerificationReport } from './report';
import type { VerifyRequest } from './request';

/** A verification under way (what the sidebar shows as "Verifying…"). */
export interface RunningVerification {
  scope: VerifyRequest['scope'];
  requestedBy: string;
  /** The latest progress step, e.g. "Building 3 affected projects…". */
  step?: string;
}

export class ReportHistory {
  private latest: VerificationReport | undefined;
  private latestBuild: VerificationReport | undefined;

  /** The latest finished report, if any. */
  get lastReport(): VerificationReport | undefined {
    return this.latest;
  }

  /** The latest report whose build ran (passed or failed). */
  get lastBuildReport(): VerificationReport | undefined {
    return this.latestBuild;
  }

  record(report: VerificationReport): void {
    this.latest = report;
    if (report.build?.status === 'passed' || report.build?.status === 'failed') this.latestBuild = report;
  }
}
