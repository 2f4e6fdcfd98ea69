// Verification reports as the runner writes them, for the loop's unit tests: the loop is tested
// against the report shape, the verifier itself against real builds in the host-e2e layer.
import { VerificationReportSchema, type Diagnostic, type FailedTest, type VerificationReport, type VerificationStatus } from '../../../src/engine/verification/report';

export function diagnostic(file: string, line: number, code: string, message: string): Diagnostic {
  return { severity: 'error', code, message, file, line, column: 1, endLine: null, endColumn: null, project: 'App', frameworks: [] };
}

export function failedTest(name: string, message: string): FailedTest {
  return { name, outcome: 'Failed', message, stackTrace: `at ${name}() in Tests.cs:line 12`, project: 'Tests/Tests.csproj', framework: 'net10.0' };
}

export function report(status: VerificationStatus, options: { workspace?: string; errors?: Diagnostic[]; failedTests?: FailedTest[]; summary?: string } = {}): VerificationReport {
  const errors = options.errors ?? [];
  return VerificationReportSchema.parse({
    schemaVersion: 1,
    status,
    summary: options.summary ?? `verification ${status}`,
    scope: 'affected',
    workspaceFolder: options.workspace ?? '/ws',
    target: 'App.slnx',
    configuration: 'Debug',
    framework: null,
    restore: false,
    timeoutSeconds: 600,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:01.000Z',
    durationMs: 1000,
    lockWaitMs: 0,
    selection: null,
    prerequisites: [],
    steps: [],
    build: { status: errors.length > 0 ? 'failed' : 'passed', reason: null, errors: errors.length, warnings: 0, diagnostics: errors, omittedDiagnostics: 0 },
    tests: options.failedTests
      ? { status: 'failed', reason: null, counters: { total: 3, passed: 3 - options.failedTests.length, failed: options.failedTests.length, skipped: 0, other: 0 }, projects: [], failedTests: options.failedTests, omittedFailedTests: 0, resultsDirectory: null }
      : null,
    notes: [],
  });
}
