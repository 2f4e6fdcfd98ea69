// Warm restart end to end: the real CLI and host on a copy of fixtures/DesignTimeMarker (whose MSBuild code
// writes marker files whenever it runs). The first call loads with --allow-evaluation and leaves the approved
// snapshot in SHARPCLAW_STATE_DIR; a second CLI call (a new host process) in read-only mode, with no
// --allow-* flag, answers the same from that snapshot without running project code; after a project file
// changes the snapshot no longer counts and the read-only call is refused again.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const cli = path.join(repoRoot, 'dist', 'cli.js');

describe('sharpclaw tool csharp_find_references after a restart (approved snapshot)', function () {
  this.timeout(240_000);
  let workspace: string;
  let stateDir: string;

  before(() => {
    assert.ok(fs.existsSync(cli), `${cli} is missing: run "npm run build"`);
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-cli-warm-'));
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-cli-warm-state-'));
    fs.cpSync(path.join(repoRoot, 'fixtures', 'DesignTimeMarker'), workspace, { recursive: true, filter: (p) => !['bin', 'obj'].includes(path.basename(p)) });
    fs.writeFileSync(path.join(workspace, 'App', 'Caller.cs'), 'namespace App;\n\npublic static class Caller\n{\n    public static string Run() => Greeter.Greet("warm");\n}\n');
    execFileSync('dotnet', ['restore', 'DesignTimeMarker.slnx', '-nologo'], { cwd: workspace, stdio: 'ignore' });
    for (const marker of markerFiles) fs.rmSync(path.join(workspace, marker), { force: true }); // restore runs InitialTargets
  });

  after(() => {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  const markerFiles = ['App/marker.txt', 'App/initial-marker.txt'];
  const markerLines = () => markerFiles.map((file) => (fs.existsSync(path.join(workspace, file)) ? fs.readFileSync(path.join(workspace, file), 'utf8').split('\n').filter((l) => l.trim()).length : 0));
  const run = (...flags: string[]) =>
    spawnSync(process.execPath, [cli, 'tool', 'csharp_find_references', '--cwd', workspace, '--input', JSON.stringify({ name: 'Greeter.Greet' }), ...flags], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 200_000,
      env: { ...process.env, SHARPCLAW_STATE_DIR: stateDir },
    });

  it('answers a new process from the approved snapshot: no approval, no project code, the same answer', () => {
    const cold = run('--allow-evaluation');
    assert.equal(cold.status, 0, cold.stderr);
    assert.match(cold.stdout, /^App\/Caller\.cs 5:\d+$/m);
    const afterLoad = markerLines();
    assert.ok(afterLoad[0] >= 1 && afterLoad[1] >= 1, `the approved load ran the project's targets (${afterLoad})`);

    const warm = run('--permission-mode', 'read-only');
    assert.equal(warm.status, 0, warm.stderr);
    assert.equal(warm.stdout, cold.stdout);
    assert.deepEqual(markerLines(), afterLoad, 'no MSBuild ran in the second process');
    assert.doesNotMatch(warm.stderr, /permission|evaluat/i);
    assert.deepEqual(fs.readdirSync(workspace, { recursive: true, encoding: 'utf8' }).filter((file) => /\.db/.test(file)), [], 'the store is never in the workspace');
  });

  it('refuses again once a project file changed (the snapshot no longer matches)', () => {
    const project = path.join(workspace, 'App', 'App.csproj');
    fs.writeFileSync(project, fs.readFileSync(project, 'utf8').replace('</PropertyGroup>', '  <Deterministic>true</Deterministic>\n  </PropertyGroup>'));
    const before = markerLines();
    const refused = run('--permission-mode', 'read-only');
    assert.equal(refused.status, 1, refused.stdout);
    assert.match(refused.stderr, /^error permission_denied: /m);
    assert.deepEqual(markerLines(), before);
  });
});
