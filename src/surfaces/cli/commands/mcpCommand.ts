// `sharpclaw mcp`: the MCP server over stdio (src/surfaces/mcp/). One Session for the server's life
// (the host starts on the first call, stays warm, the supervisor restarts it after a crash), stopped
// when stdin closes. Permissions are the flags of the person who configured the server, or the
// same grants in their ~/.sharpclaw/settings.jsonc; else the person is asked through a client that
// supports elicitation (stdin carries the protocol, so nobody can be prompted on a terminal). No
// argument or workspace file can grant.
// stdout carries protocol messages only; progress and logs go to stderr.
// `sharpclaw mcp setup --client NAME [--print]` writes (or prints) another client's configuration
// for this server instead (engine/config/mcpSetup.ts; read and written by mcpSetupWrite.ts).
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { bundledServerDll } from '../../../engine/host/hostLaunch';
import { StdioHostTransport } from '../../../engine/host/hostProcess';
import { Session } from '../../../engine/session';
import { interruptedLines } from '../../../engine/tools/edits/renderEdits';
import { ToolError } from '../../../engine/errors';
import { mcpServerFactory } from '../../mcp/mcpServer';
import { mcpToolSets, mcpToolsFor, type McpToolSet } from '../../mcp/mcpTools';
import { McpWorkspace } from '../../mcp/mcpWorkspace';
import { setupClients, setupPlan, type SetupClient } from '../../../engine/config/mcpSetup';
import { prepareSetup, writeSetup } from '../../../engine/config/mcpSetupWrite';
import { readMcpPermissionSettings } from '../../mcp/mcpPermissionSettings';
import { McpClientLink, McpPermissionPolicy } from '../../mcp/mcpPermissionPolicy';
import { McpApprovalRounds } from '../../mcp/mcpInputRequired';
import { BoundedStdioServerTransport } from '../../mcp/mcpStdioTransport';
import { defaultLoadWaitSeconds } from '../../mcp/mcpLoadWait';
import { CliPermissionPolicy } from '../cliPermissionPolicy';
import type { CliCommand } from '../commands';
import { describeLoadProgress, describeProgressStep } from '../../../engine/host/hostState';
import { cliVersion } from '../version';

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

export const mcpCommand: CliCommand = {
  name: 'mcp',
  usage:
    'sharpclaw mcp [--cwd DIR] [--allow-evaluation] [--allow-write] [--allow-shell] [--tools default|all] [--load-wait SECONDS]\n' +
    `  sharpclaw mcp setup --client ${setupClients.join('|')} [--print] [--cwd PROJECT] [--allow-evaluation] [--allow-write] [--allow-shell] [--tools default|all]`,
  summary:
    'serve the tools over MCP on stdio (protocol 2025-11-25 and 2026-07-28); the flags grant what the server may do.\n' +
    "      setup: add this server, with those flags, to a client's configuration (merged; other servers stay), or --print it",
  options: { tools: { type: 'string' }, client: { type: 'string' }, print: { type: 'boolean' }, 'load-wait': { type: 'string' } },
  async run(values, positionals, globals) {
    const set = ((values.tools as string | undefined) ?? 'default') as McpToolSet;
    if (!mcpToolSets.includes(set)) throw new ToolError('invalid_request', `--tools must be ${mcpToolSets.join(' or ')}, not "${set}".`);
    const loadWaitSeconds = loadWaitOf(values['load-wait'] as string | undefined);
    if (positionals[0] === 'setup' && positionals.length === 1) return setup(values, globals.cwd, values.cwd !== undefined, set);
    if (positionals.length > 0) throw new ToolError('invalid_request', `unknown argument "${positionals.join(' ')}". sharpclaw mcp takes options only, or "setup".`);
    if (values.client !== undefined || values.print !== undefined) throw new ToolError('invalid_request', '--client and --print belong to "sharpclaw mcp setup".');
    // The flags, or the same grants in the user's ~/.sharpclaw/settings.jsonc (never the workspace's).
    const settings = readMcpPermissionSettings();
    const granted = new CliPermissionPolicy({
      mode: (values['permission-mode'] as 'read-only' | 'workspace-write' | undefined) ?? 'workspace-write',
      allowEvaluation: values['allow-evaluation'] === true || settings.allowEvaluation,
      allowShell: values['allow-shell'] === true || settings.allowShell,
      allowWrite: values['allow-write'] === true || settings.allowWrite,
      cannotAsk: 'nobody could be asked through this MCP client (that needs elicitation)',
    });
    // Where nothing was granted, the person is asked through a client that supports elicitation.
    const link = new McpClientLink();
    const permissions = new McpPermissionPolicy(granted, link, log);
    const rounds = new McpApprovalRounds(link);
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
    session.host.onLoadProgress((p) => log(`${describeLoadProgress(p)} (${describeProgressStep(p)})`));
    // The host's handshake now, beside the client's own, not on the first call (the process itself started before
    // this bundle loaded: hostPrestart.ts). A start that fails is the first call's error, as it would have been.
    session.host.ensureStarted().catch(() => undefined);

    const version = cliVersion();
    // Messages over the input bound are refused one by one (mcpStdioTransport.ts); the SDK's own reader would close the connection.
    const handle = serveStdio(mcpServerFactory({ session, tools: mcpToolsFor(set), version, workspace, link, rounds, loadWaitSeconds }), {
      transport: new BoundedStdioServerTransport(),
      onerror: (error) => log(`mcp: ${error.message}`),
    });
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

/** --load-wait: whole seconds, 1 to 3600 (default mcpLoadWait.ts's). */
function loadWaitOf(value: string | undefined): number {
  if (value === undefined) return defaultLoadWaitSeconds;
  const seconds = Number(value);
  if (!/^\d+$/.test(value.trim()) || seconds < 1 || seconds > 3600) throw new ToolError('invalid_request', `--load-wait must be whole seconds from 1 to 3600, not "${value}".`);
  return seconds;
}

/** `sharpclaw mcp setup`: merges (or prints) the chosen client's configuration; writes that one file only, or refuses (exit 2) and writes nothing. */
function setup(values: Record<string, unknown>, project: string, cwdGiven: boolean, tools: McpToolSet): number {
  const client = values.client as string | undefined;
  if (!client || !(setupClients as readonly string[]).includes(client)) {
    throw new ToolError('invalid_request', `${client ? `--client "${client}" is unknown` : '--client is required'}: ${setupClients.join(', ')}.`);
  }
  const plan = setupPlan(client as SetupClient, { allowEvaluation: values['allow-evaluation'] === true, allowWrite: values['allow-write'] === true, allowShell: values['allow-shell'] === true, tools, ...(cwdGiven ? { workspace: project } : {}) }, { project });
  if (values.print === true) {
    process.stdout.write(`# ${plan.file}\n${plan.snippet}`);
    return 0;
  }
  const prepared = prepareSetup(plan);
  writeSetup(prepared);
  process.stdout.write(prepared.unchanged ? `the sharpclaw server in ${plan.file} already has these settings; nothing to write\n` : `${prepared.replaced ? 'updated' : 'added'} the sharpclaw server in ${plan.file}\n`);
  return 0;
}
