// Load progress as MCP progress notifications: a tool call whose request carries a progressToken
// gets `notifications/progress` for each step of a workspace load it waits on (the percentage when
// Roslyn gives one, else the project count), so the client shows it and, where it resets its
// request timeout on progress, keeps waiting. The MCP spec wants each value to grow: a step that
// does not is not sent.
import type { Disposable, Event } from 'vscode-jsonrpc';
import { describeLoadProgress } from '../../engine/host/hostState';
import type { LoadProgress } from '../../engine/protocol/callbacks';

type Notify = (notification: { method: 'notifications/progress'; params: { progressToken: string | number; progress: number; total?: number; message?: string } }) => Promise<void>;

export function forwardLoadProgress(progressToken: unknown, onLoadProgress: Event<LoadProgress>, notify: Notify): Disposable {
  if (typeof progressToken !== 'string' && typeof progressToken !== 'number') return { dispose: () => undefined };
  let last = -1;
  return onLoadProgress((step) => {
    const [progress, total] = step.percent === null ? [step.projectIndex, step.projectCount] : [step.percent, 100];
    if (progress <= last) return;
    last = progress;
    const message = `${describeLoadProgress(step)}${step.projectIndex > 0 ? ` (${step.currentProject})` : ''}`;
    // A client that went away cannot be told; the call's own answer reports what matters.
    notify({ method: 'notifications/progress', params: { progressToken, progress, ...(total > 0 ? { total } : {}), message } }).catch(() => undefined);
  });
}
