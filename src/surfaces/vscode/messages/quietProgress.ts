// Progress for steps that are usually quick (finding a symbol, planning a rename on a warm host).
// A notification opened for each of them would cost the person the toast that matters: VS Code
// drops every toast after the third within 800 ms (its spam protection), so the verdict or the
// "nothing was written" message that follows would only reach the notification centre. The
// step shows in the status bar at once and becomes a cancellable notification only when it is slow.
import * as vscode from 'vscode';
import { toAbortSignal } from '../tools/vscodeToolAdapter';

/** How long a step may run before it earns a notification. */
export const quietProgressDelayMs = 1_500;

export async function withQuietProgress<T>(title: string, work: (signal: AbortSignal) => Promise<T>, delayMs = quietProgressDelayMs): Promise<T> {
  const controller = new AbortController();
  const running = work(controller.signal);
  const done = running.then(
    () => undefined,
    () => undefined,
  );
  void vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title }, () => done);
  // Cleared as soon as the work settles, so it fires only for slow work.
  const timer = setTimeout(() => {
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_progress, token) => {
      const abort = toAbortSignal(token);
      abort.signal.addEventListener('abort', () => controller.abort(), { once: true });
      return done.finally(() => abort.dispose());
    });
  }, delayMs);
  try {
    return await running;
  } finally {
    clearTimeout(timer);
  }
}
