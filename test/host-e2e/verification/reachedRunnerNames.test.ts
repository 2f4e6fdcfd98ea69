// verify --tests reached on Microsoft.Testing.Platform, against real dotnet and real Git: a Git copy of
// fixtures/ReachedRunnerNames (xunit.v3, NUnit and MSTest, all on the platform), faults planted in members reached
// only by tests whose runner names are not the declaration's: a nested class (Outer+Inner), a test declared in
// an abstract generic base (named by its derived class) and an NUnit generic fixture (FeeTests<Int32>). Each
// filter must select exactly the reached tests, so every planted fault fails, and the plain tests do not run.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveVerifyRequest } from '../../../src/engine/config/settings';
import { VerificationReportSchema, type VerificationReport } from '../../../src/engine/verification/report';
import { parseVerifyOptions, type RawVerifyOptions } from '../../../src/engine/verification/request';
import { verify } from '../../../src/engine/verification/runner';
import { cleanUpCopies, copyFixture, hostFor, RecordingPolicy, tempStateRoot } from '../support';

describe('verify --tests reached names each test as its runner does (fixtures/ReachedRunnerNames, on the platform)', function () {
  this.timeout(900_000);
  let workspace: string;
  let state: string;
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=test@example.com', '-c', 'user.name=test', ...args], { cwd: workspace, encoding: 'utf8' });
  const run = async (options: RawVerifyOptions): Promise<VerificationReport> =>
    VerificationReportSchema.parse(
      await verify(resolveVerifyRequest(parseVerifyOptions(options)), { workspaceFolder: workspace, permissions: new RecordingPolicy(true), requestedBy: 'host-e2e', stateRoot: state, host: hostFor(workspace) }),
    );

  before(() => {
    workspace = copyFixture('ReachedRunnerNames', 'ReachedRunnerNames.slnx');
    state = tempStateRoot();
    fs.writeFileSync(path.join(workspace, '.gitignore'), 'bin/\nobj/\n');
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'fixture');
  });
  after(() => cleanUpCopies());

  it('runs and fails the tests of a nested class, an abstract generic base and an NUnit generic fixture, and nothing else', async () => {
    const ledger = path.join(workspace, 'src', 'Ledger', 'Ledger.cs');
    const text = fs.readFileSync(ledger, 'utf8');
    const planted = text
      .replace('=> balance - amount;', '=> balance - amount - 1;')
      .replace('=> balance + amount;', '=> balance + amount + 1;')
      .replace('=> amount / 100;', '=> amount / 100 + 1;');
    assert.notEqual(planted, text);
    fs.writeFileSync(ledger, planted);

    const report = await run({ scope: 'affected', tests: 'reached', timeout: '600' });
    const tests = report.tests!;
    assert.equal(tests.selection, '6 of 9 tests run (reached from 3 changed members; the other 3 do not reach them)');
    const statuses = Object.fromEntries(tests.projects.map((p) => [p.project, p.status]));
    assert.deepEqual(statuses, { 'tests/Ledger.MSTest/Ledger.MSTest.csproj': 'failed', 'tests/Ledger.NUnit/Ledger.NUnit.csproj': 'failed', 'tests/Ledger.XunitV3/Ledger.XunitV3.csproj': 'failed' });
    // Every reached test ran and failed; the Round tests (which reach no changed member) did not run.
    assert.equal(report.status, 'failed');
    const counts = Object.fromEntries(tests.projects.map((p) => [p.project, `${p.counters.failed} failed of ${p.counters.total}`]));
    assert.deepEqual(counts, { 'tests/Ledger.MSTest/Ledger.MSTest.csproj': '2 failed of 2', 'tests/Ledger.NUnit/Ledger.NUnit.csproj': '2 failed of 2', 'tests/Ledger.XunitV3/Ledger.XunitV3.csproj': '2 failed of 2' });
    // xunit.v3 writes a TRX that names them (NUnit's and MSTest's runners here offer no TRX option: their console counts are all there is).
    assert.deepEqual(tests.failedTests.map((t) => t.name).sort(), ['Ledger.XunitV3.AccountTests+Withdrawals.Debit_Subtracts', 'Ledger.XunitV3.SavingsBalanceTests.Credit_Adds']);
    const nunit = report.steps.find((s) => s.kind === 'test' && s.commandLine.includes('Ledger.NUnit.csproj') && s.commandLine.includes('--filter'));
    const mstest = report.steps.find((s) => s.kind === 'test' && s.commandLine.includes('Ledger.MSTest.csproj') && s.commandLine.includes('--filter'));
    assert.match(mstest?.commandLine ?? '', /FullyQualifiedName=Ledger\.MSTest\.AccountTests\+Withdrawals\.Debit_Subtracts\|FullyQualifiedName=Ledger\.MSTest\.SavingsBalanceTests\.Credit_Adds/);
    assert.match(nunit?.commandLine ?? '', /\(FullyQualifiedName~Ledger\.NUnit\.FeeTests<&FullyQualifiedName~>\.Fee_IsOnePercent\)\|FullyQualifiedName=Ledger\.NUnit\.Transfers\+Outgoing\.Debit_Subtracts/);
    fs.writeFileSync(ledger, text);
  });
});
