// How long an MCP tool call waits for a workspace load. MCP clients give up on a request after a
// fixed time (60 s in the SDK's own client and in Codex), and a large solution's cold load takes
// longer: a read tool's call still waiting on a load when the wait runs out answers
// `error loading: …` with the load's progress instead, and the load goes on in the host, so a
// later call finds it further along or done. Calls of tools that write or build keep waiting:
// answering before they finish could tell the agent nothing happened when something did.
import { ToolError } from '../../engine/errors';
import { describeLoadProgress, describeProgressStep } from '../../engine/host/hostState';
import type { HostSessionControl, AnyToolDefinition } from '../../engine/tools/toolDefinition';
import type { ToolOutcome } from '../../engine/tools/runTool';
import { parseToolInput } from '../../engine/tools/toolInput';

/** The default wait: under the 60 s request timeout of the SDK's client and of Codex. */
export const defaultLoadWaitSeconds = 45;

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

export async function withinLoadWait(
  definition: AnyToolDefinition,
  args: unknown,
  session: Pick<HostSessionControl, 'loading'>,
  waitSeconds: number,
  call: () => Promise<ToolOutcome>,
): Promise<ToolOutcome> {
  const running = call();
  if (!answersLoading(definition, args)) return running;
  let timer: NodeJS.Timeout | undefined;
  const stillLoading = new Promise<ToolOutcome>((resolve) => {
    const check = (): void => {
      const progress = session.loading();
      if (!progress) {
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
    timer = setTimeout(check, waitSeconds * 1000);
  });
  try {
    return await Promise.race([running, stillLoading]);
  } finally {
    clearTimeout(timer);
  }
}
