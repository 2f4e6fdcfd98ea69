// The compact text agents receive: exact formats from the bridge-tools spec.
import * as assert from 'node:assert/strict';
import type { FindReferencesResult, TypeHierarchyResult } from '../../src/engine/protocol/symbols';
import type { SolutionInspectResult } from '../../src/engine/protocol/semantic';
import { renderExcludedAnalyzers, renderSolutionInspect } from '../../src/engine/tools/solutionInspect/renderSolutionInspect';
import { renderFindReferences, renderLocationLines, renderTypeHierarchy } from '../../src/engine/tools/symbols/renderSymbols';

const symbol = { name: 'Calculator.Core.Calculator.Add(int, int)', kind: 'method', container: 'Calculator.Core.Calculator', locations: [{ path: 'src/Calculator.cs', line: 12, character: 9 }] };

describe('compact renderings', () => {
  it('lists each distinct excluded-analyzer set once, with every project and flavour that excludes it (seen on App-vNext/Polly: 40 KB)', () => {
    const banned = { path: '/p/banned.dll', name: 'BannedApiAnalyzers.dll', origin: 'package' as const, package: 'microsoft.codeanalysis.bannedapianalyzers/5.6.0' };
    const sonar = { path: '/p/sonar.dll', name: 'SonarAnalyzer.CSharp.dll', origin: 'package' as const, package: 'sonaranalyzer.csharp/10.32.0' };
    const flavours = (project: string, analyzers: (typeof banned)[]) => ['net10.0', 'net8.0', 'net9.0'].map((targetFramework) => ({ project, targetFramework, analyzers }));
    assert.deepEqual(
      renderExcludedAnalyzers([...flavours('test/A.Tests.csproj', [banned, sonar]), ...flavours('test/B.Tests.csproj', [banned, sonar]), { project: 'src/Gen.csproj', targetFramework: null, analyzers: [banned] }]),
      [
        'excluded analyzers/generators (project- or package-supplied; results miss what they add or report):',
        '  test/A.Tests.csproj [net10.0, net8.0, net9.0], test/B.Tests.csproj [net10.0, net8.0, net9.0]: BannedApiAnalyzers.dll (microsoft.codeanalysis.bannedapianalyzers/5.6.0), SonarAnalyzer.CSharp.dll (sonaranalyzer.csharp/10.32.0)',
        '  src/Gen.csproj: BannedApiAnalyzers.dll (microsoft.codeanalysis.bannedapianalyzers/5.6.0)',
      ],
    );
  });

  it('writes locations as one line per file with line:character positions', () => {
    assert.deepEqual(
      renderLocationLines([
        { path: 'src/Calculator.cs', line: 12, character: 9 },
        { path: 'src/Calculator.cs', line: 40, character: 17 },
        { path: 'src/Program.cs', line: 3, character: 1 },
      ]),
      ['src/Calculator.cs 12:9 40:17', 'src/Program.cs 3:1'],
    );
  });

  it('ends a truncated page of references with the total and the next offset', () => {
    const result: FindReferencesResult = {
      symbol,
      project: 'Calculator.Core',
      targetFramework: 'net10.0',
      references: [{ path: 'src/Program.cs', line: 3, character: 5, context: null }],
      total: 300,
      offset: 0,
      limit: 50,
      truncated: true,
      nextOffset: 50,
      omittedGenerated: 2,
      excludedAnalyzers: null,
    };
    const text = renderFindReferences(result);
    assert.match(text, /^src\/Program\.cs 3:5$/m);
    assert.match(text, /^2 source-generated occurrences left out$/m);
    assert.match(text, /^project: Calculator\.Core \(net10\.0\)$/m);
    assert.equal(text.split('\n').at(-1), 'truncated: 300 locations in total, next offset: 50. Raise limit or narrow the query.');
  });

  it('says "no references" and an offset past the end in words', () => {
    const base = { symbol, project: 'P', targetFramework: null, offset: 0, limit: 50, truncated: false, nextOffset: null, omittedGenerated: 0, excludedAnalyzers: null };
    assert.match(renderFindReferences({ ...base, references: [], total: 0 }), /^no references$/m);
    assert.match(renderFindReferences({ ...base, references: [], total: 3, offset: 10 }), /^offset 10 is past the last of 3 references$/m);
  });

  it('gives each hierarchy relationship its own section, empty ones in words', () => {
    const empty = { items: [], total: 0, truncated: false };
    const result: TypeHierarchyResult = {
      symbol: { ...symbol, name: 'Calculator.Core.ICalculator', kind: 'interface' },
      project: 'Calculator.Core',
      targetFramework: 'net10.0',
      baseTypes: empty,
      interfaces: empty,
      derivedTypes: empty,
      implementations: { items: [{ ...symbol, name: 'Calculator.Core.Calculator', kind: 'class' }], total: 3, truncated: true },
      limit: 1,
      excludedAnalyzers: [{ project: 'src/X.csproj', targetFramework: 'net10.0', analyzers: [{ path: '/p/Gen.dll', name: 'Gen.dll', origin: 'package', package: 'Gen/1.0.0' }] }],
    };
    const text = renderTypeHierarchy(result);
    assert.match(text, /## base types\nno base types\n## interfaces\nno interfaces\n## derived types\nno derived types\n## implementations\nsrc\/Calculator\.cs:12:9 class Calculator\.Core\.Calculator\ntruncated: 3 implementations in total/);
    assert.match(text, /^excluded: 1 project\/package analyzer\(s\)\/generator\(s\) in 1 project\(s\) not run \(full list: dotnet_solution_inspect\)$/m);
    const gaps = [{ generator: 'Markers.Gen', origin: 'project generator', projectCount: 1, projects: ['Models/Models.csproj'] }];
    assert.match(renderTypeHierarchy({ ...result, generatorGaps: gaps }), /^truncated: 3 implementations .*\nmay be incomplete: Markers\.Gen \(project generator, not run\) could implement it in Models\/Models\.csproj\nproject: /m);
    assert.match(renderTypeHierarchy({ ...result, symbol: { ...result.symbol, kind: 'class' }, generatorGaps: gaps }), /could derive from it in Models/);
    // A generator that may declare the type itself: the empty sections are only what the compiled code shows.
    const declaring = [{ generator: 'Jab', origin: 'project generator', projectCount: 2, projects: ['A/A.csproj', 'B/B.csproj'], declares: 'IServiceProvider<T>', unresolvedUses: 4 }];
    assert.match(
      renderTypeHierarchy({ ...result, implementations: empty, generatorGaps: declaring }),
      /## implementations\nno implementations in the compiled code\nJab \(project generator, not run\) may declare IServiceProvider<T>: 4 uses \(base types, attributes, typeof\) in A\/A\.csproj, B\/B\.csproj name it and bind to nothing, so what implements or uses it there cannot be listed\n/,
    );
  });

  it('renders a multi-targeted project with the framework its compilation used', () => {
    const result: SolutionInspectResult = {
      workspace: '/ws',
      target: 'Lib.csproj',
      configuration: 'Debug',
      targetFramework: null,
      loadStatus: 'partial',
      partialLoad: [{ path: 'Broken/Broken.csproj', reason: 'The SDK was not found.' }],
      loadWarnings: [],
      projects: [
        {
          path: 'Lib.csproj',
          name: 'Lib',
          isTestProject: false,
          isTestProjectSource: 'absent',
          outputType: 'Library',
          targetFrameworks: ['net8.0', 'net10.0'],
          restoredTargetFrameworks: ['net8.0', 'net10.0'],
          packages: [],
          projectReferences: [],
          assetsFile: '/ws/obj/project.assets.json',
          compilations: [{ name: 'Lib(net8.0)', targetFramework: 'net8.0', documentCount: 3, loaded: true }],
        },
      ],
      excludedAnalyzers: [],
      dynamicImports: [],
      fromCache: false,
      fromSnapshot: false,
    };
    const text = renderSolutionInspect(result);
    assert.match(text, /^Lib\.csproj: library$/m);
    assert.match(renderSolutionInspect({ ...result, fromCache: true, fromSnapshot: true }), /^target: .*, load partial, from approved snapshot$/m);
    assert.match(text, /^  frameworks: net8\.0, net10\.0; not compiled: net10\.0$/m);
    assert.match(text, /^partial load: Broken\/Broken\.csproj: The SDK was not found\.$/m);

    // Every project the solution lists is counted; those not loaded are named with why (a 21-project .slnx said "19 projects").
    const mixed = renderSolutionInspect({
      ...result,
      loadStatus: 'complete',
      partialLoad: [],
      listedProjects: 3,
      notLoaded: [
        { path: 'FsLib/FsLib.fsproj', reason: 'F# project: SharpClaw loads C# projects only' },
        { path: 'VbLib/VbLib.vbproj', reason: 'Visual Basic project: SharpClaw loads C# projects only' },
      ],
    });
    assert.deepEqual(mixed.split('\n').slice(0, 3), [
      'target: Lib.csproj (Debug), 3 projects (1 loaded, 2 not), load complete',
      'not loaded: FsLib/FsLib.fsproj: F# project: SharpClaw loads C# projects only',
      'not loaded: VbLib/VbLib.vbproj: Visual Basic project: SharpClaw loads C# projects only',
    ]);
  });

  it('says each framework list and each shared package once, so a 14-project inspection stays under 8 KB', () => {
    const frameworks = ['netstandard2.0', 'netstandard2.1', 'net8.0'];
    const shared = ['DotNet.ReproducibleBuilds', 'Microsoft.SourceLink.GitHub', 'Nerdbank.GitVersioning'];
    const project = (index: number) => ({
      path: `src/CommunityToolkit.Project${index}/CommunityToolkit.Project${index}.csproj`,
      name: `CommunityToolkit.Project${index}`,
      isTestProject: false,
      isTestProjectSource: 'absent' as const,
      outputType: 'Library',
      targetFrameworks: frameworks,
      restoredTargetFrameworks: index === 1 ? ['net8.0'] : [...frameworks].reverse(),
      packages: [...shared, `Own.Package${index}`].map((id) => ({ id, requestedVersion: '1.0.0', resolvedVersion: '1.0.0', targetFramework: 'net8.0' })),
      projectReferences: [],
      assetsFile: null,
      compilations: frameworks.map((framework) => ({ name: `P(${framework})`, targetFramework: framework, documentCount: 3, loaded: true })),
    });
    const result: SolutionInspectResult = {
      workspace: '/ws',
      target: 'dotnet.slnx',
      configuration: 'Debug',
      targetFramework: null,
      loadStatus: 'complete',
      partialLoad: [],
      loadWarnings: [],
      projects: Array.from({ length: 14 }, (_, index) => project(index + 1)),
      excludedAnalyzers: [],
      dynamicImports: [],
      fromCache: false,
      fromSnapshot: false,
    };
    const text = renderSolutionInspect(result);
    assert.match(text, /^packages of every project: DotNet\.ReproducibleBuilds 1\.0\.0, Microsoft\.SourceLink\.GitHub 1\.0\.0, Nerdbank\.GitVersioning 1\.0\.0$/m);
    assert.equal(text.match(/SourceLink/g)?.length, 1);
    assert.match(text, /^src\/CommunityToolkit\.Project2\/CommunityToolkit\.Project2\.csproj: library\n {2}frameworks: netstandard2\.0, netstandard2\.1, net8\.0\n {2}packages: Own\.Package2 1\.0\.0$/m);
    assert.match(text, /^ {2}frameworks: netstandard2\.0, netstandard2\.1, net8\.0; not restored: netstandard2\.0, netstandard2\.1$/m);
    assert.ok(Buffer.byteLength(text) < 4096, `${Buffer.byteLength(text)} bytes`);
  });

  it('names what made a project a test project: IsTestProject, IsTestingPlatformApplication or the test SDK', () => {
    const project = (path: string, isTestProjectSource: SolutionInspectResult['projects'][number]['isTestProjectSource']) => ({
      path,
      name: path,
      isTestProject: true,
      isTestProjectSource,
      outputType: 'Exe',
      targetFrameworks: ['net10.0'],
      restoredTargetFrameworks: ['net10.0'],
      packages: [],
      projectReferences: [],
      assetsFile: null,
      compilations: [],
    });
    const result: SolutionInspectResult = {
      workspace: '/ws',
      target: 'T.slnx',
      configuration: 'Debug',
      targetFramework: null,
      loadStatus: 'complete',
      partialLoad: [],
      loadWarnings: [],
      projects: [project('A.csproj', 'evaluated'), project('B.csproj', 'testingPlatformApplication'), project('C.csproj', 'testSdkReference')],
      excludedAnalyzers: [],
      dynamicImports: [],
      fromCache: false,
      fromSnapshot: false,
    };
    const text = renderSolutionInspect(result);
    assert.match(text, /^A\.csproj: exe, test project \(IsTestProject\)$/m);
    assert.match(text, /^B\.csproj: exe, test project \(IsTestingPlatformApplication\)$/m);
    assert.match(text, /^C\.csproj: exe, test project \(Microsoft\.NET\.Test\.Sdk\)$/m);
  });
});
