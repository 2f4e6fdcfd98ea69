// sharpclaw.verification.afterAgentEdits (off by default): for agents whose turns SharpClaw does
// not own (Copilot's agent mode), the affected verification runs once their edits to C# files
// have settled. Only edits the person did not type count (editOrigin.ts says how far VS Code lets
// us tell), and edits of a running @sharpclaw turn never do (that turn checks itself). It listens
// to VS Code's document events, not the file system (the spec allows no file watchers), and
// builds from disk: a changed file still unsaved holds the check back until it is saved.
import * as vscode from 'vscode';
import { isThePersonsChange, isVerifiableFile } from './editOrigin';

export interface AfterAgentEditsOptions {
  /** The resolved settings (VS Code's and the .sharpclaw/settings.jsonc files), read when an agent edit arrives: live. */
  settings(): { afterAgentEdits: boolean; afterAgentEditsDelaySeconds: number } | undefined;
  /** Runs the affected verification of these absolute files (the permission policy still asks). */
  verify(changedFiles: string[]): Promise<unknown>;
  /** True while an @sharpclaw turn records its own edits. */
  ownTurnRunning(): boolean;
  log: { info(message: string): void };
}

export class AfterAgentEditsVerifier implements vscode.Disposable {
  /** Files an agent changed since the last check started. */
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly options: AfterAgentEditsOptions) {
    this.disposables = [
      vscode.workspace.onDidChangeTextDocument((event) => this.onChange(event)),
      vscode.workspace.onDidSaveTextDocument((document) => {
        if (this.pending.has(document.uri.fsPath)) this.schedule();
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('sharpclaw.verification.afterAgentEdits') && !this.enabled()) this.reset();
      }),
    ];
  }

  private onChange(event: vscode.TextDocumentChangeEvent): void {
    if (event.contentChanges.length === 0 || event.document.uri.scheme !== 'file' || !isVerifiableFile(event.document.uri.fsPath)) return;
    if (this.options.ownTurnRunning() || !vscode.workspace.getWorkspaceFolder(event.document.uri)) return;
    const editor = vscode.window.activeTextEditor;
    const shown = editor && editor.document === event.document ? editor.selections.flatMap((selection) => [selection.active, selection.anchor]) : undefined;
    const persons = isThePersonsChange({
      changes: event.contentChanges.map((change) => ({ range: change.range, text: change.text })),
      isUndoOrRedo: event.reason !== undefined,
      activeEditorCursors: shown,
    });
    if (persons) return;
    // The settings are read only now, for an agent's edit: typing never reads a file.
    const settings = this.options.settings();
    if (settings?.afterAgentEdits !== true) return;
    this.pending.add(event.document.uri.fsPath);
    this.schedule(settings.afterAgentEditsDelaySeconds);
  }

  /** (Re)starts the settle timer: the check runs once no agent edit arrived for the delay. */
  private schedule(delaySeconds = this.options.settings()?.afterAgentEditsDelaySeconds ?? 10): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.settled(), delaySeconds * 1000);
  }

  private async settled(): Promise<void> {
    this.timer = undefined;
    if (this.pending.size === 0 || !this.enabled()) return;
    // A check is under way: the edits since wait for it, then settle again.
    if (this.running) {
      await this.running;
      this.schedule();
      return;
    }
    const unsaved = [...this.pending].filter((file) => vscode.workspace.textDocuments.some((document) => document.uri.fsPath === file && document.isDirty));
    if (unsaved.length > 0) {
      this.options.log.info(`Verify after agent edits waits for ${unsaved.map((file) => vscode.workspace.asRelativePath(file)).join(', ')} to be saved (verification builds what is on disk).`);
      return; // onDidSaveTextDocument schedules again
    }
    const files = [...this.pending];
    this.pending.clear();
    this.options.log.info(`Agent edits settled in ${files.map((file) => vscode.workspace.asRelativePath(file)).join(', ')}: verifying what they affect (sharpclaw.verification.afterAgentEdits).`);
    this.running = this.options.verify(files).then(
      () => undefined,
      () => undefined,
    );
    try {
      await this.running;
    } finally {
      this.running = undefined;
    }
  }

  private enabled(): boolean {
    return this.options.settings()?.afterAgentEdits === true;
  }

  private reset(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }

  dispose(): void {
    this.reset();
    for (const disposable of this.disposables) disposable.dispose();
  }
}
