// `sharpclaw tool csharp_diagnostics` with the project's default severity from the workspace
// settings file: the real CLI and host on a restored copy of fixtures/VerificationFailingTest,
// whose Discounts.cs has one compiler warning (CS0168).
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const cli = path.join(repoRoot, 'dist', 'cli.js');

describe('csharp_diagnostics default severity from .sharpclaw/settings.jsonc', function () {
  this.timeout(240_000);
  let workspace: string;

  before(() => {
    assert.ok(fs.existsSync(cli), `${cli} is missing: run "npm run build"`);
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-cli-diag-'));
    fs.cpSync(path.join(repoRoot, 'fixtures', 'VerificationFailingTest'), workspace, { recursive: true, filter: (p) => !['bin', 'obj'].includes(path.basename(p)) });
    execFileSync('dotnet', ['restore', 'FailingTest.slnx', '-nologo'], { cwd: workspace, stdio: 'ignore' });
  });

  after(() => fs.rmSync(workspace, { recursive: true, force: true }));

  const diagnostics = (input: object) =>
    spawnSync(process.execPath, [cli, 'tool', 'csharp_diagnostics', '--cwd', workspace, '--input', JSON.stringify(input), '--allow-evaluation'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 200_000,
      env: { ...process.env, HOME: workspace }, // no user settings file from the machine
    });
  const settings = (text: string) => {
    fs.mkdirSync(path.join(workspace, '.sharpclaw'), { recursive: true });
    fs.writeFileSync(path.join(workspace, '.sharpclaw', 'settings.jsonc'), text);
  };

  it('reports the warning by default, hides it below a project default of error, and an explicit severity wins', () => {
    const byDefault = diagnostics({ path: 'src/Pricing/Discounts.cs' });
    assert.equal(byDefault.status, 0, byDefault.stderr);
    assert.match(byDefault.stdout, /^  \d+:\d+ warning CS0168 /m);

    settings('{ "diagnostics": { "defaultSeverity": "error" } }');
    const errorsOnly = diagnostics({ path: 'src/Pricing/Discounts.cs' });
    assert.equal(errorsOnly.status, 0, errorsOnly.stderr);
    assert.doesNotMatch(errorsOnly.stdout, /CS0168/);
    assert.match(errorsOnly.stdout, /^1 file checked, 0 diagnostics in 0 files, 1 below the severity$/m);

    const explicit = diagnostics({ path: 'src/Pricing/Discounts.cs', severity: 'warning' });
    assert.match(explicit.stdout, /^  \d+:\d+ warning CS0168 /m);
  });

  it('rejects an invalid default with invalid_request naming the key and the file', () => {
    settings('{ "diagnostics": { "defaultSeverity": "loud" } }');
    const result = diagnostics({ path: 'src/Pricing/Discounts.cs' });
    assert.equal(result.status, 2, 'invalid input exits with 2');
    assert.match(result.stderr, /^error invalid_request: Invalid setting diagnostics\.defaultSeverity = "loud" in .*settings\.jsonc: expected one of error, warning, information, hint\./m);
  });
});
