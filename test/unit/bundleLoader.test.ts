// How dist/cli.js loads dist/core.js (src/surfaces/cli/bundleLoader.ts): as require() would, with V8's code cache
// kept private in the state folder, used when V8 accepts it, written again when it rejects it, and never needed.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadBundle } from '../../src/surfaces/cli/bundleLoader';

const posix = process.platform !== 'win32';

interface Probe {
  filename: string;
  dirname: string;
  sibling: string;
  joined: string;
  answer(): number;
}

describe('CLI bundle loader (code cache)', () => {
  let temp: string;
  let bundle: string;
  let state: string;
  let savedStateDir: string | undefined;

  beforeEach(() => {
    temp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sc-bundle-')));
    fs.mkdirSync(path.join(temp, 'dist'));
    bundle = path.join(temp, 'dist', 'core.js');
    fs.writeFileSync(path.join(temp, 'dist', 'sibling.js'), "module.exports = 'from the sibling';\n");
    writeBundle(41);
    state = path.join(temp, 'state');
    savedStateDir = process.env.SHARPCLAW_STATE_DIR;
    process.env.SHARPCLAW_STATE_DIR = state;
  });
  afterEach(() => {
    if (savedStateDir === undefined) delete process.env.SHARPCLAW_STATE_DIR;
    else process.env.SHARPCLAW_STATE_DIR = savedStateDir;
    delete require.cache[bundle];
    fs.rmSync(temp, { recursive: true, force: true });
  });

  // Big enough that V8 has functions to cache; answer() is compiled lazily, on its first call.
  function writeBundle(value: number): void {
    const filler = Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x + ${i}; }`).join('\n');
    fs.writeFileSync(
      bundle,
      `${filler}\nmodule.exports = { filename: __filename, dirname: __dirname, sibling: require('./sibling'), joined: require('node:path').join('a', 'b'),` +
        ` answer() { return f1(${value}); } };\n`,
    );
  }

  // A new process, as each CLI call is: V8's in-process compilation cache would answer a second compile of the same
  // source in this process before the code cache is looked at.
  function loadInNewProcess(): { cache: string; answer: number; kept: boolean } {
    const loader = path.join(__dirname, '..', '..', 'src', 'surfaces', 'cli', 'bundleLoader.js');
    const script = `const l = require(${JSON.stringify(loader)}).loadBundle(${JSON.stringify(bundle)}); const answer = l.exports.answer();` +
      ' process.stdout.write(JSON.stringify({ cache: l.cache, answer, kept: l.keep() }));';
    return JSON.parse(execFileSync(process.execPath, ['-e', script], { env: { ...process.env, SHARPCLAW_STATE_DIR: state }, encoding: 'utf8' })) as { cache: string; answer: number; kept: boolean };
  }

  function cacheFiles(): string[] {
    const folder = path.join(state, 'code-cache');
    return fs.existsSync(folder) ? fs.readdirSync(folder).sort() : [];
  }

  it('runs the bundle as require() would: its own __filename, __dirname and require, in require.cache', () => {
    fs.mkdirSync(state);
    const loaded = loadBundle<Probe>(bundle);
    assert.equal(loaded.exports.filename, bundle);
    assert.equal(loaded.exports.dirname, path.dirname(bundle));
    assert.equal(loaded.exports.sibling, 'from the sibling');
    assert.equal(loaded.exports.joined, path.join('a', 'b'));
    assert.equal(loaded.exports.answer(), 42);
    assert.equal(require.cache[bundle]?.exports, loaded.exports);
  });

  it('keeps the cache private in the state folder, then the next process uses it', () => {
    fs.mkdirSync(state);
    const first = loadBundle<Probe>(bundle);
    assert.equal(first.cache, 'none');
    first.exports.answer();
    assert.equal(first.keep(), true);
    assert.equal(first.keep(), false, 'written once');
    const files = cacheFiles();
    assert.equal(files.length, 1);
    assert.match(files[0]!, /^core-[0-9a-f]{16}\.bin$/);
    if (posix) {
      assert.equal(fs.statSync(path.join(state, 'code-cache')).mode & 0o777, 0o700);
      assert.equal(fs.statSync(path.join(state, 'code-cache', files[0]!)).mode & 0o777, 0o600);
    }

    assert.deepEqual(loadInNewProcess(), { cache: 'used', answer: 42, kept: false });
    assert.deepEqual(cacheFiles(), files, 'an accepted cache is not written again');
  });

  it('names the cache by the bundle: a rebuilt bundle gets its own file and runs its new code', () => {
    fs.mkdirSync(state);
    loadBundle<Probe>(bundle).keep();
    writeBundle(99);
    const rebuilt = loadBundle<Probe>(bundle);
    assert.equal(rebuilt.cache, 'none');
    assert.equal(rebuilt.exports.answer(), 100);
    rebuilt.keep();
    assert.equal(cacheFiles().length, 2);
  });

  it('runs the bundle when V8 rejects a damaged cache, and writes a good one over it', () => {
    fs.mkdirSync(state);
    assert.deepEqual(loadInNewProcess(), { cache: 'none', answer: 42, kept: true });
    const file = path.join(state, 'code-cache', cacheFiles()[0]!);
    fs.writeFileSync(file, Buffer.alloc(fs.statSync(file).size, 7));
    assert.deepEqual(loadInNewProcess(), { cache: 'rejected', answer: 42, kept: true });
    assert.deepEqual(loadInNewProcess(), { cache: 'used', answer: 42, kept: false });
  });

  it('keeps only the newest few cache files', () => {
    fs.mkdirSync(path.join(state, 'code-cache'), { recursive: true, mode: 0o700 });
    for (let i = 0; i < 5; i++) {
      const old = path.join(state, 'code-cache', `core-old${i}.bin`);
      fs.writeFileSync(old, 'x');
      fs.utimesSync(old, new Date(2020, 0, 1 + i), new Date(2020, 0, 1 + i));
    }
    loadBundle<Probe>(bundle).keep();
    const files = cacheFiles();
    assert.equal(files.length, 4);
    assert.deepEqual(files.filter((name) => name.startsWith('core-old')), ['core-old2.bin', 'core-old3.bin', 'core-old4.bin']);
  });

  it('creates no state folder, and keeps nothing, when there is none yet (help, --version)', () => {
    const loaded = loadBundle<Probe>(bundle);
    assert.equal(loaded.cache, 'off');
    assert.equal(loaded.exports.answer(), 42);
    assert.equal(loaded.keep(), false);
    assert.equal(fs.existsSync(state), false);
  });

  it('keeps nothing in a state folder that is not private, and still runs the bundle', function () {
    if (!posix) this.skip();
    fs.mkdirSync(path.join(temp, 'shared'), { mode: 0o777 });
    fs.chmodSync(path.join(temp, 'shared'), 0o777);
    process.env.SHARPCLAW_STATE_DIR = path.join(temp, 'shared', 'state');
    fs.mkdirSync(process.env.SHARPCLAW_STATE_DIR);
    const loaded = loadBundle<Probe>(bundle);
    assert.equal(loaded.cache, 'off');
    assert.equal(loaded.exports.answer(), 42);
    assert.equal(fs.existsSync(path.join(process.env.SHARPCLAW_STATE_DIR, 'code-cache')), false);
  });

  it('leaves a bundle that throws out of require.cache and throws its error', () => {
    fs.writeFileSync(bundle, "throw new Error('broken bundle');\n");
    assert.throws(() => loadBundle(bundle), /broken bundle/);
    assert.equal(require.cache[bundle], undefined);
  });
});
