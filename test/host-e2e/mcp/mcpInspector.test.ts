// `sharpclaw mcp` through an independent client: the MCP Inspector's CLI
// (@modelcontextprotocol/inspector, installed by the test bed outside the repository) starts
// the bundled server over stdio, lists its tools and calls navigate on a restored copy of
// fixtures/Calculator with the real Roslyn host, and gets a typed error back as isError.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanUpCopies, cliPath, copyFixture, tempStateRoot } from '../support';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<{ ensureMcpInspector(): string }>;

interface InspectorRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function inspector(launcher: string, workspace: string, stateDir: string, args: string[]): Promise<InspectorRun> {
  return new Promise((resolve) => {
    // The inspector starts the server with a few variables of its own environment (HOME, PATH, …) and those
    // given with -e: without -e the server kept its state in the person's own state folder.
    const child = spawn(process.execPath, [launcher, '--cli', '-e', `SHARPCLAW_STATE_DIR=${stateDir}`, process.execPath, cliPath, 'mcp', '--cwd', workspace, '--allow-evaluation', ...args], {
      cwd: workspace,
      env: { ...process.env, MCP_CATALOG_PATH: path.join(stateDir, 'inspector-catalog.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function toolText(run: InspectorRun): string {
  assert.equal(run.code, 0, `the inspector failed:\n${run.stdout}\n${run.stderr}`);
  const result = JSON.parse(run.stdout) as { content: Array<{ type: string; text: string }>; isError?: boolean };
  assert.notEqual(result.isError, true, run.stdout);
  assert.deepEqual(result.content.map((part) => part.type), ['text']);
  return result.content[0]!.text;
}

describe('sharpclaw mcp through the MCP Inspector CLI (an independent client)', function () {
  this.timeout(600_000);
  let launcher: string;
  let calculator: string;
  let stateDir: string;

  before(async () => {
    launcher = (await importEsm(path.join(repoRoot, 'scripts', 'testbed', 'install.mjs'))).ensureMcpInspector();
    calculator = copyFixture('Calculator', 'Calculator.slnx');
    stateDir = tempStateRoot();
  });

  after(async () => {
    await cleanUpCopies();
  });

  it('lists the tools with their input schemas', async () => {
    const run = await inspector(launcher, calculator, stateDir, ['--method', 'tools/list']);
    assert.equal(run.code, 0, run.stderr);
    const { tools } = JSON.parse(run.stdout) as { tools: Array<{ name: string; inputSchema: { type: string; properties: Record<string, unknown> } }> };
    const names = tools.map((tool) => tool.name);
    for (const name of ['diagnostics', 'navigate', 'bulk_navigate', 'symbols', 'edit', 'lsp', 'dotnet_solution_inspect', 'verify_workspace']) {
      assert.ok(names.includes(name), `${name} is listed (listed: ${names.join(', ')})`);
    }
    const navigate = tools.find((tool) => tool.name === 'navigate')!;
    assert.equal(navigate.inputSchema.type, 'object');
    assert.ok('action' in navigate.inputSchema.properties && 'symbol' in navigate.inputSchema.properties);
  });

  it('calls navigate and gets its text as the one content', async () => {
    // (That the text is what `sharpclaw tool` prints for the same answer: test/unit/recordedAnswers.test.ts.)
    const references = toolText(await inspector(launcher, calculator, stateDir, ['--method', 'tools/call', '--tool-name', 'navigate', '--tool-arg', 'action=references', '--tool-arg', 'symbol=Calculator.Divide']));
    assert.match(references, /^src\/Calculator\.App\/Program\.cs \d+:\d+/m, 'Program.cs calls Divide');
    // The server the inspector started kept the workspace's state in the test's state folder, not the person's.
    const workspaces = path.join(stateDir, 'workspaces');
    const kept = fs.existsSync(workspaces) ? fs.readdirSync(workspaces).map((key) => fs.readFileSync(path.join(workspaces, key, 'workspace.txt'), 'utf8').trim()) : [];
    assert.deepEqual(kept, [calculator], `the state folder ${stateDir} keeps the workspace's state`);
  });

  it('an unknown argument comes back as isError with the typed error naming the valid ones', async () => {
    const run = await inspector(launcher, calculator, stateDir, ['--method', 'tools/call', '--tool-name', 'navigate', '--tool-arg', 'action=definition', '--tool-arg', 'name=Calculator.Add']);
    // The inspector prints the result, then exits 5 and says on stderr that the tool returned isError.
    assert.equal(run.code, 5, run.stderr);
    assert.match(run.stderr, /tool_is_error/);
    const result = JSON.parse(run.stdout) as { content: Array<{ text: string }>; isError?: boolean };
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, /^error invalid_request: unknown argument "name"; .*Valid arguments: action, symbol, /);
  });
});
