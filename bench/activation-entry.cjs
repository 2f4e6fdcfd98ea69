// extensionTestsPath entry for the activation benchmark: measures, inside a real extension
// host, how long SharpClaw's first activation takes (loading the bundle plus activate()).
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');

exports.run = async function run() {
  const ext = vscode.extensions.getExtension('sharpclaw.sharpclaw');
  if (!ext) throw new Error('sharpclaw.sharpclaw is not loaded');
  if (ext.isActive) throw new Error('SharpClaw was already active: the benchmark would measure nothing');
  const started = performance.now();
  const api = await ext.activate();
  const totalMs = performance.now() - started;
  fs.writeFileSync(path.join(process.env.SHARPCLAW_TEST_ARTIFACTS, 'activation.json'), JSON.stringify({ totalMs, activateMs: api.activationMs, vscode: vscode.version }));
};
