import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveVerification, resolveVerifyRequest } from '../../../src/engine/config/settings';
import { automaticVerifyRequest } from '../../../src/engine/turns/automaticVerification';
import { TurnRecorder } from '../../../src/engine/turns/turnRecorder';
import { parseVerifyCommandLine, splitCommandLine } from '../../../src/engine/verification/request';

// The spec's example, verbatim.
const specExample = '{"verification":{"enabled":true,"scope":"affected","runAfterMutatingTurn":true,"maxRepairIterations":2,"allowRestore":false,"timeoutSeconds":600}}';

describe('settings of the automatic check and /verify', () => {
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

  it('the spec\'s JSON example in the workspace settings.jsonc enables it; request metadata wins over workspace over user', () => {
    fs.mkdirSync(path.join(workspace, '.sharpclaw'));
    fs.writeFileSync(path.join(workspace, '.sharpclaw', 'settings.jsonc'), specExample);
    fs.mkdirSync(path.join(home, '.sharpclaw'));
    fs.writeFileSync(path.join(home, '.sharpclaw', 'settings.jsonc'), '{"verification":{"enabled":false,"scope":"build","maxRepairIterations":5}}');
    const fromFiles = resolveVerification({ workspaceFolder: workspace, home }).values;
    assert.deepEqual(fromFiles, { enabled: true, scope: 'affected', runAfterMutatingTurn: true, maxRepairIterations: 2, allowRestore: false, timeoutSeconds: 600, testSelection: 'all', afterAgentEdits: false, afterAgentEditsDelaySeconds: 10 });
    const withMetadata = resolveVerification({ workspaceFolder: workspace, home, metadata: { 'sharpclaw.verification.maxRepairIterations': 0, 'sharpclaw.verification.scope': 'all', 'sharpclaw.verification.timeoutSeconds': 30, 'sharpclaw.verification.allowRestore': true, 'sharpclaw.verification.enabled': false } }).values;
    assert.deepEqual(withMetadata, { enabled: false, scope: 'all', runAfterMutatingTurn: true, maxRepairIterations: 0, allowRestore: true, timeoutSeconds: 30, testSelection: 'all', afterAgentEdits: false, afterAgentEditsDelaySeconds: 10 });
  });

  it('an invalid budget or timeout fails with the key, the value and the valid range', () => {
    assert.throws(() => resolveVerification({ workspaceFolder: workspace, home, metadata: { 'sharpclaw.verification.maxRepairIterations': 6 } }), /sharpclaw\.verification\.maxRepairIterations = 6 in request metadata: expected a whole number from 0 to 5/);
    assert.throws(() => resolveVerification({ workspaceFolder: workspace, home, metadata: { 'sharpclaw.verification.timeoutSeconds': 0 } }), /sharpclaw\.verification\.timeoutSeconds = 0 in request metadata: expected a whole number from 1 to 3600/);
  });

  it('automatic checks default to 600 s; explicit /verify keeps 120 s unless told otherwise', () => {
    const settings = resolveVerification({ workspaceFolder: workspace, home });
    const recorder = new TurnRecorder('t', workspace);
    recorder.record({ id: '1', file: path.join(workspace, 'src', 'A.cs'), tool: 'csharp_edit', before: 'a', after: 'b' });
    assert.equal(automaticVerifyRequest(settings.values, recorder).timeoutSeconds, 600);
    assert.deepEqual(automaticVerifyRequest(settings.values, recorder).changedFiles, [path.join('src', 'A.cs')]);
    assert.equal(resolveVerifyRequest(parseVerifyCommandLine([]), settings).timeoutSeconds, 120);
    assert.equal(resolveVerifyRequest(parseVerifyCommandLine(['--timeout', '45']), settings).timeoutSeconds, 45);
  });

  it('/verify parses with the CLI\'s verify options and errors', () => {
    assert.deepEqual(parseVerifyCommandLine(splitCommandLine('--scope affected --target "My App.slnx" --configuration Release --framework net10.0 --restore --timeout 60')), {
      scope: 'affected', target: 'My App.slnx', configuration: 'Release', framework: 'net10.0', restore: true, timeoutSeconds: 60,
    });
    assert.throws(() => parseVerifyCommandLine(['--scope', 'everything']), /--scope must be one of build, tests, all, affected, not "everything"/);
    assert.throws(() => parseVerifyCommandLine(['--timeout', '0']), /--timeout must be a whole number of seconds from 1 to 3600/);
    assert.throws(() => parseVerifyCommandLine(['--bogus']), /Unknown option '--bogus'/);
  });
});
