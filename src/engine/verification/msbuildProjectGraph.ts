// ProjectGraphSource over `dotnet msbuild -getProperty/-getItem -getResultOutputFile` (MSBuild
// 17.8+): one evaluation process per project, and one more per framework of a multi-targeted
// project (its outer evaluation has no items), with bounded parallelism. Results are cached per
// project under the state folder, keyed by everything that can change an evaluation that we can
// see cheaply: the configuration, the SDKs, every build input in the workspace (props, targets,
// project and solution files, global.json, NuGet.config), the files below the project folder
// and its restore outputs.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { commandLine, dotnetEnvironment, runProcess } from './processRunner';
import { classifyTestProject, EvaluationError, type EvaluateOptions, type EvaluatedProject, type ProjectGraph, type ProjectGraphSource } from './projectGraph';

const properties = ['IsTestProject', 'IsTestingPlatformApplication', 'TestingPlatformDotnetTestSupport', 'TargetFramework', 'TargetFrameworks', 'OutputType', 'ProjectAssetsFile', 'MSBuildAllProjects', 'TargetPath'];
const items = ['Compile', 'ProjectReference', 'PackageReference', 'EmbeddedResource', 'AdditionalFiles', 'Content', 'None', 'IntermediateAssembly'];
const cacheVersion = 4;

interface RawEvaluation {
  Properties?: Record<string, string>;
  Items?: Record<string, Array<Record<string, string>>>;
}

interface CacheFile {
  version: number;
  entries: Record<string, { key: string; project: EvaluatedProject }>;
}

const skippedFolders = new Set(['bin', 'obj', '.git', 'node_modules', 'TestResults', '.vs', '.sharpclaw']);
export const buildInputPattern = /(\.(props|targets|csproj|fsproj|vbproj|proj|sln|slnx|slnf|rsp)$)|(^(global\.json|nuget\.config|packages\.lock\.json|directory\.packages\.props|\.editorconfig|\.globalconfig)$)/i;

function walk(dir: string, visit: (file: string, stat: fs.Stats) => void, depth = 0): void {
  if (depth > 12) return;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skippedFolders.has(entry.name)) walk(full, visit, depth + 1);
    } else {
      try {
        visit(full, fs.statSync(full));
      } catch {
        // Removed while we looked.
      }
    }
  }
}

function statKey(file: string): string {
  try {
    const stat = fs.statSync(file);
    return `${file}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
  } catch {
    return `${file}:missing`;
  }
}

export interface MsbuildProjectGraphOptions {
  dotnet?: string;
  /** Where evaluations are cached; no cache when omitted. */
  cacheFile?: string;
  parallelism?: number;
}

/** Project files listed (by the solution or a reference) that do not exist: named, instead of a failed process start in their missing folder. */
function missingProjects(projects: readonly string[], workspaceFolder: string): EvaluationError {
  const names = projects.map((project) => path.relative(workspaceFolder, project) || project);
  return new EvaluationError(
    `${names.length === 1 ? 'A listed project file does not exist' : `${names.length} listed project files do not exist`}: ${names.join(', ')}. Restore them or remove them from the solution.`,
    'failed',
  );
}

export class MsbuildProjectGraphSource implements ProjectGraphSource {
  private readonly dotnet: string;
  private readonly parallelism: number;

  constructor(private readonly options: MsbuildProjectGraphOptions = {}) {
    this.dotnet = options.dotnet ?? 'dotnet';
    this.parallelism = Math.max(1, options.parallelism ?? Math.min(4, os.cpus().length));
  }

  async evaluate(roots: readonly string[], options: EvaluateOptions): Promise<ProjectGraph> {
    const started = performance.now();
    const deadline = Date.now() + options.timeoutMs;
    const cache = this.readCache();
    const sharedKey = this.sharedFingerprint(options);
    const projects = new Map<string, EvaluatedProject>();
    const queued = new Set<string>();
    const queue: string[] = [];
    let evaluated = 0;
    let cached = 0;
    const enqueue = (project: string) => {
      const full = path.resolve(project);
      if (queued.has(full)) return;
      queued.add(full);
      queue.push(full);
    };
    roots.forEach(enqueue);
    const missingRoots = queue.filter((project) => !fs.existsSync(project));
    if (missingRoots.length > 0) throw missingProjects(missingRoots, options.workspaceFolder);

    let failure: unknown;
    const work = async (): Promise<void> => {
      while (queue.length > 0 && failure === undefined) {
        const project = queue.shift()!;
        try {
          const key = this.projectKey(project, sharedKey);
          const hit = cache.entries[project];
          let result: EvaluatedProject;
          if (hit && hit.key === key) {
            result = hit.project;
            cached++;
          } else {
            if (!fs.existsSync(project)) throw missingProjects([project], options.workspaceFolder);
            result = await this.evaluateProject(project, options, deadline);
            cache.entries[project] = { key, project: result };
            evaluated++;
          }
          projects.set(project, result);
          result.projectReferences.forEach(enqueue);
        } catch (error) {
          failure ??= error;
        }
      }
    };
    // Workers pick up references as they are discovered; keep going until the queue stays empty.
    while (queue.length > 0 && failure === undefined) {
      await Promise.all(Array.from({ length: Math.min(this.parallelism, queue.length) }, work));
    }
    if (failure !== undefined) throw failure;
    if (evaluated > 0) this.writeCache(cache);
    return { projects, evaluated, cached, durationMs: Math.round(performance.now() - started) };
  }

  private async evaluateProject(project: string, options: EvaluateOptions, deadline: number): Promise<EvaluatedProject> {
    const outer = await this.runEvaluation(project, undefined, options, deadline);
    const props = outer.Properties ?? {};
    const frameworks = (props.TargetFrameworks ?? '').split(';').map((f) => f.trim()).filter(Boolean);
    const single = (props.TargetFramework ?? '').trim();
    const inner: Array<[string, RawEvaluation]> = single
      ? [[single, outer]]
      : frameworks.length > 0
        ? await Promise.all(frameworks.map(async (tfm) => [tfm, await this.runEvaluation(project, tfm, options, deadline)] as [string, RawEvaluation]))
        : [['', outer]];
    const owned = new Set<string>();
    const references = new Set<string>();
    const packages = new Set<string>();
    const imports = new Set<string>();
    const targetPaths: Record<string, string> = {};
    const intermediateAssemblies: Record<string, string> = {};
    // IsTestProject: true in any framework wins, else an explicit false, else empty.
    let isTestProject = '';
    let testingPlatformApplication = false;
    let testingPlatformDotnetTestSupport = false;
    let assetsFile: string | null = null;
    let outputType = props.OutputType ?? '';
    for (const [tfm, evaluation] of inner) {
      const p = evaluation.Properties ?? {};
      const explicit = (p.IsTestProject ?? '').trim().toLowerCase();
      if (explicit === 'true' || (explicit === 'false' && isTestProject === '')) isTestProject = explicit;
      if ((p.IsTestingPlatformApplication ?? '').trim().toLowerCase() === 'true') testingPlatformApplication = true;
      if ((p.TestingPlatformDotnetTestSupport ?? '').trim().toLowerCase() === 'true') testingPlatformDotnetTestSupport = true;
      if (p.ProjectAssetsFile) assetsFile = p.ProjectAssetsFile;
      if (p.OutputType) outputType = p.OutputType;
      if (p.TargetPath && tfm) targetPaths[tfm] = p.TargetPath;
      for (const file of (p.MSBuildAllProjects ?? '').split(';').map((f) => f.trim()).filter(Boolean)) imports.add(file);
      const i = evaluation.Items ?? {};
      for (const type of ['Compile', 'EmbeddedResource', 'AdditionalFiles', 'Content', 'None']) {
        for (const item of i[type] ?? []) owned.add(path.resolve(path.dirname(project), item.FullPath ?? item.Identity ?? ''));
      }
      for (const item of i.ProjectReference ?? []) references.add(path.resolve(path.dirname(project), item.FullPath ?? item.Identity ?? ''));
      for (const item of i.PackageReference ?? []) if (item.Identity) packages.add(item.Identity);
      const assembly = i.IntermediateAssembly?.[0];
      if (assembly && tfm) intermediateAssemblies[tfm] = path.resolve(path.dirname(project), assembly.FullPath ?? assembly.Identity ?? '');
    }
    const testProjectSource = classifyTestProject({ isTestProject, testingPlatformApplication, packageReferences: [...packages] });
    return {
      path: project,
      name: path.basename(project, path.extname(project)),
      isTestProject: testProjectSource !== null,
      testProjectSource,
      testingPlatformApplication,
      testingPlatformDotnetTestSupport,
      targetFrameworks: single ? [single] : frameworks,
      multiTargeted: !single && frameworks.length > 1,
      outputType,
      assetsFile,
      targetPaths,
      intermediateAssemblies,
      ownedFiles: [...owned].sort(),
      projectReferences: [...references].sort(),
      packageReferences: [...packages].sort(),
      imports: [...imports],
    };
  }

  private async runEvaluation(project: string, framework: string | undefined, options: EvaluateOptions, deadline: number): Promise<RawEvaluation> {
    // Next to the cache, in the private state folder; the shared temp folder only without a cache.
    const outFile = path.join(this.options.cacheFile ? path.dirname(this.options.cacheFile) : os.tmpdir(), `sharpclaw-eval-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
    const args = [
      'msbuild',
      project,
      '-nologo',
      ...properties.map((p) => `-getProperty:${p}`),
      ...items.map((i) => `-getItem:${i}`),
      `-getResultOutputFile:${outFile}`,
      `-p:Configuration=${options.configuration}`,
      ...(framework ? [`-p:TargetFramework=${framework}`] : []),
    ];
    const remaining = deadline - Date.now();
    const outcome = await runProcess(this.dotnet, args, {
      cwd: path.dirname(project),
      timeoutMs: Math.max(1, remaining),
      env: dotnetEnvironment,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const relative = path.relative(options.workspaceFolder, project) || project;
    const succeeded = outcome.kind === 'exited' && outcome.exitCode === 0;
    options.onStep?.({
      kind: 'evaluate',
      target: framework ? `${relative} (${framework})` : relative,
      commandLine: commandLine(this.dotnet, args),
      cwd: path.dirname(project),
      startedAt: outcome.startedAt,
      durationMs: outcome.durationMs,
      outcome: outcome.kind,
      exitCode: outcome.exitCode,
      log: succeeded ? { text: '', truncated: false, totalBytes: outcome.log.totalBytes } : outcome.log,
    });
    try {
      if (outcome.kind === 'timedOut') throw new EvaluationError(`Evaluating ${relative} did not finish within the timeout.`, 'timedOut');
      if (outcome.kind === 'cancelled') throw new EvaluationError(`Evaluating ${relative} was cancelled.`, 'cancelled');
      if (outcome.kind === 'failedToStart') throw new EvaluationError(`Could not start ${this.dotnet}: ${outcome.startError ?? 'unknown error'}`, 'failed');
      if (outcome.exitCode !== 0 || !fs.existsSync(outFile)) {
        throw new EvaluationError(`Evaluating ${relative} failed with exit code ${outcome.exitCode}.`, 'failed', outcome.log.text);
      }
      return JSON.parse(fs.readFileSync(outFile, 'utf8')) as RawEvaluation;
    } finally {
      fs.rmSync(outFile, { force: true });
    }
  }

  private sharedFingerprint(options: EvaluateOptions): string {
    const hash = createHash('sha256');
    hash.update(`v${cacheVersion}\0${options.configuration}\0${this.dotnet}\0`);
    hash.update(sdkFingerprint(this.dotnet));
    const inputs: string[] = [];
    walk(options.workspaceFolder, (file, stat) => {
      if (buildInputPattern.test(path.basename(file))) inputs.push(`${file}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`);
    });
    hash.update(inputs.sort().join('\n'));
    return hash.digest('hex');
  }

  private projectKey(project: string, sharedKey: string): string {
    const hash = createHash('sha256');
    hash.update(sharedKey);
    hash.update(statKey(project));
    const listing: string[] = [];
    walk(path.dirname(project), (file) => listing.push(file));
    hash.update(listing.sort().join('\n'));
    const obj = path.join(path.dirname(project), 'obj');
    try {
      for (const entry of fs.readdirSync(obj).sort()) {
        if (/\.(nuget\.g\.props|nuget\.g\.targets)$|^project\.assets\.json$/.test(entry)) hash.update(statKey(path.join(obj, entry)));
      }
    } catch {
      hash.update('no-obj');
    }
    return hash.digest('hex');
  }

  private readCache(): CacheFile {
    if (!this.options.cacheFile) return { version: cacheVersion, entries: {} };
    try {
      const parsed = JSON.parse(fs.readFileSync(this.options.cacheFile, 'utf8')) as CacheFile;
      if (parsed.version === cacheVersion && parsed.entries && typeof parsed.entries === 'object') return parsed;
    } catch {
      // Missing or unreadable: start over.
    }
    return { version: cacheVersion, entries: {} };
  }

  private writeCache(cache: CacheFile): void {
    if (!this.options.cacheFile) return;
    try {
      fs.mkdirSync(path.dirname(this.options.cacheFile), { recursive: true });
      const temp = `${this.options.cacheFile}.${process.pid}.tmp`;
      fs.writeFileSync(temp, JSON.stringify(cache));
      fs.renameSync(temp, this.options.cacheFile);
    } catch {
      // A cache that cannot be written only costs time.
    }
  }
}

/** The SDKs next to the dotnet we run: installing or removing one invalidates cached evaluations. */
function sdkFingerprint(dotnet: string): string {
  const candidates = path.isAbsolute(dotnet) ? [dotnet] : (process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, dotnet));
  for (const candidate of candidates) {
    try {
      const root = path.dirname(fs.realpathSync(candidate));
      return `${root}:${fs.readdirSync(path.join(root, 'sdk')).sort().join(',')}`;
    } catch {
      // Try the next one.
    }
  }
  return 'unknown-sdk';
}
