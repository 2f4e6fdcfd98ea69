// `sharpclaw mcp`: the MCP server over stdio (src/surfaces/mcp/). One Session for the server's life
// (the host starts on the first call, stays warm, the supervisor restarts it after a crash), stopped
// when stdin closes. Permissions are the flags of the person who configured the server: stdin
// carries the protocol, so nobody can be prompted, and no argument or workspace file can grant.
// stdout carries protocol messages only; progress and logs go to stderr.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { StdioHostTransport, bundledServerDll } from '../../../engine/host/hostProcess';
import { Session } from '../../../engine/session';
import { interruptedLines } from '../../../engine/tools/edits/renderEdits';
import { ToolError } from '../../../engine/errors';
import { mcpServerFactory } from '../../mcp/mcpServer';
import { mcpToolSets, mcpToolsFor, type McpToolSet } from '../../mcp/mcpTools';
import { McpWorkspace } from '../../mcp/mcpWorkspace';
import { CliPermissionPolicy } from '../cliPermissionPolicy';
import type { CliCommand } from '../commands';

declare const SHARPCLAW_VERSION: string | undefined;

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

export const mcpCommand: CliCommand = {
  name: 'mcp',
  usage: 'sharpclaw mcp [--cwd DIR] [--allow-evaluation] [--allow-write] [--allow-shell] [--tools default|all]',
  summary: 'serve the tools over MCP on stdio (protocol 2025-11-25 and 2026-07-28); the flags grant what the server may do',
  options: { tools: { type: 'string' } },
  async run(values, _positionals, globals) {
    const set = ((values.tools as string | undefined) ?? 'default') as McpToolSet;
    if (!mcpToolSets.includes(set)) throw new ToolError('invalid_request', `--tools must be ${mcpToolSets.join(' or ')}, not "${set}".`);
    const permissions = new CliPermissionPolicy({
      mode: (values['permission-mode'] as 'read-only' | 'workspace-write' | undefined) ?? 'workspace-write',
      allowEvaluation: values['allow-evaluation'] === true,
      allowShell: values['allow-shell'] === true,
      allowWrite: values['allow-write'] === true,
      cannotAsk: 'the MCP server cannot ask (its stdin carries the protocol)',
    });
    // --cwd, else the client's first root (chosen on the first call), else the start folder.
    const workspace = new McpWorkspace(values.cwd === undefined ? undefined : globals.cwd, globals.cwd, log);
    const session = new Session({
      surface: 'mcp',
      workspaceFolder: () => workspace.folder,
      permissions,
      transport: new StdioHostTransport({ serverDll: bundledServerDll(), clientName: 'sharpclaw-mcp' }),
      progress: (tool, message, percent) => log(`${tool.name}: ${message}${percent === undefined ? '' : ` ${percent}%`}`),
      log: { info: log, warn: log, error: log },
    });
    session.onDidRecoverInterruptedEdits((edits) => log(edits.flatMap(interruptedLines).join('\n')));
    session.host.onLoadProgress((p) => log(`loading ${p.target} ${p.percent ?? ''}${p.percent === null ? '' : '%'} (${p.projectIndex}/${p.projectCount} ${p.currentProject})`));

    const version = typeof SHARPCLAW_VERSION === 'string' ? SHARPCLAW_VERSION : '0.0.0';
    const handle = serveStdio(mcpServerFactory({ session, tools: mcpToolsFor(set), version, workspace }), { onerror: (error) => log(`mcp: ${error.message}`) });
    log(`sharpclaw mcp: serving ${mcpToolsFor(set).length} tools for ${workspace.source === 'cwd-flag' ? workspace.folder : `the client's first root, else ${workspace.folder}`} on stdio`);

    await new Promise<void>((resolve) => {
      process.stdin.once('end', resolve);
      process.stdin.once('close', resolve);
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await handle.close().catch(() => undefined);
    await session.close().catch(() => undefined);
    session.dispose();
    return 0;
  },
};
