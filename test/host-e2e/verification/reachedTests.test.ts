// verify --tests reached against real dotnet and real Git, on a temporary Git repository holding
// fixtures/TestReach (four test projects: xunit on VSTest, NUnit, MSTest, xunit.v3): a fault planted in one
// member body runs only the tests that reach it, in the one project that has them, and is caught. That a
// non-C# change runs every test and says why is decided before the host is asked, and is asserted over the
// runner's process-runner seam (test/unit/verification/recordedVerifications.test.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderReport } from '../../../src/engine/verification/renderReport';
import { cleanUpCopies } from '../support';
import { reachedBed, type ReachedBed } from './reachedBed';

describe('verify --tests reached on a Git copy of fixtures/TestReach', function () {
  this.timeout(900_000);
  let bed: ReachedBed;
  before(() => {
    bed = reachedBed('TestReach', 'TestReach.slnx');
  });
  after(() => cleanUpCopies());

  it('runs only the tests that reach a changed member body, and catches the fault planted there', async () => {
    const money = path.join(bed.workspace, 'src', 'Shapes', 'Money.cs');
    const text = fs.readFileSync(money, 'utf8');
    assert.ok(text.includes('=> decimal.Round(amount, 2);'));
    fs.writeFileSync(money, text.replace('=> decimal.Round(amount, 2);', '=> decimal.Round(amount, 2) + 1;'));

    const report = await bed.run({ scope: 'affected', tests: 'reached', timeout: '600' });
    const tests = report.tests!;
    assert.equal(tests.selection, '1 of 24 tests run (reached from 1 changed member; the other 23 do not reach them); 3 projects skipped: no reached test');
    // The one line is in the summary, which the sidebar, the chat turn, the CLI and MCP all show.
    assert.match(report.summary, /; tests: 1 of 24 tests run \(reached from 1 changed member; the other 23 do not reach them\); 3 projects skipped: no reached test/);
    assert.equal(renderReport(report).split('1 of 24 tests run').length, 2);
    const statuses = Object.fromEntries(tests.projects.map((p) => [p.project, p.status]));
    assert.deepEqual(statuses, {
      'tests/Shapes.MSTest/Shapes.MSTest.csproj': 'skipped',
      'tests/Shapes.NUnit/Shapes.NUnit.csproj': 'failed',
      'tests/Shapes.XunitV3/Shapes.XunitV3.csproj': 'skipped',
      'tests/Shapes.XunitVstest/Shapes.XunitVstest.csproj': 'skipped',
    });
    // The TRX names only the reached test's cases, and the planted fault fails them.
    assert.equal(report.status, 'failed');
    assert.deepEqual([...new Set(tests.failedTests.map((t) => t.name.replace(/\(.*$/, '')))], ['Shapes.NUnit.CartTests.Conversion_RoundsToCents']);
    assert.equal(tests.counters.total, tests.counters.failed);
    const step = report.steps.find((s) => s.kind === 'test' && s.commandLine.includes('Shapes.NUnit'));
    assert.match(step?.commandLine ?? '', /--filter FullyQualifiedName=Shapes\.NUnit\.CartTests\.Conversion_RoundsToCents/);
    fs.writeFileSync(money, text);
  });
});
