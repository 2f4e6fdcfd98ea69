// Writes package.json's contributes.languageModelTools, the tools' activation events and the
// sharpclaw.verification.* settings schemas from their zod definitions (compiled to out/ by tsc). Run after adding or changing a tool.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.test.json'], { cwd: repoRoot, stdio: 'inherit' });
const require = createRequire(import.meta.url);
const { allTools } = require(path.join(repoRoot, 'out', 'src', 'engine', 'tools', 'registry.js'));
const { languageModelToolContributions, toolActivationEvents } = require(path.join(repoRoot, 'out', 'src', 'engine', 'tools', 'manifest.js'));

const { verificationConfigurationProperties } = require(path.join(repoRoot, 'out', 'src', 'engine', 'config', 'verificationSettings.js'));
const file = path.join(repoRoot, 'package.json');
const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
manifest.activationEvents = toolActivationEvents(allTools);
manifest.contributes.languageModelTools = languageModelToolContributions(allTools);
manifest.contributes.configuration.properties = { ...manifest.contributes.configuration.properties, ...verificationConfigurationProperties() };
fs.writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`[manifest] ${allTools.length} language-model tools written to package.json`);
