// The VS Code face of verification: the commands SharpClaw: Verify Affected / All / Build / Tests
// and the check after agent edits, each a call of the session's one entry (Session.verify) with
// cancellable progress (the session's permission policy, so Restricted Mode denies them), and the
// Problems panel ("SharpClaw" diagnostics from every report the session publishes, verify_workspace's too).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionLog } from '../logging/extensionLog';
import { toAbortSignal } from '../tools/vscodeToolAdapter';
import { isFailingStatus, type Diagnostic, type FailedTest, type VerificationReport, type VerificationScope, type VerificationStatus } from '../../../engine/verification/report';
import { StandingResults } from '../../../engine/verification/standingResults';
import { reportSentence } from '../messages/reportText';
import type { Session } from '../../../engine/session';

export interface VerificationCommandsOptions {
  /** The session: its verify() runs every check, its onDidPublishReport feeds the Problems panel. */
  session: Session;
  log: ExtensionLog;
  workspaceFolder: () => string | undefined;
}

const stackFrame = /\s+in\s+(.+?):line\s+(\d+)\s*$/m;

/** Standing build diagnostics and test failures → Problems panel entries, by file. */
export function reportDiagnostics(report: Pick<VerificationReport, 'workspaceFolder'> & { buildDiagnostics: readonly Diagnostic[]; failedTests: readonly FailedTest[] }): Map<string, vscode.Diagnostic[]> {
  const byFile = new Map<string, vscode.Diagnostic[]>();
  const add = (file: string, diagnostic: vscode.Diagnostic) => {
    const list = byFile.get(file) ?? [];
    list.push(diagnostic);
    byFile.set(file, list);
  };
  for (const d of report.buildDiagnostics) {
    if (!d.file || !path.isAbsolute(d.file)) continue;
    const line = Math.max(0, (d.line ?? 1) - 1);
    const column = Math.max(0, (d.column ?? 1) - 1);
    const range = new vscode.Range(line, column, d.endLine ? d.endLine - 1 : line, d.endColumn ? d.endColumn - 1 : column + 1);
    const diagnostic = new vscode.Diagnostic(range, d.message, d.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
    diagnostic.source = 'SharpClaw';
    if (d.code) diagnostic.code = d.code;
    add(d.file, diagnostic);
  }
  for (const test of report.failedTests) {
    const frame = stackFrame.exec(test.stackTrace);
    const file = frame ? frame[1]! : path.join(report.workspaceFolder, test.project);
    const line = frame ? Math.max(0, Number(frame[2]) - 1) : 0;
    const diagnostic = new vscode.Diagnostic(new vscode.Range(line, 0, line, 1000), `Test failed: ${test.name}: ${test.message.split('\n')[0] ?? ''}`, vscode.DiagnosticSeverity.Error);
    diagnostic.source = 'SharpClaw';
    diagnostic.code = 'test';
    add(file, diagnostic);
  }
  return byFile;
}

export interface VerificationFeature {
  disposables: vscode.Disposable[];
  /** Handlers of sharpclaw.verifyAffected / verifyAll / verifyBuild / verifyTests, by command id (extension.ts registers the ids from package.json). */
  commands: Record<string, () => Promise<VerificationReport | undefined>>;
  /** The affected check of sharpclaw.verification.afterAgentEdits: automatic (its timeout), in the status bar, a toast only when it fails. */
  verifyAfterAgentEdits(changedFiles: string[]): Promise<VerificationReport | undefined>;
  /** The verdict for the status bar after a report: failed while a test of an earlier run still fails. */
  verdict(report: VerificationReport): VerificationStatus;
}

export function createVerificationFeature(options: VerificationCommandsOptions): VerificationFeature {
  const problems = vscode.languages.createDiagnosticCollection('SharpClaw');
  // Build entries come from the latest build; test entries stay until their tests run again.
  const standing = new StandingResults();
  const subscription = vscode.Disposable.from(options.session.onDidPublishReport((report) => {
    if (!standing.apply(report)) return;
    problems.clear();
    const entries = reportDiagnostics({ workspaceFolder: report.workspaceFolder, buildDiagnostics: standing.buildDiagnostics, failedTests: standing.failedTests });
    for (const [file, diagnostics] of entries) problems.set(vscode.Uri.file(file), diagnostics);
    options.log.info(`Verification ${report.scope} of ${report.target ?? report.workspaceFolder}: ${report.summary}`);
  }));

  /** `automatic`: the check after other agents' edits, with the automatic request rule and quieter progress. */
  const run = async (scope: VerificationScope, title: string, automatic?: { changedFiles: string[] }): Promise<VerificationReport | undefined> => {
    const workspaceFolder = options.workspaceFolder();
    if (!workspaceFolder) {
      void vscode.window.showErrorMessage('SharpClaw: open a folder that contains a .NET solution or project first.');
      return undefined;
    }
    return vscode.window.withProgress(
      { location: automatic ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification, title: `SharpClaw: ${title}`, cancellable: true },
      async (progress, token) => {
        const abort = toAbortSignal(token);
        try {
          // The command names the scope; timeout and restore come from the settings someone set, else the
          // explicit defaults. The automatic check takes the automatic rule (its 600 s default timeout).
          const changedFiles = automatic?.changedFiles.map((file) => path.relative(workspaceFolder, file));
          const report = await options.session.verify(changedFiles ? { scope, changedFiles } : { scope }, {
            requestedBy: `SharpClaw: ${title}`,
            signal: abort.signal,
            progress: (message) => progress.report({ message }),
            automatic: automatic !== undefined,
          });
          const show = isFailingStatus(report.status) ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
          // One sentence for the person; the whole report is in the sidebar. A passing automatic check stays quiet.
          if (!automatic || isFailingStatus(report.status)) void show(`SharpClaw: ${reportSentence(report)}`, 'Show Details').then((choice) => choice && vscode.commands.executeCommand('sharpclaw.openSidebar'));
          return report;
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          options.log.error(`SharpClaw: ${title} failed: ${message}`);
          void vscode.window.showErrorMessage(`SharpClaw: ${title}: ${message}`);
          return undefined;
        } finally {
          abort.dispose();
        }
      },
    );
  };

  return {
    disposables: [problems, subscription],
    verdict: (report) => standing.verdict(report),
    verifyAfterAgentEdits: (changedFiles) => run('affected', 'Verify after agent edits', { changedFiles }),
    commands: {
      'sharpclaw.verifyAffected': () => run('affected', 'Verify Affected'),
      'sharpclaw.verifyAll': () => run('all', 'Verify All'),
      'sharpclaw.verifyBuild': () => run('build', 'Verify Build'),
      'sharpclaw.verifyTests': () => run('tests', 'Verify Tests'),
    },
  };
}
