// How long an MCP tool call waits for a workspace load. MCP clients give up on a request after a
// fixed time (60 s in the SDK's own client and in Codex), and a large solution's cold load takes
// longer: a read tool's call still waiting on the host's start or on a load when the wait runs out
// answers `error loading: …` with the start's or the load's progress instead, and both go on in the
// host, so a later call finds them further along or done. The wait counts from the request's arrival,
// so the host's start-up is inside it and the answer comes within the wait the person set, as the
// client counts it. A search meeting an index build that would pass the wait answers before it from
// the files indexed so far, and says so (answerTimeOf); the build goes on. Calls of tools that write
// or build keep waiting: answering before they finish could tell the agent nothing happened when
// something did.
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

/** The answer to a call still waiting on a host that has not finished starting. */
function stillStarting(arrivedAt: number): ToolOutcome {
  const seconds = Math.round((Date.now() - arrivedAt) / 1000);
  const error = new ToolError(
    'loading',
    `The SharpClaw host is still starting (${seconds} s since this call arrived); the workspace load comes next. The start goes on; call again shortly (lsp with action=status shows its progress).`,
  );
  return { ok: false, error, text: error.render() };
}

/**
 * Runs `call`, answering `error loading` instead when it is a read still waiting on the host's start or
 * on a load `waitSeconds` after `arrivedAt` (Date.now() when the request arrived; default: now).
 */
export async function withinLoadWait(
  definition: AnyToolDefinition,
  args: unknown,
  session: Pick<HostSessionControl, 'loading' | 'state'>,
  waitSeconds: number,
  call: () => Promise<ToolOutcome>,
  arrivedAt: number = Date.now(),
): Promise<ToolOutcome> {
  const running = call();
  if (!answersLoading(definition, args)) return running;
  let timer: NodeJS.Timeout | undefined;
  const stillLoading = new Promise<ToolOutcome>((resolve) => {
    const check = (): void => {
      const progress = session.loading();
      if (!progress) {
        // A host still starting is what the call waits on; a ready host with no load may be asking the person, or computing: keep waiting.
        if (session.state().kind === 'starting') {
          resolve(stillStarting(arrivedAt));
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
    return await Promise.race([running, stillLoading]);
  } finally {
    clearTimeout(timer);
  }
}
