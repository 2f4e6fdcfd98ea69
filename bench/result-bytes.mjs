// `node bench/result-bytes.mjs --cwd DIR --calls CALLS.json [--tools default|all] [--out FILE]`: what an
// agent is really sent. Through the official MCP client SDK over stdio against `node dist/cli.js mcp`
// (evaluation allowed), it lists the tools and makes each call of CALLS.json, then prints one table
// row per call: the bytes of the whole CallToolResult as JSON (text, structuredContent, metadata: what a
// client may hand its model), of the text alone and of structuredContent alone, and whether the result
// carries an absolute path outside DIR. CALLS.json is `[{ "label": "...", "tool": "navigate",
// "arguments": { ... } }]`, tool names as MCP serves them. Needs `npm run build`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
}

const cwd = path.resolve(option('cwd', '.'));
const callsFile = option('calls');
if (!callsFile) throw new Error('--calls CALLS.json is required');
const calls = JSON.parse(fs.readFileSync(callsFile, 'utf8'));
const tools = option('tools', 'default');
const out = option('out');

const bytes = (value) => Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value));

/** An absolute path in the result that is not below the workspace (a home folder, a package cache). */
function outsidePath(serialized) {
  const unescaped = serialized.replace(/\\\\/g, '\\');
  const candidates = unescaped.match(/(?:\/(?:home|root|Users|tmp|usr|opt|var)\/[^\s"',;)]*)|(?:[A-Za-z]:\\[^\s"',;)]*)/g) ?? [];
  return candidates.find((candidate) => !candidate.startsWith(cwd)) ?? '';
}

const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sharpclaw-bytes-'));
const transport = new StdioClientTransport({
  command: process.execPath,
  // A long wait: the bench measures answers, and a cold load plus its first compile can pass the default 45 s.
  args: [path.join(repoRoot, 'dist', 'cli.js'), 'mcp', '--cwd', cwd, '--allow-evaluation', '--tools', tools, '--load-wait', '3600'],
  env: { ...process.env, SHARPCLAW_STATE_DIR: stateDir },
  stderr: 'ignore',
});
const client = new Client({ name: 'sharpclaw-result-bytes', version: '1.0.0' });
await client.connect(transport);
const rows = [];
try {
  const list = await client.listTools();
  rows.push({ label: `tools/list (${tools}, ${list.tools.length} tools)`, whole: bytes(list), text: null, structured: null, outside: outsidePath(JSON.stringify(list)) });
  for (const call of calls) {
    const result = await client.callTool({ name: call.tool, arguments: call.arguments }, { timeout: 600_000 });
    const text = result.content.filter((part) => part.type === 'text').map((part) => part.text).join('');
    const whole = JSON.stringify(result);
    rows.push({ label: call.label, whole: bytes(whole), text: bytes(text), structured: result.structuredContent ? bytes(result.structuredContent) : 0, outside: outsidePath(whole), error: result.isError ? text.split('\n')[0] : undefined });
  }
} finally {
  await client.close();
  fs.rmSync(stateDir, { recursive: true, force: true });
}

const number = (value) => (value === null ? '' : `${value.toLocaleString('en-US')} B`);
const lines = [`_${path.basename(cwd)}; ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; node dist/cli.js mcp --tools ${tools}._`, '', '| call | whole result | text alone | structuredContent | path outside the workspace |', '| --- | ---: | ---: | ---: | --- |'];
for (const row of rows) lines.push(`| ${row.label}${row.error ? ` (${row.error})` : ''} | ${number(row.whole)} | ${number(row.text)} | ${number(row.structured)} | ${row.outside ? `\`${row.outside.slice(0, 60)}\`` : 'none'} |`);
const table = lines.join('\n');
process.stdout.write(`${table}\n`);
if (out) fs.writeFileSync(out, `${JSON.stringify({ cwd: path.basename(cwd), tools, rows }, null, 2)}\n`);
