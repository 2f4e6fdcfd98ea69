// The test-runner rules without dotnet: which projects are test projects, which mode global.json
// selects, which TRX option an app's help offers, what an MTP exit code means, and the command
// lines for each runner.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { classifyTestProject } from '../../../src/engine/verification/projectGraph';
import { dotnetTestMode, helpArguments, mtpExitMeaning, parseMtpSummary, testArguments, trxOptionFrom } from '../../../src/engine/verification/testRunner';

describe('verification: test project classification', () => {
  const classify = (isTestProject: string, testingPlatformApplication: boolean, packageReferences: string[] = []) =>
    classifyTestProject({ isTestProject, testingPlatformApplication, packageReferences });

  it('IsTestProject first: true is a test project, an explicit false wins over everything else', () => {
    assert.equal(classify('true', false), 'IsTestProject');
    assert.equal(classify('false', true, ['Microsoft.NET.Test.Sdk']), null);
  });

  it('then IsTestingPlatformApplication: an xunit.v3 or MSTest.Sdk MTP app with neither IsTestProject nor the test SDK', () => {
    assert.equal(classify('', true), 'IsTestingPlatformApplication');
  });

  it('then the Microsoft.NET.Test.Sdk reference; a plain library is none', () => {
    assert.equal(classify('', false, ['microsoft.net.test.sdk']), 'Microsoft.NET.Test.Sdk');
    assert.equal(classify('', false, ['Newtonsoft.Json']), null);
  });
});

describe('verification: dotnet test runner mode and commands', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-mode-'));
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('reads the nearest global.json: test.runner Microsoft.Testing.Platform (comments allowed) is MTP mode, anything else VSTest', () => {
    const mtp = path.join(root, 'mtp', 'src', 'App');
    fs.mkdirSync(mtp, { recursive: true });
    fs.writeFileSync(path.join(root, 'mtp', 'global.json'), '{\n  // opt in\n  "sdk": { "version": "10.0.100", },\n  "test": { "runner": "Microsoft.Testing.Platform" }\n}\n');
    assert.deepEqual(dotnetTestMode(mtp), { mode: 'mtp', globalJson: path.join(root, 'mtp', 'global.json') });
    const vstest = path.join(root, 'vstest', 'App');
    fs.mkdirSync(vstest, { recursive: true });
    fs.writeFileSync(path.join(root, 'vstest', 'global.json'), '{ "sdk": { "version": "10.0.100" } }');
    assert.equal(dotnetTestMode(vstest).mode, 'vstest');
  });

  it('takes the TRX option the app offers: report-trx (TrxReport extension) or report-xunit-trx (xunit.v3), never a prefix match', () => {
    assert.equal(trxOptionFrom('  --report-trx              Enable generating TRX report.\n  --report-trx-filename     The name'), '--report-trx');
    assert.equal(trxOptionFrom('  --report-xunit-trx                Enable generating TRX (XML) report\n  --report-xunit-trx-filename'), '--report-xunit-trx');
    assert.equal(trxOptionFrom('  --report-trx-filename  only the file name option'), null);
    assert.equal(trxOptionFrom('  --results-directory <DIR>'), null);
  });

  it('maps MTP exit codes: 0 passed, 8 zero tests, 2 failures, 3 aborted, 7 crash', () => {
    assert.equal(mtpExitMeaning(0).kind, 'passed');
    assert.equal(mtpExitMeaning(8).kind, 'zeroTests');
    assert.deepEqual(mtpExitMeaning(2), { kind: 'failed', text: 'exit code 2: at least one test failed' });
    assert.match(mtpExitMeaning(3).text, /aborted/);
    assert.match(mtpExitMeaning(7).text, /crash/);
  });

  it('reads the totals MTP-mode dotnet test prints', () => {
    assert.deepEqual(parseMtpSummary('Test run summary: Failed!\n  total: 5\n  failed: 1\n  succeeded: 3\n  skipped: 1\n  duration: 3s'), { total: 5, passed: 3, failed: 1, skipped: 1, other: 0 });
    assert.equal(parseMtpSummary('Passed!  - Failed: 0, Passed: 2'), null);
  });

  it('builds each runner’s command: VSTest logger; MTP --project with the app’s option; MTP under VSTest after --', () => {
    const invocation = { project: '/w/T/T.csproj', configuration: 'Debug', framework: 'net10.0' };
    assert.deepEqual(testArguments('vstest', invocation, '/r', null, 'T'), ['test', '/w/T/T.csproj', '--no-build', '--no-restore', '-c', 'Debug', '-f', 'net10.0', '--logger', 'trx;LogFilePrefix=T', '--results-directory', '/r', '-nologo', '--tl:off']);
    assert.deepEqual(testArguments('mtp', invocation, '/r', '--report-xunit-trx', 'T'), ['test', '--project', '/w/T/T.csproj', '--no-build', '--no-restore', '-c', 'Debug', '-f', 'net10.0', '--report-xunit-trx', '--results-directory', '/r', '--no-ansi', '--no-progress']);
    assert.deepEqual(testArguments('mtpUnderVstest', invocation, '/r', '--report-trx', 'T'), ['test', '/w/T/T.csproj', '--no-build', '--no-restore', '-c', 'Debug', '-f', 'net10.0', '-nologo', '--tl:off', '--', '--report-trx', '--results-directory', '/r']);
    assert.ok(!testArguments('mtp', invocation, '/r', '--report-trx', 'T').includes('--logger'), 'VSTest’s logger makes every MTP app run zero tests');
    assert.deepEqual(helpArguments('mtp', invocation).slice(-1), ['--help']);
    assert.deepEqual(helpArguments('mtpUnderVstest', invocation).slice(-2), ['--', '--help']);
  });
});
