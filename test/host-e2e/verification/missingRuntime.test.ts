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
