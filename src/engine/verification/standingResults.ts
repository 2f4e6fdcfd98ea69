// What the reports of this process say together, for the Problems panel and the status bar: the
// diagnostics of the latest build that ran, and the failed tests of each test project's latest
// test run. A build-only verification replaces the build's entries and keeps the test failures
// (they stay until those tests run again), so a passing build never reads as "all green" while a
// test still fails. No vscode import.
import type { Diagnostic, FailedTest, VerificationReport, VerificationStatus } from './report';

/** Reports that ran nothing to completion change nothing that stands. */
const inconclusive = new Set<VerificationStatus>(['denied', 'cancelled', 'timedOut']);

export class StandingResults {
  private workspace: string | undefined;
  private build: Diagnostic[] = [];
  private readonly testFailures = new Map<string, FailedTest[]>();
  private status: VerificationStatus | undefined;

  /** Folds a new report in; returns false when it changed nothing (denied, cancelled, timed out). */
  apply(report: VerificationReport): boolean {
    if (inconclusive.has(report.status)) return false;
    if (this.workspace !== report.workspaceFolder) {
      this.workspace = report.workspaceFolder;
      this.build = [];
      this.testFailures.clear();
    }
    if (report.build && (report.build.status === 'passed' || report.build.status === 'failed')) this.build = report.build.diagnostics;
    for (const project of report.tests?.projects ?? []) {
      if (project.status === 'passed' || project.status === 'failed' || project.status === 'skipped') {
        this.testFailures.set(project.project, report.tests!.failedTests.filter((test) => test.project === project.project));
      }
    }
    this.status = report.status;
    return true;
  }

  get workspaceFolder(): string | undefined {
    return this.workspace;
  }

  get buildDiagnostics(): readonly Diagnostic[] {
    return this.build;
  }

  /** Failed tests of the latest run of each test project. */
  get failedTests(): FailedTest[] {
    return [...this.testFailures.values()].flat();
  }

  /**
   * The verdict to show after `report` (already applied): its status, except that it is not
   * passed or skipped while a test still fails.
   */
  verdict(report: VerificationReport): VerificationStatus {
    if (inconclusive.has(report.status) || this.status === undefined) return report.status;
    if ((this.status === 'passed' || this.status === 'skipped') && this.failedTests.length > 0) return 'failed';
    return this.status;
  }
}
