// Writing a file that must stay inside one folder (src/engine/files/confinedFile.ts), on real
// folders and links: a link anywhere below the folder is refused naming it and its target, a path
// outside the folder and a file with a second hard link are refused, a write keeps the old file's
// mode, creates missing folders, and leaves no temporary file behind.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConfinedFileError, confinedPath, writeConfinedFile } from '../../src/engine/files/confinedFile';

const what = 'MCP configuration';
const refused = (pattern: RegExp) => (error: unknown) => error instanceof ConfinedFileError && error.code === 'invalid_request' && pattern.test(error.message);

describe('confined file writes', () => {
  let root: string;
  let project: string;
  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sc-confined-')));
    project = path.join(root, 'project');
    fs.mkdirSync(project);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('creates missing folders and the file, and replaces it keeping its mode, with no temporary file left', () => {
    const file = path.join(project, '.cursor', 'mcp.json');
    writeConfinedFile(confinedPath(project, file, what), '{}\n', what);
    assert.equal(fs.readFileSync(file, 'utf8'), '{}\n');
    fs.chmodSync(file, 0o600);
    writeConfinedFile(confinedPath(project, file, what), '{ "a": 1 }\n', what);
    assert.equal(fs.readFileSync(file, 'utf8'), '{ "a": 1 }\n');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(fs.readdirSync(path.dirname(file)), ['mcp.json']);
  });

  it('refuses a link on any component below the folder, naming it and its target', () => {
    fs.mkdirSync(path.join(root, 'elsewhere'));
    fs.symlinkSync(path.join(root, 'elsewhere'), path.join(project, '.vscode'));
    assert.throws(() => confinedPath(project, path.join(project, '.vscode', 'mcp.json'), what), refused(/\.vscode is a link \(to .*elsewhere\); SharpClaw writes MCP configuration only into a regular file inside .*project, never through a link, so nothing was written\./));
    fs.writeFileSync(path.join(root, 'target.json'), '{}');
    fs.symlinkSync(path.join(root, 'target.json'), path.join(project, '.mcp.json'));
    assert.throws(() => confinedPath(project, path.join(project, '.mcp.json'), what), refused(/\.mcp\.json is a link/));
  });

  it('accepts a base folder reached through a link (the person chose it) and checks only below it', () => {
    fs.symlinkSync(project, path.join(root, 'via-link'));
    const confined = confinedPath(path.join(root, 'via-link'), path.join(root, 'via-link', '.mcp.json'), what);
    assert.equal(confined.file, path.join(project, '.mcp.json'));
  });

  it('accepts a file whose name starts with two dots: only a .. component climbs out', () => {
    assert.equal(confinedPath(project, path.join(project, '..notes.md'), what).file, path.join(fs.realpathSync(project), '..notes.md'));
    assert.throws(() => confinedPath(project, path.join(project, '..', 'x.json'), what), refused(/is not inside/));
  });

  it('refuses a path outside the folder and a file that shares its bytes through a hard link', () => {
    assert.throws(() => confinedPath(project, path.join(root, 'x.json'), what), refused(/is not inside .*project/));
    fs.writeFileSync(path.join(root, 'shared.json'), '{}');
    fs.linkSync(path.join(root, 'shared.json'), path.join(project, '.mcp.json'));
    assert.throws(() => confinedPath(project, path.join(project, '.mcp.json'), what), refused(/\.mcp\.json has 2 hard links/));
  });
});
