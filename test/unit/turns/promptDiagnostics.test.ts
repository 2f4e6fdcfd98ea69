// Prompt assembly's cached diagnostics (src/engine/turns/promptDiagnostics.ts) and the build result
// it reads (ReportHistory.lastBuildReport, kept by the Session): the latest real build survives a later
// tests-only run and a missing prerequisite; nothing is built to assemble a prompt.
import * as assert from 'node:assert/strict';
import { promptDiagnostics } from '../../../src/engine/turns/promptDiagnostics';
import { ReportHistory } from '../../../src/engine/verification/reportHistory';
import type { VerificationReport } from '../../../src/engine/verification/report';
import { diagnostic, report } from './reports';

function withoutBuild(base: VerificationReport, status: VerificationReport['status']): VerificationReport {
  return { ...base, status, build: status === 'missingPrerequisites' ? { ...base.build!, status: 'missingPrerequisites', errors: 0, diagnostics: [] } : null, scope: status === 'missingPrerequisites' ? 'affected' : 'tests' };
}

describe('diagnostics in a new turn\'s prompt', () => {
  it('lists the cached build\'s errors, bounded, and says how many it left out', () => {
    const errors = Array.from({ length: 200 }, (_, index) => diagnostic(`/ws/src/File${index}.cs`, index + 1, 'CS0103', `The name 'x${index}' does not exist in the current context`));
    const text = promptDiagnostics(report('failed', { errors }), '/ws');
    assert.ok(text);
    assert.match(text, /^The most recent verification \(affected, finished 2026-01-01T00:00:01.000Z\) built with 200 error\(s\) and 0 warning\(s\):/);
    assert.match(text, /- src\/File0\.cs\(1,1\): error CS0103: The name 'x0' does not exist/);
    assert.ok(Buffer.byteLength(text) <= 2048, `${Buffer.byteLength(text)} bytes`);
    assert.match(text, /\(\d+ more not shown\)$/);
  });

  it('says nothing without a cached build, or for another workspace', () => {
    assert.equal(promptDiagnostics(undefined, '/ws'), undefined);
    assert.equal(promptDiagnostics(report('failed', { errors: [diagnostic('/other/A.cs', 1, 'CS1002', '; expected')], workspace: '/other' }), '/ws'), undefined);
  });

  it('keeps the latest real build result across a tests-only run and a missing prerequisite', () => {
    const service = new ReportHistory();
    const failedBuild = report('failed', { errors: [diagnostic('/ws/A.cs', 3, 'CS1002', '; expected')] });
    service.record(failedBuild);
    service.record(withoutBuild(failedBuild, 'failed'));
    service.record(withoutBuild(failedBuild, 'missingPrerequisites'));
    assert.equal(service.lastBuildReport, failedBuild);
    assert.match(promptDiagnostics(service.lastBuildReport, '/ws')!, /A\.cs\(3,1\): error CS1002/);
    const passed = report('passed');
    service.record(passed);
    assert.equal(service.lastBuildReport, passed);
    assert.equal(promptDiagnostics(passed, '/ws'), 'The most recent verification (affected, finished 2026-01-01T00:00:01.000Z) built with 0 error(s) and 0 warning(s).');
  });

  it('names the compiles whose warnings the verifier could not see, bounded, so 0 warnings does not read as all clear', () => {
    const base = report('passed');
    const unseen = Array.from({ length: 12 }, (_, index) => `Project${index} (net10.0)`);
    const text = promptDiagnostics({ ...base, build: { ...base.build!, warningsUnknownFor: unseen } }, '/ws');
    assert.equal(
      text,
      'The most recent verification (affected, finished 2026-01-01T00:00:01.000Z) built with 0 error(s) and 0 warning(s) (warnings not known for Project0 (net10.0), Project1 (net10.0), Project2 (net10.0), Project3 (net10.0), Project4 (net10.0) and 7 more).',
    );
  });
});
