// The typed verification report: what every surface returns (CLI JSON `data`, the
// verify_workspace tool, the VS Code commands and the sidebar). Plain JSON, described by zod.
import { z } from 'zod';

export const scopes = ['build', 'tests', 'all', 'affected'] as const;
export const VerificationScopeSchema = z.enum(scopes);
export type VerificationScope = z.infer<typeof VerificationScopeSchema>;

export const VerificationStatusSchema = z.enum([
  /** Everything that ran passed. */
  'passed',
  /** A build or test failed (including a missing or malformed expected TRX). */
  'failed',
  /** Nothing to verify: no .NET target, or no changes for `affected`. `reason` says which. */
  'skipped',
  /** An SDK, restored assets, a runtime or (tests scope) a build output is missing. */
  'missingPrerequisites',
  /** A process or the lock wait hit the requested timeout. */
  'timedOut',
  /** The caller cancelled. */
  'cancelled',
  /** The permission policy refused to let project code run; nothing was started. */
  'denied',
]);
export type VerificationStatus = z.infer<typeof VerificationStatusSchema>;

export const DiagnosticSchema = z.object({
  severity: z.enum(['error', 'warning']),
  code: z.string().nullable(),
  message: z.string(),
  /** Absolute path, or the tool that reported it (e.g. MSBUILD, CSC) when there is no file. */
  file: z.string().nullable(),
  line: z.number().int().nullable(),
  column: z.number().int().nullable(),
  endLine: z.number().int().nullable(),
  endColumn: z.number().int().nullable(),
  project: z.string().nullable(),
  /** Target frameworks whose builds reported it, when the line named one. */
  frameworks: z.array(z.string()),
});
export type Diagnostic = z.infer<typeof DiagnosticSchema>;

export const LogSchema = z.object({ text: z.string(), truncated: z.boolean(), totalBytes: z.number().int() });

export const StepSchema = z.object({
  kind: z.enum(['sdk', 'evaluate', 'restore', 'build', 'test']),
  /** Workspace-relative project or target the step worked on. */
  target: z.string(),
  commandLine: z.string(),
  cwd: z.string(),
  startedAt: z.string(),
  durationMs: z.number().int(),
  outcome: z.enum(['exited', 'timedOut', 'cancelled', 'failedToStart']),
  exitCode: z.number().int().nullable(),
  log: LogSchema,
});
export type Step = z.infer<typeof StepSchema>;

export const PrerequisiteSchema = z.object({
  kind: z.enum(['sdk', 'assets', 'runtime', 'buildOutput', 'git']),
  message: z.string(),
  /** What to run to provide it, when there is a command. */
  command: z.string().nullable(),
  project: z.string().nullable(),
});
export type Prerequisite = z.infer<typeof PrerequisiteSchema>;

export const SelectedProjectSchema = z.object({
  /** Workspace-relative project file. */
  path: z.string(),
  name: z.string(),
  isTestProject: z.boolean(),
  /** What made it a test project: IsTestProject, IsTestingPlatformApplication or the Microsoft.NET.Test.Sdk reference. */
  testProjectSource: z.enum(['IsTestProject', 'IsTestingPlatformApplication', 'Microsoft.NET.Test.Sdk']).nullable(),
  targetFrameworks: z.array(z.string()),
  /** Why it was selected (affected scope: the changed file it owns, or the project it depends on). */
  reasons: z.array(z.string()),
});
export type SelectedProject = z.infer<typeof SelectedProjectSchema>;

export const ChangeSchema = z.object({
  path: z.string(),
  kind: z.enum(['modified', 'added', 'deleted', 'renamed', 'unknown']),
});
export type Change = z.infer<typeof ChangeSchema>;

export const SelectionSchema = z.object({
  /** True when every project of the target was selected. */
  wholeTarget: z.boolean(),
  reason: z.string(),
  /** Affected scope: where the change list came from. */
  changeSource: z.enum(['request', 'git', 'none']).nullable(),
  changes: z.array(ChangeSchema),
  projects: z.array(SelectedProjectSchema),
  evaluation: z.object({ projects: z.number().int(), evaluated: z.number().int(), cached: z.number().int(), durationMs: z.number().int() }).nullable(),
});
export type Selection = z.infer<typeof SelectionSchema>;

export const BuildSectionSchema = z.object({
  status: z.enum(['passed', 'failed', 'notRun', 'timedOut', 'cancelled', 'missingPrerequisites']),
  reason: z.string().nullable(),
  errors: z.number().int(),
  warnings: z.number().int(),
  diagnostics: z.array(DiagnosticSchema),
  /** Diagnostics beyond the report's bound that were counted but not listed. */
  omittedDiagnostics: z.number().int(),
  /**
   * Compiles ("Project (tfm)") whose warnings the report cannot vouch for: output built outside
   * SharpClaw that MSBuild found up to date (compileMemory.ts). Absent in reports before issue 39.
   */
  warningsUnknownFor: z.array(z.string()).optional(),
});
export type BuildSection = z.infer<typeof BuildSectionSchema>;

export const TestCountersSchema = z.object({
  total: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  /** Inconclusive, NotRunnable, Pending, Warning, InProgress. */
  other: z.number().int(),
});
export type TestCounters = z.infer<typeof TestCountersSchema>;

export const FailedTestSchema = z.object({
  name: z.string(),
  outcome: z.string(),
  message: z.string(),
  stackTrace: z.string(),
  /** Workspace-relative test project. */
  project: z.string(),
  /** The explicit or single target framework; `unknown` for a multi-targeted run without an explicit framework. */
  framework: z.string(),
});
export type FailedTest = z.infer<typeof FailedTestSchema>;

export const TestRunnerSchema = z.enum([
  /** Classic `dotnet test` with a VSTest logger. */
  'vstest',
  /** global.json `test.runner` Microsoft.Testing.Platform: `dotnet test --project`, the app's own TRX option. */
  'mtp',
  /** An MTP app (TestingPlatformDotnetTestSupport) in a VSTest-mode workspace: its options after `--`. */
  'mtpUnderVstest',
]);
export type TestRunner = z.infer<typeof TestRunnerSchema>;

export const TestProjectResultSchema = z.object({
  project: z.string(),
  runner: TestRunnerSchema,
  /** The TRX option the MTP app offered (`--report-trx`, `--report-xunit-trx`); null for VSTest or when it offers none. */
  trxOption: z.string().nullable(),
  status: z.enum(['passed', 'failed', 'skipped', 'timedOut', 'cancelled', 'missingPrerequisites', 'notRun']),
  reason: z.string().nullable(),
  frameworks: z.array(z.string()),
  /** TRX files read for this project, each counted once. */
  trxFiles: z.array(z.string()),
  counters: TestCountersSchema,
  /** Set when the results are incomplete, saying why (its test host stopped before the run finished); absent when the run finished. */
  incomplete: z.string().optional(),
});
export type TestProjectResult = z.infer<typeof TestProjectResultSchema>;

export const TestSectionSchema = z.object({
  status: z.enum(['passed', 'failed', 'skipped', 'notRun', 'timedOut', 'cancelled', 'missingPrerequisites']),
  reason: z.string().nullable(),
  counters: TestCountersSchema,
  projects: z.array(TestProjectResultSchema),
  failedTests: z.array(FailedTestSchema),
  omittedFailedTests: z.number().int(),
  /** Where the TRX files of this run were written. */
  resultsDirectory: z.string().nullable(),
  /** --tests reached: which tests ran and why (testSelection.ts's testSelectionLine); absent for --tests all. */
  selection: z.string().nullable().optional(),
});
export type TestSection = z.infer<typeof TestSectionSchema>;

export const VerificationReportSchema = z.object({
  schemaVersion: z.literal(1),
  status: VerificationStatusSchema,
  /** One line for people and agents. */
  summary: z.string(),
  scope: VerificationScopeSchema,
  workspaceFolder: z.string(),
  /** Workspace-relative solution or project; null when none was found. */
  target: z.string().nullable(),
  configuration: z.string(),
  framework: z.string().nullable(),
  restore: z.boolean(),
  timeoutSeconds: z.number(),
  startedAt: z.string(),
  finishedAt: z.string(),
  durationMs: z.number().int(),
  /** How long this run waited for another verification of the same workspace. */
  lockWaitMs: z.number().int(),
  selection: SelectionSchema.nullable(),
  prerequisites: z.array(PrerequisiteSchema),
  steps: z.array(StepSchema),
  build: BuildSectionSchema.nullable(),
  tests: TestSectionSchema.nullable(),
  /** Things a reader should know that did not decide the status (lock recovered, interference...). */
  notes: z.array(z.string()),
});
export type VerificationReport = z.infer<typeof VerificationReportSchema>;

export const emptyCounters = (): TestCounters => ({ total: 0, passed: 0, failed: 0, skipped: 0, other: 0 });

export function addCounters(a: TestCounters, b: TestCounters): TestCounters {
  return { total: a.total + b.total, passed: a.passed + b.passed, failed: a.failed + b.failed, skipped: a.skipped + b.skipped, other: a.other + b.other };
}

/** Statuses that make the CLI exit non-zero and the tool report a failed check. */
export function isFailingStatus(status: VerificationStatus): boolean {
  return status !== 'passed' && status !== 'skipped';
}
