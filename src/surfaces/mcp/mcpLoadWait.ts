// How long an MCP tool call waits for its answer. MCP clients give up on a request after a fixed
// time (60 s in the SDK's own client and in Codex), and a large solution's cold load — or the first
// compile a question needs after it — takes longer: a read tool's call still running when the wait
// runs out answers `error loading` instead, with the host's start, the load's progress, or that the
// host is still working on the answer; the work goes on in the host, and the same call asked again
// joins it (mcpRunningReads.ts). The wait counts from the request's arrival, so the host's start-up
// is inside it and the answer comes within the wait the person set, as the client counts it. A search
// meeting an index build that would pass the wait answers before it from the files indexed so far,
// and says so (answerTimeOf); the build goes on. Two kinds of call keep waiting: one whose permission
// question is with the person (the answer comes once they answer), and a call of a tool that writes
// or builds — answering before it finishes could tell the agent nothing happened when something did.
import { ToolError } from '../../engine/errors';
import { describeLoadProgress, describeProgressStep } from '../../engine/host/hostState';
import type { HostSessionControl, AnyToolDefinition } from '../../engine/tools/toolDefinition';
import type { ToolOutcome } from '../../engine/tools/runTool';
import { parseToolInput } from '../../engine/tools/toolInput';

/** The default wait, from the request's arrival: 15 s under the 60 s request timeout of the SDK's client and of Codex. */
export const defaultLoadWaitSeconds = 45;

/**
 * How long before the wait runs out a search must answer from the files indexed so far: the host stops its index
 * build after the chunk (about half a second of parsing) during which that time passes, and the answer still has
 * to cross the wire and be rendered before the wait answers `error loading` instead.
 */
export const answerMarginMs = 5_000;

/** When a call that arrived at `arrivedAt` must have its answer: what it gives the host as `answerBy` (searches only). */
export function answerTimeOf(arrivedAt: number, waitSeconds: number): number {
  return arrivedAt + Math.max(0, waitSeconds * 1000 - answerMarginMs);
}

/** How often, after the wait, a still-running call checks whether it is waiting on a load. */
const recheckMs = 500;

/** Whether a call may answer `loading`: a read that can wait on a load (invalid arguments answer themselves). */
function answersLoading(definition: AnyToolDefinition, args: unknown): boolean {
  if (definition.effects !== 'read') return false;
  if (!definition.mayLoad) return true;
  try {
    return definition.mayLoad(parseToolInput(definition, args));
  } catch {
    return true;
  }
}

/** What the wait reads to decide: the host's lifecycle, its load, and whether the person is being asked. */
export interface CallWaitState extends Pick<HostSessionControl, 'loading' | 'state'> {
  asking(): boolean;
}

/** The answer to a call still waiting on a host that has not finished starting. */
function stillStarting(arrivedAt: number): ToolOutcome {
  const seconds = Math.round((Date.now() - arrivedAt) / 1000);
  const error = new ToolError(
    'loading',
    `The SharpClaw host is still starting (${seconds} s since this call arrived); the workspace load comes next. The start goes on; call again shortly (lsp with action=status shows its progress).`,
  );
  return { ok: false, error, text: error.render() };
}

/** The answer to a read still running in a ready host that reports no load step and asks nobody: building its workspace or computing. */
function stillWorking(arrivedAt: number): ToolOutcome {
  const seconds = Math.round((Date.now() - arrivedAt) / 1000);
  const error = new ToolError(
    'loading',
    `SharpClaw is still working on this answer (${seconds} s since this call arrived: a first question builds and compiles what it needs). The work goes on in the host; make the same call again shortly and it picks up that work instead of starting over.`,
  );
  return { ok: false, error, text: error.render() };
}

/**
 * Runs `call`, answering `error loading` instead when it is a read still running `waitSeconds` after
 * `arrivedAt` (Date.now() when the request arrived; default: now) — unless its permission question is
 * with the person. `left` receives the call's own answer-to-be when the caller was answered before it.
 */
export async function withinLoadWait(
  definition: AnyToolDefinition,
  args: unknown,
  session: CallWaitState,
  waitSeconds: number,
  call: () => Promise<ToolOutcome>,
  arrivedAt: number = Date.now(),
  left?: (running: Promise<ToolOutcome>) => void,
): Promise<ToolOutcome> {
  const running = call();
  if (!answersLoading(definition, args)) return running;
  let timer: NodeJS.Timeout | undefined;
  const stillLoading = new Promise<ToolOutcome>((resolve) => {
    const check = (): void => {
      const progress = session.loading();
      if (!progress) {
        // A host still starting is what the call waits on; a ready host with no load is computing the answer,
        // unless the person is being asked (then the answer comes once they answer: keep waiting).
        const state = session.state().kind;
        if (state === 'starting') {
          resolve(stillStarting(arrivedAt));
          return;
        }
        if (state === 'ready' && !session.asking()) {
          resolve(stillWorking(arrivedAt));
          return;
        }
        timer = setTimeout(check, recheckMs);
        return;
      }
      // projectIndex counts the projects Roslyn has reached (the index's file steps); 0 while the solution is still being evaluated.
      const index = progress.kind === 'index';
      const step = progress.projectIndex > 0 ? ` (${describeProgressStep(progress)})` : index ? '' : ' (evaluating the projects)';
      const error = new ToolError(
        'loading',
        index
          ? `SharpClaw is still building the workspace's syntax index: ${describeLoadProgress(progress)}${step}. The build goes on; call again shortly (lsp with action=status shows its progress).`
          : `Roslyn is still loading the workspace: ${describeLoadProgress(progress)}${step}. The load goes on; call again shortly (lsp with action=status shows its progress).`,
      );
      resolve({ ok: false, error, text: error.render() });
    };
    timer = setTimeout(check, Math.max(0, arrivedAt + waitSeconds * 1000 - Date.now()));
  });
  try {
    const first = await Promise.race([running.then((outcome) => ({ outcome, own: true })), stillLoading.then((outcome) => ({ outcome, own: false }))]);
    if (!first.own) left?.(running);
    return first.outcome;
  } finally {
    clearTimeout(timer);
  }
}
