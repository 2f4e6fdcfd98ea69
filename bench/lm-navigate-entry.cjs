// extensionTestsPath entry for the cross-surface navigate bench (bench/mcp-navigate.mjs): inside a
// real VS Code extension host, answers the bench's navigate call through vscode.lm.invokeTool —
// the path Copilot's agent mode takes — once per request file the bench drops into
// SHARPCLAW_BENCH_CHANNEL (go-N), writing done-N.json with the elapsed time and the answer, until
// the bench drops "stop". The MSBuild approval is answered through the test API (Allow once).
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');

const channel = process.env.SHARPCLAW_BENCH_CHANNEL;
const input = JSON.parse(process.env.SHARPCLAW_BENCH_INPUT ?? '{}');

async function invoke() {
  const started = performance.now();
  const result = await vscode.lm.invokeTool('csharp_navigate', { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
  return { ms: performance.now() - started, text };
}

const exists = (name) => fs.existsSync(path.join(channel, name));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

exports.run = async function run() {
  if (!channel) throw new Error('SHARPCLAW_BENCH_CHANNEL is not set');
  // Provisioning: the fixture needs its restore assets (SharpClaw never restores by itself).
  execFileSync('dotnet', ['restore', 'Calculator.slnx', '-nologo'], { cwd: vscode.workspace.workspaceFolders[0].uri.fsPath, stdio: 'ignore' });
  const api = await vscode.extensions.getExtension('sharpclaw.sharpclaw').activate();
  // The cold call: the load asks for approval first.
  const cold = invoke();
  (await api.nextPermissionDialog()).answer('Allow once');
  await cold;
  await invoke(); // warm, not measured
  fs.writeFileSync(path.join(channel, 'ready'), vscode.version);
  for (let i = 0; !exists('stop'); ) {
    if (!exists(`go-${i}`)) {
      await sleep(2);
      continue;
    }
    fs.writeFileSync(path.join(channel, `done-${i}.json`), JSON.stringify(await invoke()));
    i++;
  }
};
