// `sharpclaw tool NAME --input JSON`: runs any registered tool exactly as an agent would, through
// the engine's Session and runTool(), on the resident host an earlier call left running (or one it
// starts; engine/host/residentHost.ts), so a call on a loaded solution does not load it again.
import { bundledServerDll } from '../../../engine/host/hostLaunch';
import { ResidentHostTransport } from '../../../engine/host/residentHost';
import { Session } from '../../../engine/session';
import { interruptedLines } from '../../../engine/tools/edits/renderEdits';
import { findTool, allTools } from '../../../engine/tools/registry';
import { ToolError } from '../../../engine/errors';
import { checkMessageSize } from '../../../engine/input/inputLimits';
import type { CliCommand } from '../commands';
import { describeLoadProgress, describeProgressStep } from '../../../engine/host/hostState';
import { exitCodeFor, printFailure, printSuccess } from '../output';

export const toolCommand: CliCommand = {
  name: 'tool',
  usage: 'sharpclaw tool NAME --input JSON [options]',
  summary: `run a tool: ${allTools.map((tool) => tool.name).join(', ')}`,
  options: { input: { type: 'string' } },
  async run(values, positionals, globals) {
    const name = positionals[0];
    const tool = name ? findTool(name) : undefined;
    if (!tool) {
      const error = new ToolError('invalid_request', `${name ? `Unknown tool "${name}"` : 'Name a tool'}. Valid tools: ${allTools.map((t) => t.name).join(', ')}.`);
      printFailure(globals.outputFormat, 'tool', error);
      return exitCodeFor(error);
    }
    let raw: unknown = {};
    if (typeof values.input === 'string') {
      try {
        checkMessageSize('--input', values.input);
        raw = JSON.parse(values.input);
      } catch (error) {
        const invalid = error instanceof ToolError ? error : new ToolError('invalid_request', `--input is not valid JSON: ${(error as Error).message}`);
        printFailure(globals.outputFormat, `tool ${tool.name}`, invalid);
        return exitCodeFor(invalid);
      }
    }
    const session = new Session({
      surface: 'cli',
      workspaceFolder: () => globals.cwd,
      permissions: globals.permissions,
      transport: new ResidentHostTransport({ serverDll: bundledServerDll() }),
      progress: (_tool, message, percent) => process.stderr.write(`${message}${percent === undefined ? '' : ` ${percent}%`}\n`),
    });
    // A killed host's unfinished apply, found when this command's host started: said before the answer.
    session.onDidRecoverInterruptedEdits((edits) => process.stderr.write(`${edits.flatMap(interruptedLines).join('\n')}\n`));
    session.host.onLoadProgress((p) => process.stderr.write(`${describeLoadProgress(p)} (${describeProgressStep(p)})\n`));
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once('SIGINT', onSigint);
    try {
      const outcome = await session.runTool(tool, raw, controller.signal);
      if (outcome.ok) {
        printSuccess(globals.outputFormat, `tool ${tool.name}`, outcome.structured ?? null, outcome.text);
        return 0;
      }
      printFailure(globals.outputFormat, `tool ${tool.name}`, outcome.error);
      return exitCodeFor(outcome.error);
    } finally {
      process.off('SIGINT', onSigint);
      await session.close();
      session.dispose();
    }
  },
};
