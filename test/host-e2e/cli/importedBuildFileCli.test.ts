// The issue-36 attack "an edit of a file a Directory.Build.props imports", through the CLI. On a copy of
// fixtures/ImportedBuildProps (Directory.Build.props imports build/Shared.props by a literal path, which the
// host's ImportScanner follows; every MSBuild run of App adds a line to App/initial-marker.txt): the person
// allows one load with --allow-evaluation; a call without the flag is answered by the resident host from
// what was loaded; then the agent edits build/Shared.props, and the next call without the flag runs nothing
// and says which build file changed and which flag would allow the evaluation; after the next allowed load, an
// edit of Directory.Build.props itself is refused the same way. The MCP doors and the VS Code adapter have the
// same attacks in test/host-e2e/attacks/approvals.test.ts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openDoor, type Door } from '../attacks/doors';
import { cleanUpCopies, copyFixture, tempStateRoot } from '../support';

describe('sharpclaw tool: an edit of a file that Directory.Build.props imports', function () {
  this.timeout(600_000);
  const doors: Door[] = [];

  afterEach(async () => {
    for (const door of doors.splice(0)) await door.close().catch(() => undefined);
  });

  after(cleanUpCopies);

  it('after one allowed load, an edit of build/Shared.props makes the next call refuse naming the file and --allow-evaluation; nothing of the project runs; after the next allowed load, so does an edit of Directory.Build.props', async () => {
    const workspace = copyFixture('ImportedBuildProps', 'App.slnx');
    const marker = path.join(workspace, 'App', 'initial-marker.txt');
    fs.rmSync(marker, { force: true }); // restore ran the project's InitialTargets
    const runs = () => (fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8').split('\n').filter((line) => line.trim()).length : 0);
    const stateDir = tempStateRoot();
    const call = { action: 'definition', symbol: 'Greeter.Greet', target: 'App.slnx' };

    const allowing = await openDoor('cli', { workspace, stateDir, allow: ['evaluation'] });
    const plain = await openDoor('cli', { workspace, stateDir });
    doors.push(allowing, plain);
    const allowed = await allowing.call('csharp_navigate', call);
    assert.equal(allowed.code, undefined, allowed.text);
    assert.match(allowed.text, /App\/Greeter\.cs 5:26/);
    const loaded = runs();
    assert.ok(loaded > 0, '--allow-evaluation let the load run');

    // Nothing changed: the resident host answers from what the person allowed, with no flag and no run.
    const warm = await plain.call('csharp_navigate', call);
    assert.equal(warm.code, undefined, warm.text);
    assert.equal(runs(), loaded);

    const shared = path.join(workspace, 'build', 'Shared.props');
    fs.writeFileSync(shared, fs.readFileSync(shared, 'utf8').replace(/<\/PropertyGroup>/, '  <AttackMarker>imported</AttackMarker>\n  </PropertyGroup>'));
    const refused = await plain.call('csharp_navigate', call);
    assert.equal(refused.code, 'permission_denied', refused.text);
    assert.match(refused.text, /^error permission_denied: MSBuild evaluation is needed because build files of 'App\.slnx' changed \(build\/Shared\.props\), and it was not authorized/);
    assert.match(refused.text, /Pass --allow-evaluation to allow it\./);
    assert.equal(runs(), loaded, 'project code ran after the imported file changed, without an approval');

    // The person's flag again: the edited project is evaluated.
    const again = await allowing.call('csharp_navigate', call);
    assert.equal(again.code, undefined, again.text);
    const reloaded = runs();
    assert.ok(reloaded > loaded, 'the allowed call evaluated the edited project');

    // After that allowed load, the agent edits Directory.Build.props itself: the next call runs nothing without a new approval.
    const props = path.join(workspace, 'Directory.Build.props');
    fs.writeFileSync(props, fs.readFileSync(props, 'utf8').replace(/<\/Project>/, '  <PropertyGroup>\n    <AttackMarker>carried</AttackMarker>\n  </PropertyGroup>\n</Project>'));
    const refusedProps = await plain.call('csharp_navigate', call);
    assert.equal(refusedProps.code, 'permission_denied', refusedProps.text);
    assert.match(refusedProps.text, /build files of 'App\.slnx' changed \(Directory\.Build\.props\)/);
    assert.equal(runs(), reloaded, 'project code ran again after Directory.Build.props changed, without an approval');
  });
});
