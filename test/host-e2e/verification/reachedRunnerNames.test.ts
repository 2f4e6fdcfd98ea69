// verify --tests reached on Microsoft.Testing.Platform, against real dotnet and real Git: a Git copy of
// fixtures/ReachedRunnerNames (xunit.v3, NUnit and MSTest, all on the platform), faults planted in members reached
// only by tests whose runner names are not the declaration's: a nested class (Outer+Inner), a test declared in
// an abstract generic base (named by its derived class) and an NUnit generic fixture (FeeTests<Int32>). Each
// filter must select exactly the reached tests, so every planted fault fails, and the plain tests do not run.
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
    assert.equal(tests.selection, '6 of 9 tests run (reached from 3 changed members; the other 3 do not reach them)');
    const statuses = Object.fromEntries(tests.projects.map((p) => [p.project, p.status]));
    assert.deepEqual(statuses, { 'tests/Ledger.MSTest/Ledger.MSTest.csproj': 'failed', 'tests/Ledger.NUnit/Ledger.NUnit.csproj': 'failed', 'tests/Ledger.XunitV3/Ledger.XunitV3.csproj': 'failed' });
    // Every reached test ran and failed; the Round tests (which reach no changed member) did not run.
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
});
