// The read tools and verify pick the same target, because both ask the host's discovery (the
// spec's rule: an explicit target, else the one top-level .sln/.slnx, else the one top-level
// .csproj; nested candidates are hints, never a choice). Checked on every discovery fixture the
// host's TargetDiscoveryTests use: verify as a person who declines its approval (it resolves the
// target, then stops, running nothing), the read tools through the real CLI. NestedOnly's case also runs the CLI's
// verify and csharp_diagnostics on its copy and state folder (no_target from both, the hints named, nothing built).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { resolveVerifyRequest } from '../../../src/engine/config/settings';
import { asToolError } from '../../../src/engine/errors';
import { parseVerifyOptions } from '../../../src/engine/verification/request';
import { verify as runVerify } from '../../../src/engine/verification/runner';
import { cleanUpCopies, copyFixture, hostFor, RecordingPolicy, repoRoot, runCli, tempStateRoot } from '../support';

interface Envelope {
  ok: boolean;
  data?: { target?: string | null; status?: string };
  error?: { code: string; message: string; candidates?: string[] };
}

/** The fixtures TargetDiscoveryTests copies: adding one there adds it here. */
function discoveryFixtures(): string[] {
  const source = fs.readFileSync(path.join(repoRoot, 'server', 'tests', 'SharpClaw.Server.Tests', 'TargetDiscoveryTests.cs'), 'utf8');
  return [...new Set([...source.matchAll(/FixtureWorkspace\.Copy\("([^"]+)"\)/g)].map((match) => match[1]!))].sort();
}

describe('read tools and verify agree on the target (every discovery fixture)', function () {
  this.timeout(600_000);
  after(cleanUpCopies);

  const fixtures = discoveryFixtures();
  it('finds the discovery fixtures', () => {
    assert.ok(fixtures.includes('NestedOnly') && fixtures.includes('TwoSolutions') && fixtures.length >= 4, fixtures.join(', '));
  });

  for (const fixture of fixtures) {
    it(`${fixture}: dotnet_solution_inspect and verify give the same answer`, async () => {
      const workspace = copyFixture(fixture);
      const env = { SHARPCLAW_STATE_DIR: tempStateRoot() };
      // The person declines: verify resolves its target and stops at the permission, running nothing.
      const declining = new RecordingPolicy(false);
      const verify: Envelope = await runVerify(resolveVerifyRequest(parseVerifyOptions({ scope: 'build' })), {
        workspaceFolder: workspace,
        permissions: declining,
        requestedBy: 'target agreement test',
        stateRoot: env.SHARPCLAW_STATE_DIR,
        host: hostFor(workspace),
      }).then(
        (report) => ({ ok: report.status === 'passed', data: { target: report.target, status: report.status } }),
        (error: unknown) => ({ ok: false, error: asToolError(error).toJSON() }),
      );
      const verified = { stdout: JSON.stringify(verify) };
      const verifyTarget = verify.data?.target ?? null;
      // The read tools load that target: on a copy restored for it (the fixture cache restores it once, not on every run).
      const loaded = verifyTarget ? copyFixture(fixture, verifyTarget) : workspace;
      const inspected = await runCli(['tool', 'dotnet_solution_inspect', '--input', '{}', '--allow-evaluation', '--output-format', 'json'], { cwd: loaded, env });
      const inspect = JSON.parse(inspected.stdout) as Envelope;

      if (inspect.ok) {
        assert.equal(verify.data?.status, 'denied', verified.stdout);
        assert.equal(verifyTarget, inspect.data?.target, `verify chose ${verifyTarget}, the read tools ${inspect.data?.target}`);
      } else {
        assert.equal(verify.ok, false);
        assert.equal(verify.error?.code, inspect.error?.code, `verify: ${verified.stdout}\ninspect: ${inspected.stdout}`);
        assert.deepEqual(verify.error?.candidates ?? [], inspect.error?.candidates ?? []);
        assert.equal(verify.error?.message, inspect.error?.message);
      }
      if (fixture === 'NestedOnly') {
        // No top-level target: no_target from the CLI's verify (with the shell allowed, so a build would run) and from a
        // read tool too, on this copy and state folder (the resident host the inspect started), with the nested projects as hints, never built.
        assert.equal(inspect.error?.code, 'no_target', inspected.stdout);
        const cliVerified = await runCli(['verify', '--scope', 'build', '--allow-shell', '--output-format', 'json'], { cwd: workspace, env });
        const diagnostics = await runCli(['tool', 'csharp_diagnostics', '--input', '{}', '--allow-evaluation', '--output-format', 'json'], { cwd: workspace, env });
        const cliVerify = JSON.parse(cliVerified.stdout) as Envelope;
        const read = JSON.parse(diagnostics.stdout) as Envelope;
        assert.equal(cliVerified.code, 1);
        assert.equal(cliVerify.error?.code, 'no_target', cliVerified.stdout);
        assert.equal(read.error?.code, 'no_target', diagnostics.stdout);
        assert.ok((cliVerify.error?.candidates ?? []).length > 0, 'the nested candidates are named as hints');
        assert.deepEqual(cliVerify.error?.candidates, read.error?.candidates);
        assert.doesNotMatch(cliVerified.stdout + cliVerified.stderr, /dotnet build/, 'nothing was built');
      }
    });
  }
});
