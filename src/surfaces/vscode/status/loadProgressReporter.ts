// Shows the host's load progress: percent in the status bar and, once the load has run for a
// moment, a cancellable notification (a quick load opens none: see quietProgress.ts for why).
// Cancelling cancels the requests waiting for the load.
import * as vscode from 'vscode';
import type { LoadProgress } from '../../../engine/host/hostCallbacks';
import { quietProgressDelayMs } from '../messages/quietProgress';

export class LoadProgressReporter implements vscode.Disposable {
  private active: { report: (p: LoadProgress) => void; finish: () => void } | undefined;
  private finishTimer: NodeJS.Timeout | undefined;
  private openTimer: NodeJS.Timeout | undefined;
  private readonly changed = new vscode.EventEmitter<LoadProgress | undefined>();
  /** Fires with each progress step, and with undefined when the load ends. */
  readonly onDidChange = this.changed.event;
  last: LoadProgress | undefined;

  constructor(private readonly cancel: () => void) {}

  report(progress: LoadProgress): void {
    this.last = progress;
    this.changed.fire(progress);
    if (this.active) this.active.report(progress);
    else if (!this.openTimer) {
      this.openTimer = setTimeout(() => {
        this.openTimer = undefined;
        if (!this.last) return;
        this.active = this.open(this.last);
        this.active.report(this.last);
      }, quietProgressDelayMs);
    }
    // The load is over when the last project is done, or when no step arrives for a while.
    if (this.finishTimer) clearTimeout(this.finishTimer);
    this.finishTimer = setTimeout(() => this.finish(), progress.projectIndex >= progress.projectCount ? 300 : 60_000);
  }

  finish(): void {
    if (this.openTimer) clearTimeout(this.openTimer);
    this.openTimer = undefined;
    this.active?.finish();
    this.active = undefined;
    this.last = undefined;
    this.changed.fire(undefined);
  }

  dispose(): void {
    this.finish();
    this.changed.dispose();
  }

  private open(first: LoadProgress): { report: (p: LoadProgress) => void; finish: () => void } {
    let report: (p: LoadProgress) => void = () => undefined;
    let finish: () => void = () => undefined;
    let lastPercent = 0;
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `SharpClaw: ${first.kind === 'index' ? 'building the' : 'loading'} ${first.target}`, cancellable: true },
      (progress, token) =>
        new Promise<void>((resolve) => {
          token.onCancellationRequested(() => {
            this.cancel();
            resolve();
          });
          finish = resolve;
          report = (p) => {
            const percent = p.percent ?? Math.round((100 * p.projectIndex) / Math.max(1, p.projectCount));
            progress.report({ message: p.kind === 'index' ? p.currentProject : `${p.projectIndex}/${p.projectCount} ${p.currentProject}`, increment: Math.max(0, percent - lastPercent) });
            lastPercent = percent;
          };
        }),
    );
    return { report: (p) => report(p), finish: () => finish() };
  }
}
