// `sharpclaw tool NAME --input JSON`: runs any registered tool exactly as an agent would.
import { HostProcess, bundledServerDll } from '../../../engine/host/hostProcess';
import type { HostRequester } from '../../../engine/host/hostRequester';
import { findTool, allTools } from '../../../engine/tools/registry';
import type { ToolContext } from '../../../engine/tools/toolDefinition';
import { ToolError, asToolError } from '../../../engine/errors';
import { parseToolInput } from '../../../engine/tools/toolInput';
import type { CliCommand } from '../commands';
import { exitCodeFor, printFailure, printSuccess } from '../output';

/** Starts the host on the first request and stops it when the command ends. */
export class LazyCliHost implements HostRequester {
  private host: Promise<HostProcess> | undefined;

  constructor(private readonly start: () => Promise<HostProcess>) {}

  async request<T>(...args: Parameters<HostRequester['request']>): Promise<T> {
    this.host ??= this.start();
    return (await this.host).request(...(args as [string, unknown, never, AbortSignal?])) as Promise<T>;
  }

  async dispose(): Promise<void> {
    await (await this.host?.catch(() => undefined))?.dispose();
  }
}

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
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once('SIGINT', onSigint);
    const host = new LazyCliHost(() =>
      HostProcess.start({
        serverDll: bundledServerDll(),
        workspaceFolder: globals.cwd,
        permissions: globals.permissions,
        requestedBy: () => tool.name,
        onProgress: (p) => process.stderr.write(`loading ${p.target} ${p.percent ?? ''}${p.percent === null ? '' : '%'} (${p.projectIndex}/${p.projectCount} ${p.currentProject})\n`),
      }),
    );
    const context: ToolContext = {
      workspaceFolder: globals.cwd,
      permissions: globals.permissions,
      host,
      surface: 'cli',
      signal: controller.signal,
      progress: (message, percent) => process.stderr.write(`${message}${percent === undefined ? '' : ` ${percent}%`}\n`),
    };
    try {
      let raw: unknown = {};
      if (typeof values.input === 'string') {
        try {
          raw = JSON.parse(values.input);
        } catch (error) {
          throw new ToolError('invalid_request', `--input is not valid JSON: ${(error as Error).message}`);
        }
      }
      const input = parseToolInput(tool, raw);
      const result = await tool.invoke(input, context);
      printSuccess(globals.outputFormat, `tool ${tool.name}`, result, tool.render(result));
      return 0;
    } catch (error) {
      const typed = asToolError(error);
      printFailure(globals.outputFormat, `tool ${tool.name}`, typed);
      return exitCodeFor(typed);
    } finally {
      process.off('SIGINT', onSigint);
      await host.dispose();
    }
  },
};
