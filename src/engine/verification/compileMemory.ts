// Remembers each project's last compile diagnostics, so that a build in which MSBuild skipped
// CoreCompile (the project was up to date) still reports the warnings its code has: a report
// never claims fewer warnings than the code has without saying so.
//
// One entry per project, configuration and target framework, in the verifier's per-user state
// folder (never the workspace), keyed by the compile's inputs and output: the content of
// obj/…/<project>.CoreCompileInputs.cache (MSBuild's own hash of the compile items, references
// and options) and the size and time of the intermediate assembly (obj/…/Name.dll, which the
// compiler rewrites each time it runs). After a build:
//   - the assembly changed: the compiler ran; its diagnostics in this build are remembered;
//   - unchanged, with compiler diagnostics: it ran and failed; nothing is remembered;
//   - unchanged, no diagnostics: MSBuild skipped it; a matching entry's diagnostics are replayed;
//   - unchanged, no matching entry: the output was compiled outside SharpClaw (the person's own
//     build). Its warnings are named as unknown rather than recompiled: forcing that compile made
//     the first verify after a person's build cost a full rebuild (issue 39: 277 s against
//     dotnet build's 14 s on a real solution). The next compile of that project fills the memory.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EvaluatedProject } from './projectGraph';
import { readWorkspaceText } from '../files/boundedRead';
import type { Diagnostic } from './report';

const memoryVersion = 1;

interface Entry {
  inputs: string;
  output: string;
  diagnostics: Diagnostic[];
}

interface MemoryFile {
  version: number;
  entries: Record<string, Entry>;
}

/** One compiler invocation of a build: a project for one target framework. */
interface CompileUnit {
  key: string;
  project: EvaluatedProject;
  framework: string;
  assembly: string;
  inputsCache: string;
}

/**
 * How far a file's modification time may lag the clock that dated the build's start: Linux stamps files
 * from a coarse clock, a tick (up to 10 ms) behind. A compile starts seconds after its build does, so this
 * never counts a person's build that ended before ours as ours.
 */
const fileClockLagMs = 20;

export interface RememberedDiagnostics {
  /** Diagnostics of skipped compiles, to add to the build's. */
  replayed: Diagnostic[];
  /** Skipped compiles SharpClaw has no record of ("Project (tfm)"): their warnings are unknown. */
  unknown: string[];
  /** Sentences for the report's notes. */
  notes: string[];
}

/** Diagnostics the compiler (or an analyzer it runs) reports; MSBuild, NuGet and SDK ones are re-reported by every build. */
export function isCompilerDiagnostic(diagnostic: Diagnostic): boolean {
  return diagnostic.code !== null && !/^(MSB|NU|NETSDK)\d/i.test(diagnostic.code);
}

/** An assembly's size and modification time, or undefined when it is missing. */
function statOf(file: string): { stamp: string; mtimeMs: number } | undefined {
  try {
    const stat = fs.statSync(file);
    return { stamp: `${stat.size}:${stat.mtimeMs}`, mtimeMs: stat.mtimeMs };
  } catch {
    return undefined;
  }
}

function readText(file: string): string {
  return readWorkspaceText(file) ?? 'missing';
}

/** A bounded list for a note: a 50-project solution after a person's own build can leave hundreds of compiles unseen. */
export function namedUpTo(names: readonly string[], max: number): string {
  return names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

const samePath = (a: string | null, b: string) => a !== null && path.resolve(a) === path.resolve(b);

/** The compiler invocations of a build of `projects`: one per project and target framework (only `framework`'s when one is asked). */
function compileUnits(projects: readonly EvaluatedProject[], framework: string | undefined): CompileUnit[] {
  return projects.flatMap((project) =>
    Object.entries(project.intermediateAssemblies ?? {})
      .filter(([tfm]) => !framework || tfm === framework)
      .map(([tfm, assembly]) => ({
        key: `${project.path}|${tfm}`,
        project,
        framework: tfm,
        assembly,
        inputsCache: path.join(path.dirname(assembly), `${path.basename(project.path)}.CoreCompileInputs.cache`),
      })),
  );
}

export class CompileMemory {
  private constructor(
    private readonly file: string,
    private readonly memory: MemoryFile,
  ) {}

  /** The memory of one workspace and configuration, stored in `stateDir`. */
  static open(stateDir: string, configuration: string): CompileMemory {
    const file = path.join(stateDir, `compile-diagnostics-${configuration}.json`);
    let memory: MemoryFile = { version: memoryVersion, entries: {} };
    try {
      const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as MemoryFile;
      if (parsed.version === memoryVersion && parsed.entries && typeof parsed.entries === 'object') memory = parsed;
    } catch {
      // Missing or unreadable: nothing remembered, so every up-to-date output is recompiled once.
    }
    return new CompileMemory(file, memory);
  }

  /**
   * Call after a build that finished (passed or failed), with the projects it built, the time it started
   * (Date.now()) and its diagnostics. Remembers what the compiler reported and returns what it did not
   * re-report because MSBuild skipped the compile.
   */
  complete(projects: readonly EvaluatedProject[], framework: string | undefined, buildStartedAt: number, diagnostics: readonly Diagnostic[]): RememberedDiagnostics {
    const replayed: Diagnostic[] = [];
    const replayedFrom = new Map<string, number>();
    const unknown: string[] = [];
    for (const unit of compileUnits(projects, framework)) {
      const own = diagnostics.filter(
        (d) => isCompilerDiagnostic(d) && samePath(d.project, unit.project.path) && (d.frameworks.length === 0 || d.frameworks.includes(unit.framework)),
      );
      const after = statOf(unit.assembly);
      if (after && after.mtimeMs >= buildStartedAt - fileClockLagMs) {
        this.memory.entries[unit.key] = { inputs: readText(unit.inputsCache), output: after.stamp, diagnostics: own };
      } else if (own.length > 0 || !after) {
        delete this.memory.entries[unit.key];
      } else if (this.matches(unit, after.stamp)) {
        const remembered = this.memory.entries[unit.key]!.diagnostics;
        replayed.push(...remembered);
        if (remembered.length > 0) replayedFrom.set(unit.project.name, (replayedFrom.get(unit.project.name) ?? 0) + remembered.length);
      } else {
        unknown.push(`${unit.project.name} (${unit.framework})`);
      }
    }
    this.save();
    const notes: string[] = [];
    for (const [name, count] of replayedFrom) {
      notes.push(`${name} was up to date, so MSBuild did not recompile it; its ${count} compiler diagnostic(s) are from its last compile, unchanged since.`);
    }
    unknown.sort();
    if (unknown.length > 0) {
      notes.push(
        // Not "up to date": a flavour the run's build did not need (GuardClauses' netstandard2.1 beside the tests' net8.0) was not built at all.
        `Warnings not known for ${namedUpTo(unknown, 8)}: the compiler did not run for ${unknown.length === 1 ? 'it' : 'them'} in this build, and SharpClaw has not seen the compile that produced ${unknown.length === 1 ? 'its' : 'their'} current output (your own build, for example). They are known from the next compile; to have them now, run dotnet clean, then verify.`,
      );
    }
    return { replayed, unknown, notes };
  }

  private matches(unit: CompileUnit, output: string): boolean {
    const entry = this.memory.entries[unit.key];
    return entry !== undefined && entry.output === output && entry.inputs === readText(unit.inputsCache);
  }

  private save(): void {
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      const temp = `${this.file}.${process.pid}.tmp`;
      fs.writeFileSync(temp, JSON.stringify(this.memory));
      fs.renameSync(temp, this.file);
    } catch {
      // A memory that cannot be written means the next up-to-date build recompiles once.
    }
  }
}
