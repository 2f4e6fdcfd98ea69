// The README's sample, fixtures/Calculator (what `npm start` opens): a person's first verification on
// it passes, and its 7 tests (4 facts, 3 theory rows) are each counted as the runner ran them. Nothing
// else in the suite runs the sample's own tests, so a broken sample would otherwise reach newcomers first.
import * as assert from 'node:assert/strict';
import type { VerificationReport } from '../../../src/engine/verification/report';
import { cleanUpCopies, copyFixture, runCli, tempStateRoot } from '../support';

describe('the sample workspace (fixtures/Calculator) verifies', function () {
  this.timeout(300_000);
  after(cleanUpCopies);

  it('`sharpclaw verify --scope all` builds it with no errors and passes its 7 tests', async () => {
    const workspace = copyFixture('Calculator', 'Calculator.slnx');
    const result = await runCli(['verify', '--scope', 'all', '--allow-shell', '--output-format', 'json', '--timeout', '240'], {
      cwd: workspace,
      env: { SHARPCLAW_STATE_DIR: tempStateRoot() },
    });
    const envelope = JSON.parse(result.stdout) as { ok: boolean; data?: VerificationReport; text: string };
    assert.equal(result.code, 0, `${envelope.text}\n${result.stderr}`);
    const report = envelope.data!;
    assert.equal(report.status, 'passed', report.summary);
    assert.equal(report.target, 'Calculator.slnx');
    assert.equal(report.build?.errors, 0);
    assert.deepEqual(report.tests?.counters, { total: 7, passed: 7, failed: 0, skipped: 0, other: 0 });
    assert.deepEqual(report.tests?.projects.map((p) => p.project), ['tests/Calculator.Tests/Calculator.Tests.csproj']);
  });
});
