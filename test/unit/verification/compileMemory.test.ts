// The verifier's memory of each project's last compile (src/engine/verification/compileMemory.ts), over files
// that stand in for a compile's output (obj/…/Name.dll) and MSBuild's CoreCompileInputs.cache: a compile that
// ran is remembered, a skipped one replays it, and a compile that ran with no warnings replaces the memory, so a
// fixed warning stays gone on the next up-to-date build. test/host-e2e/verification/incrementalWarnings.test.ts
// runs the same rules through real dotnet builds (a skipped compile, an affected build, the person's own build).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CompileMemory } from '../../../src/engine/verification/compileMemory';
import type { EvaluatedProject } from '../../../src/engine/verification/projectGraph';
import type { Diagnostic } from '../../../src/engine/verification/report';

describe('compile memory: the warnings of compiles MSBuild skipped', () => {
  let root: string;
  let project: EvaluatedProject;
  let assembly: string;
  let stateDir: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'sharpclaw-compile-memory-'));
    stateDir = path.join(root, 'state');
    const obj = path.join(root, 'src', 'Ledger', 'obj', 'Debug', 'net10.0');
    fs.mkdirSync(obj, { recursive: true });
    assembly = path.join(obj, 'Ledger.dll');
    fs.writeFileSync(path.join(obj, 'Ledger.csproj.CoreCompileInputs.cache'), 'inputs-hash\n');
    project = { path: path.join(root, 'src', 'Ledger', 'Ledger.csproj'), name: 'Ledger', intermediateAssemblies: { 'net10.0': assembly } } as unknown as EvaluatedProject;
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const warning: Diagnostic = { severity: 'warning', code: 'CS0168', message: "The variable 'roundingMode' is declared but never used", file: 'Balance.cs', line: 11, column: 13, endLine: null, endColumn: null, project: '', frameworks: [] };
  let compiles = 0;
  /** Builds a minute apart, so that a compile's output is dated after its build's start and before the next one's. */
  let buildStartedAt = Date.now() - 3_600_000;
  /** One build: `compiled` rewrites the assembly (the compiler ran) and reports `diagnostics`; otherwise MSBuild skipped it and reported none. */
  const build = (compiled: boolean, diagnostics: Diagnostic[] = []) => {
    buildStartedAt += 60_000;
    if (compiled) {
      fs.writeFileSync(assembly, `assembly ${++compiles} ${'x'.repeat(compiles)}`);
      fs.utimesSync(assembly, new Date(buildStartedAt + 5_000), new Date(buildStartedAt + 5_000));
    }
    const memory = CompileMemory.open(stateDir, 'Debug');
    return memory.complete([project], undefined, buildStartedAt, diagnostics.map((d) => ({ ...d, project: project.path })));
  };

  it('replays the warning of a skipped compile, and once the compiler runs with none, the warning is gone from the next skipped compile too', () => {
    build(true, [warning]);
    const skipped = build(false);
    assert.deepEqual(skipped.replayed.map((d) => d.code), ['CS0168']);
    assert.match(skipped.notes.join('\n'), /Ledger was up to date, so MSBuild did not recompile it; its 1 compiler diagnostic\(s\) are from its last compile/);

    // The warning is fixed: the compiler runs and reports nothing, and its memory is replaced.
    const fixed = build(true);
    assert.deepEqual(fixed.replayed, []);
    const again = build(false);
    assert.deepEqual(again.replayed, []);
    assert.deepEqual(again.unknown, []);
    assert.ok(!again.notes.some((note) => /compiler diagnostic/.test(note)), again.notes.join('\n'));
  });

  it('an output written before the build started is not its compile: with no memory of it, its warnings are named as unknown', () => {
    // The person's own build, a second before ours: MSBuild then finds it up to date.
    fs.writeFileSync(assembly, 'assembly of the person\'s build');
    fs.utimesSync(assembly, new Date(buildStartedAt + 59_000), new Date(buildStartedAt + 59_000));
    const first = build(false);
    assert.deepEqual(first.unknown, ['Ledger (net10.0)']);
    assert.match(first.notes.join('\n'), /Warnings not known for Ledger \(net10\.0\)/);
  });
});
