// verify --tests reached on Microsoft.Testing.Platform, against real dotnet and real Git: a Git copy of
// fixtures/ReachedRunnerNames (xunit.v3, NUnit and MSTest, all on the platform), faults planted in members reached
// only by tests whose runner names are not the declaration's: a nested class (Outer+Inner), a test declared in
// an abstract generic base (named by its derived class) and an NUnit generic fixture (FeeTests<Int32>). Each
// filter must select exactly the reached tests, so every planted fault fails, and the plain tests do not run; and when
// naming each test would not fit a command line, each runner's class filter must run those classes and no other.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanUpCopies } from '../support';
import { reachedBed, type ReachedBed } from './reachedBed';

describe('verify --tests reached names each test as its runner does (fixtures/ReachedRunnerNames, on the platform)', function () {
  this.timeout(900_000);
  let bed: ReachedBed;
  before(() => {
    bed = reachedBed('ReachedRunnerNames', 'ReachedRunnerNames.slnx');
  });
  after(() => cleanUpCopies());

  it('runs and fails the tests of a nested class, an abstract generic base and an NUnit generic fixture, and nothing else', async () => {
    const ledger = path.join(bed.workspace, 'src', 'Ledger', 'Ledger.cs');
    const text = fs.readFileSync(ledger, 'utf8');
    const planted = text
      .replace('=> balance - amount;', '=> balance - amount - 1;')
      .replace('=> balance + amount;', '=> balance + amount + 1;')
      .replace('=> amount / 100;', '=> amount / 100 + 1;');
    assert.notEqual(planted, text);
    fs.writeFileSync(ledger, planted);

    const report = await bed.run({ scope: 'affected', tests: 'reached', timeout: '600' });
    const tests = report.tests!;
    assert.equal(tests.selection, '6 of 462 tests run (reached from 3 changed members; the other 456 do not reach them)');
    const statuses = Object.fromEntries(tests.projects.map((p) => [p.project, p.status]));
    assert.deepEqual(statuses, { 'tests/Ledger.MSTest/Ledger.MSTest.csproj': 'failed', 'tests/Ledger.NUnit/Ledger.NUnit.csproj': 'failed', 'tests/Ledger.XunitV3/Ledger.XunitV3.csproj': 'failed' });
    // Every reached test ran and failed; the Round tests and the bulk tests (which reach no changed member) did not run.
    assert.equal(report.status, 'failed');
    const counts = Object.fromEntries(tests.projects.map((p) => [p.project, `${p.counters.failed} failed of ${p.counters.total}`]));
    assert.deepEqual(counts, { 'tests/Ledger.MSTest/Ledger.MSTest.csproj': '2 failed of 2', 'tests/Ledger.NUnit/Ledger.NUnit.csproj': '2 failed of 2', 'tests/Ledger.XunitV3/Ledger.XunitV3.csproj': '2 failed of 2' });
    // xunit.v3 writes a TRX that names them; NUnit's and MSTest's runners here offer no TRX option, so theirs are named from
    // what dotnet test printed: the method, qualified by its stack's first frame (the class that declares it).
    assert.deepEqual(tests.failedTests.map((t) => t.name).sort(), [
      'Ledger.MSTest.AccountTests.Withdrawals.Debit_Subtracts',
      'Ledger.MSTest.BalanceContract`1.Credit_Adds',
      'Ledger.NUnit.FeeTests`1.Fee_IsOnePercent',
      'Ledger.NUnit.Transfers.Outgoing.Debit_Subtracts',
      'Ledger.XunitV3.AccountTests+Withdrawals.Debit_Subtracts',
      'Ledger.XunitV3.SavingsBalanceTests.Credit_Adds',
    ]);
    const nunit = report.steps.find((s) => s.kind === 'test' && s.commandLine.includes('Ledger.NUnit.csproj') && s.commandLine.includes('--filter'));
    const mstest = report.steps.find((s) => s.kind === 'test' && s.commandLine.includes('Ledger.MSTest.csproj') && s.commandLine.includes('--filter'));
    assert.match(mstest?.commandLine ?? '', /FullyQualifiedName=Ledger\.MSTest\.AccountTests\+Withdrawals\.Debit_Subtracts\|FullyQualifiedName=Ledger\.MSTest\.SavingsBalanceTests\.Credit_Adds/);
    assert.match(nunit?.commandLine ?? '', /\(FullyQualifiedName~Ledger\.NUnit\.FeeTests<&FullyQualifiedName~>\.Fee_IsOnePercent\)\|FullyQualifiedName=Ledger\.NUnit\.Transfers\+Outgoing\.Debit_Subtracts/);
    fs.writeFileSync(ledger, text);
  });

  it("runs the reached tests' classes whole when naming each test would not fit a command line, on each runner, and no other class", async () => {
    // 150 more tests per project (in the fixture) reach Withdraw, in a nested class Bulk+Debits: with Debit, 151 reached tests per
    // project, and a filter naming each (over 8,000 characters) does not fit, so each runner gets its classes instead (xunit.v3
    // --filter-class, MSTest and NUnit their FullyQualifiedName~ terms). Bulk's own test reaches nothing changed and sits in the
    // outer class: it must not run. (The test projects were built by the test before; only Ledger is compiled again.)
    const ledger = path.join(bed.workspace, 'src', 'Ledger', 'Ledger.cs');
    const text = fs.readFileSync(ledger, 'utf8');
    const planted = text.replace('=> balance - amount;', '=> balance - amount - 1;').replace('=> System.Math.Max(0, balance - amount);', '=> System.Math.Max(0, balance - amount) - 1;');
    assert.equal(planted.split(' - 1;').length, 3);
    fs.writeFileSync(ledger, planted);

    const report = await bed.run({ scope: 'affected', tests: 'reached', timeout: '600' });
    const tests = report.tests!;
    for (const project of ['Ledger.MSTest', 'Ledger.NUnit', 'Ledger.XunitV3']) {
      assert.match(tests.selection ?? '', new RegExp(`tests/${project}/${project}\\.csproj: every test of the 2 classes holding its 151 reached tests ran: a filter naming each of its 151 reached tests would be \\d+ characters \\(over 8000\\)`));
    }
    // Exactly the two classes ran and every test in them failed: Bulk.Round_InBulk, AccountTests.Round_KeepsTens and the Credit and Fee tests did not run.
    const counts = Object.fromEntries(tests.projects.map((p) => [p.project, `${p.counters.failed} failed of ${p.counters.total}`]));
    assert.deepEqual(counts, { 'tests/Ledger.MSTest/Ledger.MSTest.csproj': '151 failed of 151', 'tests/Ledger.NUnit/Ledger.NUnit.csproj': '151 failed of 151', 'tests/Ledger.XunitV3/Ledger.XunitV3.csproj': '151 failed of 151' });
    const xunit = report.steps.find((s) => s.kind === 'test' && s.commandLine.includes('Ledger.XunitV3.csproj') && s.commandLine.includes('--filter-class'));
    assert.match(xunit?.commandLine ?? '', /--filter-class Ledger\.XunitV3\.AccountTests\+Withdrawals --filter-class Ledger\.XunitV3\.Bulk\+Debits/);
    // Each app was asked for its options by the test before, and its output is unchanged since (only Ledger compiled):
    // the answers are reused, no `--help` process ran, and the runs above still used each app's TRX option or none.
    const helps = report.steps.filter((s) => s.kind === 'test' && s.commandLine.endsWith('--help'));
    assert.equal(helps.length, 3, helps.map((s) => s.commandLine).join('\n'));
    for (const help of helps) assert.match(help.log.text, /^\(reused: the app's build output is unchanged since it was asked; it offered /, help.commandLine);
    fs.writeFileSync(ledger, text);
  });
});
