// The private per-user state folder (src/engine/stateFolder.ts): where it is, that it is private,
// and that a link or a folder of someone else is refused rather than written through.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StateFolderError, stateRoot, stateRootPath, workspaceKey, workspaceStateFolder } from '../../src/engine/stateFolder';
import { hostArguments } from '../../src/engine/host/hostCommandLine';

const posix = process.platform !== 'win32';

describe('state folder', () => {
  let temp: string;
  beforeEach(() => {
    temp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sc-state-')));
  });
  afterEach(() => fs.rmSync(temp, { recursive: true, force: true }));

  it('follows the documented rule: override, then LOCALAPPDATA on Windows, then XDG_CACHE_HOME, then ~/.cache', () => {
    assert.equal(stateRootPath({ SHARPCLAW_STATE_DIR: '/x/state' }, 'linux', '/home/u'), path.resolve('/x/state'));
    assert.equal(stateRootPath({ XDG_CACHE_HOME: '/xdg' }, 'linux', '/home/u'), path.join('/xdg', 'sharpclaw'));
    assert.equal(stateRootPath({ XDG_CACHE_HOME: 'relative' }, 'linux', '/home/u'), path.join('/home/u', '.cache', 'sharpclaw'));
    assert.equal(stateRootPath({}, 'darwin', '/Users/u'), path.join('/Users/u', '.cache', 'sharpclaw'));
    assert.equal(stateRootPath({ LOCALAPPDATA: path.resolve('/appdata') }, 'win32', '/home/u'), path.join(path.resolve('/appdata'), 'SharpClaw'));
  });

  it('creates the root and the workspace folder 0700 and names the workspace inside', () => {
    const workspace = fs.mkdtempSync(path.join(temp, 'ws-'));
    const dir = workspaceStateFolder(workspace, stateRoot(path.join(temp, 'cache', 'sharpclaw')));
    assert.equal(dir, path.join(temp, 'cache', 'sharpclaw', 'workspaces', workspaceKey(workspace)));
    assert.equal(fs.readFileSync(path.join(dir, 'workspace.txt'), 'utf8'), `${workspace}\n`);
    if (posix) {
      for (const folder of [path.join(temp, 'cache', 'sharpclaw'), path.join(temp, 'cache', 'sharpclaw', 'workspaces'), dir]) assert.equal(fs.statSync(folder).mode & 0o777, 0o700, folder);
    }
  });

  it('gives a linked workspace the folder of its target', () => {
    const workspace = fs.mkdtempSync(path.join(temp, 'ws-'));
    const link = path.join(temp, 'link');
    fs.symlinkSync(workspace, link, 'dir');
    assert.equal(workspaceKey(link), workspaceKey(workspace));
  });

  it('uses the same key as the host for the same path (StateFolderTests.WorkspaceKey_MatchesTheClientsRule)', function () {
    if (!posix || process.platform === 'darwin') this.skip();
    assert.equal(workspaceKey('/nonexistent/sharpclaw-key-vector'), '94b75cc19ac86f7c');
  });

  it('narrows a folder of this user that others may read to 0700', function () {
    if (!posix) this.skip();
    const root = path.join(temp, 'wide');
    fs.mkdirSync(root, { mode: 0o755 });
    fs.chmodSync(root, 0o755);
    stateRoot(root);
    assert.equal(fs.statSync(root).mode & 0o777, 0o700);
  });

  it('refuses a root that is a link, and writes nothing through it', function () {
    if (!posix) this.skip();
    const elsewhere = fs.mkdtempSync(path.join(temp, 'elsewhere-'));
    const root = path.join(temp, 'planted');
    fs.symlinkSync(elsewhere, root, 'dir');
    assert.throws(() => workspaceStateFolder(temp, stateRoot(root)), StateFolderError);
    assert.deepEqual(fs.readdirSync(elsewhere), []);
  });

  it('refuses a workspace folder replaced by a link', function () {
    if (!posix) this.skip();
    const root = stateRoot(path.join(temp, 'root'));
    const elsewhere = fs.mkdtempSync(path.join(temp, 'elsewhere-'));
    fs.mkdirSync(path.join(root, 'workspaces'), { mode: 0o700 });
    fs.symlinkSync(elsewhere, path.join(root, 'workspaces', workspaceKey(temp)), 'dir');
    assert.throws(() => workspaceStateFolder(temp, root), StateFolderError);
    assert.deepEqual(fs.readdirSync(elsewhere), []);
  });

  it('refuses a root below a folder every user may write to (not sticky)', function () {
    if (!posix) this.skip();
    const shared = path.join(temp, 'shared');
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o777);
    assert.throws(() => stateRoot(path.join(shared, 'sharpclaw')), (error: unknown) => error instanceof StateFolderError && /writable by other users/.test(error.message));
    assert.equal(fs.existsSync(path.join(shared, 'sharpclaw')), false);
  });

  it('resolves links above the root once, so the folder handed out has no link on it', function () {
    if (!posix) this.skip();
    const real = fs.mkdtempSync(path.join(temp, 'real-'));
    fs.symlinkSync(real, path.join(temp, 'cache-link'), 'dir');
    assert.equal(stateRoot(path.join(temp, 'cache-link', 'sharpclaw')), path.join(real, 'sharpclaw'));
  });

  it('passes the root to the host on its command line', () => {
    const args = hostArguments({ serverDll: 'server.dll', stateDirectory: '/state' });
    assert.deepEqual(args.slice(args.indexOf('--state-directory'), args.indexOf('--state-directory') + 2), ['--state-directory', '/state']);
  });

  it('names a separate store folder only when one is given (VS Code: the extension storage)', () => {
    assert.ok(!hostArguments({ serverDll: 'server.dll', stateDirectory: '/state' }).includes('--store-directory'));
    const args = hostArguments({ serverDll: 'server.dll', stateDirectory: '/state', storeDirectory: '/ext/globalStorage/sharpclaw.sharpclaw/store' });
    assert.deepEqual(args.slice(args.indexOf('--store-directory'), args.indexOf('--store-directory') + 2), ['--store-directory', '/ext/globalStorage/sharpclaw.sharpclaw/store']);
  });
});
