// The status bar item: host state at a glance; a click opens the SharpClaw sidebar.
import * as vscode from 'vscode';
import { describeHostState, describeLoadProgress, describeProgressStep, type HostState } from '../../../engine/host/hostState';
import type { LoadProgress } from '../../../engine/host/hostCallbacks';
import { statusWord } from '../messages/reportText';

export function statusBarText(state: HostState): string {
  switch (state.kind) {
    case 'stopped':
      return '$(circle-outline) SharpClaw';
    case 'starting':
      return '$(loading~spin) SharpClaw';
    case 'ready':
      return '$(check) SharpClaw';
    case 'crashed':
      return '$(warning) SharpClaw: host crashed';
    case 'failed':
      return '$(error) SharpClaw: host down';
  }
}

export class HostStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor() {
    this.item = vscode.window.createStatusBarItem('sharpclaw.host', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'SharpClaw';
    this.item.command = 'sharpclaw.openSidebar';
    this.update({ kind: 'stopped' });
    this.item.show();
  }

  /** What the item shows now (read by the integration tests). */
  get text(): string {
    return this.item.text;
  }

  private state: HostState = { kind: 'stopped' };
  private verdict: string | undefined;

  /** Adds the last verification verdict, e.g. "verify: failed". */
  showVerdict(status: string): void {
    this.verdict = status;
    this.update(this.state);
  }

  /** Shows "loading 40%" while the host loads a solution, then the host state again. */
  showLoadProgress(progress: LoadProgress | undefined): void {
    if (!progress) {
      this.update(this.state);
      return;
    }
    const percent = progress.percent ?? Math.round((100 * progress.projectIndex) / Math.max(1, progress.projectCount));
    this.item.text = `$(loading~spin) SharpClaw: ${progress.kind === 'index' ? 'indexing' : 'loading'} ${percent}%`;
    this.item.tooltip = `SharpClaw: ${describeLoadProgress(progress)} (${describeProgressStep(progress)}).`;
  }

  update(state: HostState): void {
    this.state = state;
    const verdictIcon = this.verdict === 'passed' ? '$(pass)' : this.verdict === 'skipped' ? '$(circle-slash)' : '$(error)';
    const verdict = this.verdict ? statusWord(this.verdict) : undefined;
    this.item.text = statusBarText(state) + (verdict ? ` · ${verdictIcon} verify: ${verdict}` : '');
    this.item.tooltip = `SharpClaw — ${describeHostState(state)}${verdict ? ` Last verification: ${verdict}.` : ''} Click to open the SharpClaw sidebar.`;
    this.item.backgroundColor =
      state.kind === 'failed'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : state.kind === 'crashed'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
  }

  dispose(): void {
    this.item.dispose();
  }
}
