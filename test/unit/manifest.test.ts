// The extension manifest is product behaviour: what activates us, what Restricted Mode allows,
// what a workspace may configure.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { languageModelToolContributions, toolActivationEvents } from '../../src/engine/tools/manifest';
import { allTools } from '../../src/engine/tools/registry';
import { verificationConfigurationProperties } from '../../src/engine/config/verificationSettings';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));

describe('package.json manifest', () => {
  it('is the SharpClaw extension with a publisher, an icon and categories', () => {
    assert.equal(manifest.name, 'sharpclaw');
    assert.equal(manifest.displayName, 'SharpClaw');
    assert.ok(manifest.publisher);
    assert.ok(manifest.categories.length > 0);
    const icon = fs.readFileSync(path.join(repoRoot, manifest.icon));
    assert.equal(icon.subarray(1, 4).toString('latin1'), 'PNG', 'the marketplace icon must be a PNG');
    assert.ok(icon.readUInt32BE(16) >= 128 && icon.readUInt32BE(20) >= 128, 'the icon should be at least 128×128');
  });

  it('does not present itself as a formatter: no category that VS Code ranks high in Editor: Default Formatter', () => {
    // VS Code lists every extension with code (main/browser) in editor.defaultFormatter's enum; it ranks
    // the ones that register formatters first, then those in these categories (formatActionsMultiple.ts).
    assert.deepEqual(manifest.categories.filter((category: string) => ['Formatters', 'Programming Languages'].includes(category)), []);
    const source = fs.readdirSync(path.join(repoRoot, 'src'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    const registers = source.filter((file) => /register(Document|DocumentRange|OnType)FormattingEditProvider/.test(fs.readFileSync(path.join(repoRoot, 'src', file), 'utf8')));
    assert.deepEqual(registers, [], 'SharpClaw registers no formatter');
  });

  it('targets VS Code 1.100 or older as its minimum', () => {
    const match = /^\^?(\d+)\.(\d+)\./.exec(manifest.engines.vscode);
    assert.ok(match, manifest.engines.vscode);
    assert.ok(Number(match[1]) === 1 && Number(match[2]) <= 100, `engines.vscode ${manifest.engines.vscode} is newer than 1.100`);
    const typesVersion = JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', '@types', 'vscode', 'package.json'), 'utf8')).version as string;
    assert.ok(Number(typesVersion.split('.')[1]) <= Number(match[2]), `@types/vscode ${typesVersion} would allow APIs newer than the engine`);
  });

  it('activates lazily: never on startup or on everything', () => {
    const events: string[] = manifest.activationEvents ?? [];
    assert.ok(!events.includes('*'), 'activationEvents must not contain *');
    assert.ok(!events.includes('onStartupFinished'), 'activationEvents must not contain onStartupFinished');
    assert.ok(!events.some((event) => event.startsWith('workspaceContains')), 'opening a folder must not activate SharpClaw');
  });

  it('declares limited support for untrusted workspaces and restricts the dotnet path', () => {
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
    assert.ok(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('sharpclaw.dotnetPath'));
    assert.equal(manifest.contributes.configuration.properties['sharpclaw.dotnetPath'].scope, 'machine', 'a workspace must not choose which executable runs');
  });

  it('contributes the sidebar, its webview view and titled commands', () => {
    assert.deepEqual(manifest.contributes.viewsContainers.activitybar.map((c: { id: string; title: string }) => [c.id, c.title]), [['sharpclaw', 'SharpClaw']]);
    const views = manifest.contributes.views.sharpclaw as Array<{ id: string; type: string }>;
    assert.ok(views.some((view) => view.id === 'sharpclaw.reportView' && view.type === 'webview'));
    for (const command of manifest.contributes.commands) {
      assert.equal(command.category, 'SharpClaw', command.command);
      assert.ok(command.title.length > 0, command.command);
    }
    assert.ok(fs.existsSync(path.join(repoRoot, manifest.contributes.viewsContainers.activitybar[0].icon)));
  });

  it('implements every contributed command in the core command table', () => {
    const source = fs.readdirSync(path.join(repoRoot, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => fs.readFileSync(path.join(repoRoot, 'src', file), 'utf8'))
      .join('\n');
    for (const command of manifest.contributes.commands) {
      assert.ok(source.includes(`'${command.command}': `), `${command.command} is contributed but has no handler`);
    }
  });
});

describe('generated language-model tool contributions', () => {
  it('match the zod tool definitions (run "npm run generate:manifest" when this fails)', () => {
    assert.deepEqual(manifest.contributes.languageModelTools ?? [], languageModelToolContributions(allTools));
    assert.deepEqual(manifest.activationEvents ?? [], toolActivationEvents(allTools));
  });

  it('describe every tool with an explicit object schema', () => {
    for (const tool of manifest.contributes.languageModelTools ?? []) {
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      assert.ok(tool.modelDescription.length > 40, `${tool.name} needs a real model description`);
    }
  });
});

describe('generated settings schemas', () => {
  it('match the zod verification settings (run "npm run generate:manifest" when this fails)', () => {
    for (const [key, schema] of Object.entries(verificationConfigurationProperties())) {
      assert.deepEqual(manifest.contributes.configuration.properties[key], schema, key);
    }
  });
});
