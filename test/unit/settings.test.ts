import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveVerification, resolveVerifyRequest } from '../../src/engine/config/settings';
import { loadDiagnosticsDefaultSeverity } from '../../src/engine/config/diagnosticsSettings';
import { defaultVerificationSettings, resolveVerificationSettings, SettingsValidationError } from '../../src/engine/config/verificationSettings';

describe('sharpclaw.verification settings', () => {
  it('default to off, affected, 2 repairs, no restore, 600 s', () => {
    assert.deepEqual(defaultVerificationSettings, { enabled: false, scope: 'affected', runAfterMutatingTurn: true, maxRepairIterations: 2, allowRestore: false, timeoutSeconds: 600, testSelection: 'all', afterAgentEdits: false, afterAgentEditsDelaySeconds: 10 });
  });

  it('let workspace values override user values, key by key', () => {
    const settings = resolveVerificationSettings([
      { source: 'user', values: { enabled: true, timeoutSeconds: 100, scope: 'all' } },
      { source: 'workspace', values: { timeoutSeconds: 30 } },
    ]);
    assert.equal(settings.enabled, true);
    assert.equal(settings.scope, 'all');
    assert.equal(settings.timeoutSeconds, 30);
  });

  for (const [key, value, valid] of [
    ['maxRepairIterations', 6, 'a whole number from 0 to 5'],
    ['timeoutSeconds', 0, 'a whole number from 1 to 3600'],
    ['timeoutSeconds', 1.5, 'a whole number from 1 to 3600'],
    ['scope', 'everything', 'one of build, tests, all, affected'],
    ['allowRestore', 'yes', 'true or false'],
    ['afterAgentEdits', 1, 'true or false'],
    ['afterAgentEditsDelaySeconds', 0, 'a whole number from 1 to 600'],
  ] as const) {
    it(`reject ${key} = ${JSON.stringify(value)} naming the key, the value and the valid range`, () => {
      assert.throws(() => resolveVerificationSettings([{ source: 'workspace settings', values: { [key]: value } }]), (error: unknown) => {
        assert.ok(error instanceof SettingsValidationError);
        assert.equal(error.message, `Invalid setting sharpclaw.verification.${key} = ${JSON.stringify(value)} in workspace settings: expected ${valid}.`);
        return true;
      });
    });
  }

  it('reject an unknown key instead of ignoring a typo', () => {
    assert.throws(() => resolveVerificationSettings([{ source: 'user', values: { timeoutSecs: 5 } }]), /verification\.timeoutSecs .*expected one of the keys enabled, scope/);
  });
});

describe('settings files and the one resolver (engine/config/settings.ts)', () => {
  let home: string;
  let workspace: string;
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  };
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-home-'));
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-ws-'));
  });
  afterEach(() => {
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(workspace, { recursive: true, force: true });
  });

  it('read ~/.sharpclaw/settings.jsonc, then the workspace file, with comments and trailing commas', () => {
    write(path.join(home, '.sharpclaw', 'settings.jsonc'), '// mine\n{ "verification": { "enabled": true, "timeoutSeconds": 900, }, }');
    write(path.join(workspace, '.sharpclaw', 'settings.jsonc'), '{ /* team */ "verification": { "timeoutSeconds": 120 } }');
    const settings = resolveVerification({ workspaceFolder: workspace, home }).values;
    assert.equal(settings.enabled, true);
    assert.equal(settings.timeoutSeconds, 120);
  });

  it('use the defaults when neither file exists', () => {
    assert.deepEqual(resolveVerification({ workspaceFolder: workspace, home }).values, defaultVerificationSettings);
  });

  it('name the file and the problem when a file is not valid JSON', () => {
    write(path.join(workspace, '.sharpclaw', 'settings.jsonc'), '{ "verification": { "enabled": tru } }');
    assert.throws(() => resolveVerification({ workspaceFolder: workspace, home }).values, (error: unknown) => {
      assert.ok(error instanceof SettingsValidationError);
      assert.ok(error.message.includes(path.join(workspace, '.sharpclaw', 'settings.jsonc')));
      assert.match(error.message, /valid JSON with comments \(\w+ at line 1\)/);
      return true;
    });
  });

  it('name the file, key and range for an invalid value', () => {
    write(path.join(workspace, '.sharpclaw', 'settings.jsonc'), '{ "verification": { "maxRepairIterations": 9 } }');
    assert.throws(() => resolveVerification({ workspaceFolder: workspace, home }).values, /sharpclaw\.verification\.maxRepairIterations = 9 in .*settings\.jsonc: expected a whole number from 0 to 5/);
  });

  it('layers user JSONC < workspace JSONC < editor (user, workspace, folder) < request metadata, key by key', () => {
    write(path.join(home, '.sharpclaw', 'settings.jsonc'), '{"verification": {"scope": "tests", "timeoutSeconds": 100, "allowRestore": true, "maxRepairIterations": 1}}');
    write(path.join(workspace, '.sharpclaw', 'settings.jsonc'), '// workspace\n{"verification": {"timeoutSeconds": 200, "maxRepairIterations": 3,}}');
    const resolved = resolveVerification({
      workspaceFolder: workspace,
      home,
      editorLayers: [
        { source: 'user settings', values: { enabled: true } },
        { source: 'workspace settings', values: { maxRepairIterations: 4, scope: undefined } },
        { source: 'folder settings', values: { timeoutSeconds: 300 } },
      ],
      metadata: { 'sharpclaw.verification.timeoutSeconds': 400, 'other.key': 'ignored' },
    });
    assert.deepEqual(resolved.values, { enabled: true, scope: 'tests', runAfterMutatingTurn: true, maxRepairIterations: 4, allowRestore: true, timeoutSeconds: 400, testSelection: 'all', afterAgentEdits: false, afterAgentEditsDelaySeconds: 10 });
    assert.deepEqual([...resolved.explicit].sort(), ['allowRestore', 'enabled', 'maxRepairIterations', 'scope', 'timeoutSeconds']);
  });

  it('an explicit verify call: its arguments, else a setting someone set, else all / restore off / 120 s (not the 600 s of automatic checks)', () => {
    const none = resolveVerification({ workspaceFolder: workspace, home });
    assert.deepEqual(none.explicit.size, 0);
    assert.deepEqual(resolveVerifyRequest({}, none), { scope: 'all', configuration: 'Debug', restore: false, timeoutSeconds: 120, testSelection: 'all' });
    write(path.join(workspace, '.sharpclaw', 'settings.jsonc'), '{"verification": {"scope": "build", "timeoutSeconds": 30}}');
    // allowRestore from the person's own file: a workspace's cannot turn restore on (the next test).
    write(path.join(home, '.sharpclaw', 'settings.jsonc'), '{"verification": {"allowRestore": true}}');
    const set = resolveVerification({ workspaceFolder: workspace, home });
    assert.deepEqual(resolveVerifyRequest({}, set), { scope: 'build', configuration: 'Debug', restore: true, timeoutSeconds: 30, testSelection: 'all' });
    assert.deepEqual(resolveVerifyRequest({ scope: 'tests', restore: false, timeoutSeconds: 9, configuration: 'Release' }, set), { scope: 'tests', configuration: 'Release', restore: false, timeoutSeconds: 9, testSelection: 'all' });
  });

  it('restore is allowed only by the person\'s layers: a workspace file or VS Code workspace setting cannot turn it on, only off', () => {
    write(path.join(workspace, '.sharpclaw', 'settings.jsonc'), '{"verification": {"allowRestore": true, "scope": "build"}}');
    const fromWorkspace = resolveVerification({ workspaceFolder: workspace, home });
    assert.equal(fromWorkspace.values.allowRestore, false);
    assert.ok(!fromWorkspace.explicit.has('allowRestore'));
    assert.deepEqual(resolveVerifyRequest({}, fromWorkspace), { scope: 'build', configuration: 'Debug', restore: false, timeoutSeconds: 120, testSelection: 'all' });
    assert.deepEqual(fromWorkspace.notes, [`${path.join(workspace, '.sharpclaw', 'settings.jsonc')} sets verification.allowRestore, which only your own settings (~/.sharpclaw/settings.jsonc, VS Code user settings) or --restore can: restore stays off.`]);
    const fromEditorWorkspace = resolveVerification({ workspaceFolder: workspace, home, editorLayers: [{ source: 'workspace settings', owner: 'workspace', values: { allowRestore: true } }] });
    assert.equal(fromEditorWorkspace.values.allowRestore, false);
    // The person's own file, VS Code user settings and request metadata may; a workspace file's false still wins over the user file's true.
    write(path.join(home, '.sharpclaw', 'settings.jsonc'), '{"verification": {"allowRestore": true}}');
    assert.equal(resolveVerification({ workspaceFolder: workspace, home }).values.allowRestore, true);
    write(path.join(home, '.sharpclaw', 'settings.jsonc'), '{}');
    assert.equal(resolveVerification({ workspaceFolder: workspace, home, editorLayers: [{ source: 'user settings', owner: 'person', values: { allowRestore: true } }] }).values.allowRestore, true);
    assert.equal(resolveVerification({ workspaceFolder: workspace, home, metadata: { 'sharpclaw.verification.allowRestore': true } }).values.allowRestore, true);
    write(path.join(workspace, '.sharpclaw', 'settings.jsonc'), '{"verification": {"allowRestore": false}}');
    write(path.join(home, '.sharpclaw', 'settings.jsonc'), '{"verification": {"allowRestore": true}}');
    assert.equal(resolveVerification({ workspaceFolder: workspace, home }).values.allowRestore, false);
    // An invalid value is still an error wherever it is.
    write(path.join(workspace, '.sharpclaw', 'settings.jsonc'), '{"verification": {"allowRestore": "yes"}}');
    assert.throws(() => resolveVerification({ workspaceFolder: workspace, home }), /sharpclaw\.verification\.allowRestore = "yes" in .*settings\.jsonc: expected true or false/);
  });

  it('an invalid value in the request metadata names its source', () => {
    assert.throws(() => resolveVerification({ workspaceFolder: workspace, home, metadata: { 'sharpclaw.verification.scope': 'everything' } }), /sharpclaw\.verification\.scope = "everything" in request metadata: expected one of build, tests, all, affected/);
  });
});

describe('diagnostics.defaultSeverity in the settings files', () => {
  let home: string;
  let workspace: string;
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-home-'));
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-ws-'));
  });
  afterEach(() => {
    fs.rmSync(home, { recursive: true, force: true });
    fs.rmSync(workspace, { recursive: true, force: true });
  });
  const write = (folder: string, text: string) => {
    fs.mkdirSync(path.join(folder, '.sharpclaw'), { recursive: true });
    fs.writeFileSync(path.join(folder, '.sharpclaw', 'settings.jsonc'), text);
  };

  it('defaults to warning, and the workspace file wins over the user file', () => {
    assert.equal(loadDiagnosticsDefaultSeverity(workspace, home), 'warning');
    write(home, '{ "diagnostics": { "defaultSeverity": "information" } }');
    assert.equal(loadDiagnosticsDefaultSeverity(workspace, home), 'information');
    write(workspace, '// the project wants errors only\n{ "diagnostics": { "defaultSeverity": "error" }, "verification": {} }');
    assert.equal(loadDiagnosticsDefaultSeverity(workspace, home), 'error');
  });

  it('names the key, the value and what is valid', () => {
    write(workspace, '{ "diagnostics": { "defaultSeverity": "fatal" } }');
    assert.throws(() => loadDiagnosticsDefaultSeverity(workspace, home), (error: unknown) => {
      assert.ok(error instanceof SettingsValidationError);
      assert.match(error.message, /diagnostics\.defaultSeverity = "fatal" in .*settings\.jsonc: expected one of error, warning, information, hint\./);
      return true;
    });
    write(workspace, '{ "diagnostics": { "severity": "error" } }');
    assert.throws(() => loadDiagnosticsDefaultSeverity(workspace, home), /diagnostics\.severity = "error" .*expected one of the keys defaultSeverity/);
  });
});
