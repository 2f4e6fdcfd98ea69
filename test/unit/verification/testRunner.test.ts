// The test-runner rules without dotnet: which projects are test projects, which mode global.json
// selects, which TRX option an app's help offers, what an MTP exit code means, and the command
// lines for each runner.
import * as assert from 'node:assert/strict';
import { recorded } from './recordedRuns';
import { recordedRun } from './replayedRuns';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { toEvaluatedProject } from '../../../src/engine/verification/hostGraph';
import { dotnetTestMode, helpArguments, mtpExitMeaning, mtpHostStopped, parseMtpFailures, parseMtpSummary, testArguments, trxOptionFrom } from '../../../src/engine/verification/testRunner';

describe('verification: the host\'s project graph as the verifier sees it', () => {
  const node = (isTestProject: boolean, isTestProjectSource: 'evaluated' | 'testSdkReference' | 'testingPlatformApplication' | 'absent') => ({
    path: 'tests/A.Tests/A.Tests.csproj',
    isTestProject,
    isTestProjectSource,
    targetFrameworks: ['net10.0', 'net9.0'],
    outputType: 'Exe',
    assetsFile: 'tests/A.Tests/obj/project.assets.json',
    restored: true,
    compileItems: ['tests/A.Tests/T.cs', 'src/Shared/Linked.cs'],
    projectReferences: ['src/A/A.csproj', 'src/A/A.csproj'],
    imports: ['Directory.Build.props'],
    otherItems: ['tests/A.Tests/data.json', 'tests/A.Tests/T.cs'],
    packageReferences: ['xunit', 'Microsoft.NET.Test.Sdk'],
    isTestingPlatformApplication: isTestProjectSource === 'testingPlatformApplication',
    testingPlatformDotnetTestSupport: false,
    outputs: [
      { targetFramework: 'net10.0', targetPath: 'tests/A.Tests/bin/Debug/net10.0/A.Tests.dll', intermediateAssembly: 'tests/A.Tests/obj/Debug/net10.0/A.Tests.dll' },
      { targetFramework: 'net9.0', targetPath: '/elsewhere/A.Tests.dll', intermediateAssembly: null },
    ],
  });

  it('maps the host\'s test-project source (the one rule lives in the host) to the report\'s names; an explicit false is no test project', () => {
    assert.equal(toEvaluatedProject('/w', node(true, 'evaluated')).testProjectSource, 'IsTestProject');
    assert.equal(toEvaluatedProject('/w', node(true, 'testingPlatformApplication')).testProjectSource, 'IsTestingPlatformApplication');
    assert.equal(toEvaluatedProject('/w', node(true, 'testSdkReference')).testProjectSource, 'Microsoft.NET.Test.Sdk');
    const explicitFalse = toEvaluatedProject('/w', node(false, 'evaluated'));
    assert.equal(explicitFalse.isTestProject, false);
    assert.equal(explicitFalse.testProjectSource, null);
  });

  it('makes paths absolute, owns compile and other items once, and keeps the outputs per framework', () => {
    const project = toEvaluatedProject('/w', node(true, 'evaluated'));
    assert.equal(project.path, '/w/tests/A.Tests/A.Tests.csproj');
    assert.equal(project.name, 'A.Tests');
    assert.deepEqual(project.ownedFiles, ['/w/src/Shared/Linked.cs', '/w/tests/A.Tests/T.cs', '/w/tests/A.Tests/data.json']);
    assert.deepEqual(project.projectReferences, ['/w/src/A/A.csproj']);
    assert.deepEqual(project.targetPaths, { 'net10.0': '/w/tests/A.Tests/bin/Debug/net10.0/A.Tests.dll', 'net9.0': '/elsewhere/A.Tests.dll' });
    assert.deepEqual(project.intermediateAssemblies, { 'net10.0': '/w/tests/A.Tests/obj/Debug/net10.0/A.Tests.dll' });
    assert.equal(project.assetsFile, '/w/tests/A.Tests/obj/project.assets.json');
    assert.equal(project.multiTargeted, true);
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

  it('knows an MTP exit code that says the test host stopped mid-run: 3, 7, or one the platform does not define (134: FailFast)', () => {
    assert.deepEqual([0, 1, 2, 3, 7, 8, 13, 134, 139, 42].map(mtpHostStopped), [false, false, false, true, true, false, false, true, true, true]);
    assert.equal(mtpHostStopped(null), false);
  });

  it('reads the failed tests MTP-mode dotnet test prints, qualified by the first frame of their stack (recorded: MtpFailureNames)', () => {
    // What `dotnet test --project <project>` printed in the recorded run.
    const printed = (project: string) => recorded('mtp-failure-names', recordedRun('mtp-failure-names').calls.find((c) => c.args.some((a) => a.endsWith(`/${project}.csproj`)) && !c.args.includes('--help'))!.output);
    const [nunit] = parseMtpFailures(printed('Prices.NUnit'));
    assert.deepEqual(nunit, {
      name: 'Prices.NUnit.TaxTests.Add_AddsTenPercent',
      message: 'Assert.That(Tax.Add(100), Is.EqualTo(110))\nExpected: 110\nBut was:  109',
      stackTrace: 'at Prices.NUnit.TaxTests.Add_AddsTenPercent() in {workspace}/tests/Prices.NUnit/TaxTests.cs:line 12',
    });
    const [mstest, ...more] = parseMtpFailures(printed('Prices.MSTest'));
    assert.equal(more.length, 0);
    assert.equal(mstest!.name, 'Prices.MSTest.TaxTests.Add_AddsTenPercent');
    assert.match(mstest!.stackTrace, /^at Prices\.MSTest\.TaxTests\.Add_AddsTenPercent\(\) in \S+TaxTests\.cs:line 13$/m);
    // A display name that is not the method (a parameterized case) stays as printed.
    assert.equal(parseMtpFailures('failed Adds(1,2) (3ms)\n  boom\n  from x.dll (net10.0|x64)\n    at A.B.Adds(Int32 a, Int32 b) in /w/T.cs:4\n')[0]!.name, 'Adds(1,2)');
    assert.deepEqual(parseMtpFailures('passed Adds (3ms)\nTest run summary: Passed!'), []);
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
