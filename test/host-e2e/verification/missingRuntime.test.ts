// A multi-targeted test project where one framework's runtime is not installed
// (fixtures/VerificationMissingRuntime: net8.0 and net10.0; machines of this kind have only the
// .NET 10 runtime). Found on CommunityToolkit/dotnet, whose HighPerformance tests target net472,
// net8.0, net9.0 and net10.0: the report said "0 passed" and missingPrerequisites although 649
// net10.0 tests had run, so a real net10.0 failure would have been hidden as a missing
// prerequisite (and an agent's repair never started). The frameworks that ran count; a failure
// among them is a failure; the missing runtime is named per framework.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveVerifyRequest } from '../../../src/engine/config/settings';
import { VerificationReportSchema, type VerificationReport } from '../../../src/engine/verification/report';
import { parseVerifyOptions } from '../../../src/engine/verification/request';
import { verify } from '../../../src/engine/verification/runner';
import { cleanUpCopies, copyFixture, hostFor, RecordingPolicy, restore, tempStateRoot } from './support';

async function testsOf(workspace: string): Promise<VerificationReport> {
  const report = await verify(resolveVerifyRequest(parseVerifyOptions({ scope: 'all' })), {
    workspaceFolder: workspace,
    permissions: new RecordingPolicy(true),
    requestedBy: 'host-e2e',
    stateRoot: tempStateRoot(),
    host: hostFor(workspace),
  });
  return VerificationReportSchema.parse(report);
}

describe('verification with real dotnet: a test framework whose runtime is not installed', function () {
  this.timeout(300_000);
  let workspace: string;

  before(function () {
    const runtimes = execFileSync('dotnet', ['--list-runtimes'], { encoding: 'utf8' });
    if (/Microsoft\.NETCore\.App 8\./.test(runtimes)) this.skip(); // the premise: no .NET 8 runtime here
    workspace = copyFixture('VerificationMissingRuntime');
    restore(workspace, 'MissingRuntime.slnx');
  });
  after(cleanUpCopies);

  it('counts the tests of the framework that ran and names the missing runtime per framework', async () => {
    const report = await testsOf(workspace);
    assert.equal(report.status, 'missingPrerequisites', report.summary);
    const project = report.tests!.projects[0]!;
    assert.equal(project.status, 'missingPrerequisites');
    assert.equal(project.counters.passed, 2, 'the net10.0 tests ran and passed');
    assert.equal(project.counters.failed, 0);
    assert.match(project.reason ?? '', /net8\.0/);
    assert.deepEqual(report.prerequisites.map((p) => [p.kind, /net8\.0/.test(p.message)]), [['runtime', true]]);
    assert.match(report.summary, /2 passed/);
  });

  it('a failing test on the framework that ran fails the verification (it is not hidden as a prerequisite)', async () => {
    const tests = path.join(workspace, 'tests', 'Shapes.Tests', 'SquareTests.cs');
    fs.writeFileSync(tests, fs.readFileSync(tests, 'utf8').replace('Assert.Equal(9, Square.Area(3))', 'Assert.Equal(10, Square.Area(3))'));
    const report = await testsOf(workspace);
    assert.equal(report.status, 'failed', report.summary);
    assert.deepEqual(report.tests!.failedTests.map((test) => test.name), ['Shapes.Tests.SquareTests.AreaOfThreeIsNine']);
    assert.equal(report.tests!.projects[0]!.counters.passed, 1);
    // The missing runtime is still said.
    assert.ok(report.prerequisites.some((p) => p.kind === 'runtime' && /net8\.0/.test(p.message)), JSON.stringify(report.prerequisites));
  });
});

// The same promise on Microsoft.Testing.Platform (fixtures/VerificationMtpMissingFramework: MTP
// mode, MSTest.Sdk on net10.0 and net472). Found on a real multi-targeted library: MTP-mode dotnet
// test writes no TRX for the framework it cannot start (net472 without mono) and says so only in
// its output, and the report said "failed: expected 2 TRX file(s) … found 1" with no prerequisite.
describe('verification with real dotnet: an MTP test framework that cannot start here (net472 without mono)', function () {
  this.timeout(400_000);
  let workspace: string;

  before(function () {
    try {
      execFileSync('mono', ['--version'], { stdio: 'ignore' });
      this.skip(); // the premise: mono is not installed here
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    workspace = copyFixture('VerificationMtpMissingFramework');
    restore(workspace, 'MtpMissingFramework.slnx');
  });
  after(cleanUpCopies);

  it('counts the net10.0 tests and names mono for net472 as the missing prerequisite', async () => {
    const report = await testsOf(workspace);
    assert.equal(report.status, 'missingPrerequisites', report.summary);
    const project = report.tests!.projects[0]!;
    assert.equal(project.runner, 'mtp');
    assert.equal(project.status, 'missingPrerequisites', project.reason ?? '');
    assert.equal(project.counters.passed, 2, 'the net10.0 tests ran and passed');
    assert.equal(project.reason, 'Not run on net472 (missing runtime); ran on net10.0: 2 passed.');
    assert.deepEqual(report.prerequisites.map((p) => [p.kind, p.message]), [['runtime', 'tests/Shapes.Tests/Shapes.Tests.csproj (net472) needs mono (to run .NET Framework tests here); its tests did not run.']]);
  });
});
