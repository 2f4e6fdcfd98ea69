using Microsoft.CodeAnalysis;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Cache;
using SharpClaw.Server.Semantic.Discovery;
using SharpClaw.Server.Semantic.Evaluation;
using SharpClaw.Server.Semantic.Loading;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// The parallel design-time load (several <c>dotnet msbuild</c> processes at once) builds the same solution as
/// Roslyn's MSBuildWorkspace — project by project: options, documents, references, analyzers, generator output
/// and compiler diagnostics — and hands anything it cannot reproduce (an MSBuild error) to Roslyn's loader.
/// </summary>
public sealed class ParallelLoadTests(ParallelLoadTests.SharedParallelLoad shared) : IClassFixture<ParallelLoadTests.SharedParallelLoad>
{
    /// <summary>Every project in a process of its own (up to three at once), so references cross processes.</summary>
    private static readonly DesignTimeLoadOptions Spread = new(MaxProcesses: 3, MinWeightPerProcess: 0.001);

    [Theory]
    [InlineData("ParallelLoad", "ParallelLoad.slnx")]
    [InlineData("Calculator", "Calculator.slnx")]
    [InlineData("MultiTarget", "MultiTarget.csproj")]
    [InlineData("SdkGenerators", "SdkGenerators.slnx")]
    [InlineData("CustomAnalyzers", "CustomAnalyzers.slnx")]
    [InlineData("ArtifactsLayout", "ArtifactsLayout.slnx")]
    [InlineData("MultiTargetHierarchy", "MultiTargetHierarchy.slnx")]
    public async Task ParallelLoad_EqualsMSBuildWorkspace(string name, string target)
    {
        // fixtures/ParallelLoad's parallel load is the class's shared one (the next test reads it too); the others are this test's own.
        using ParallelLoadResult? own = name == SharedParallelLoad.Name ? null : await ParallelLoadResult.LoadAsync(name, target);
        ParallelLoadResult result = own ?? await shared.GetAsync();
        (FixtureWorkspace fixture, TargetSelection selection, IReadOnlyList<string> projects) = (result.Fixture, result.Selection, result.Projects);
        (RecordingSink parallelProgress, ProjectLoadTracker parallelTracker, WorkspaceLoader.ParallelLoad load) = (result.Progress, result.Tracker, result.Load);
        LoadedWorkspace parallel = load.Loaded;
        ProjectLoadTracker roslynTracker = new(null, fixture.Root, target, "Debug", null, projects.Count);
        using LoadedWorkspace roslyn = await WorkspaceLoader.LoadAsync(selection, projects, "Debug", null, roslynTracker, LoaderKind.Roslyn, Spread, log: null, CancellationToken.None);

        Assert.Equal(roslyn.Solution.FilePath, parallel.Solution.FilePath);
        Assert.Equal(roslyn.Solution.Projects.Select(p => p.Name), parallel.Solution.Projects.Select(p => p.Name));
        foreach (Project expected in roslyn.Solution.Projects)
        {
            Project actual = parallel.Solution.Projects.Single(p => p.Name == expected.Name);
            await SolutionAssert.SameProjectAsync(expected, actual);
            Assert.Equal(roslynTracker.FrameworksOf(expected.FilePath!), parallelTracker.FrameworksOf(actual.FilePath!));
        }

        // Under load Roslyn's build host may not answer the shutdown at the end of its load, a failure naming no
        // project while every project loaded (ContextLoader.ClassifyLoadFailure calls it usable): not the load compared here.
        string solutionPath = PathUtil.Normalize(selection.TargetPath);
        List<WorkspaceDiagnostic> baseline = [.. roslyn.Diagnostics.Where(d => !(d.Kind == WorkspaceDiagnosticKind.Failure && ContextLoader.ClassifyLoadFailure(d, roslyn.Solution, selection.TargetPath) == (solutionPath, true)))];
        Assert.DoesNotContain(baseline, d => d.Kind == WorkspaceDiagnosticKind.Failure);
        Assert.Equal(
            baseline.Select(d => d.Message).Order(),
            parallel.Diagnostics.Select(d => d.Message).Order());

        // The evaluation the pass collected on the way is the evaluation pass's, project by project.
        EvaluationSnapshot standalone = await ProjectEvaluator.EvaluateAsync(selection, projects, "Debug", null, CancellationToken.None);
        Assert.Empty(standalone.Failures);
        Assert.Equal(standalone.Projects.Select(p => p.Path), load.Evaluation!.Projects.Select(p => p.Path));
        foreach ((EvaluatedProject alone, EvaluatedProject collected) in standalone.Projects.Zip(load.Evaluation.Projects))
        {
            string expectedJson = System.Text.Json.JsonSerializer.Serialize(alone);
            string actualJson = System.Text.Json.JsonSerializer.Serialize(collected);
            Assert.True(expectedJson == actualJson, $"{alone.Path}:\n{expectedJson}\n{actualJson}");
        }

        // Progress: every project file once, in "project i of n" steps ending at 100 %.
        int loadedFiles = parallel.Solution.Projects.Select(p => p.FilePath).Distinct().Count();
        Assert.Equal(loadedFiles, parallelProgress.Updates.Count);
        Assert.Equal(Enumerable.Range(1, loadedFiles), parallelProgress.Updates.Select(u => u.ProjectIndex));
        Assert.Equal(100, parallelProgress.Updates[^1].Percent);
    }

    /// <summary>
    /// On the parallel load of fixtures/ParallelLoad that <see cref="ParallelLoad_EqualsMSBuildWorkspace"/> also
    /// compares (shared: the test only reads it), loaded as a cold load loads (the evaluation collected on the way).
    /// </summary>
    [Fact]
    public async Task ParallelLoad_FindsAReferencedProjectOutsideTheSolution_AndReferencesTheFlavourTheCommandLineNames()
    {
        ParallelLoadResult result = await shared.GetAsync();
        FixtureWorkspace fixture = result.Fixture;
        LoadedWorkspace loaded = result.Load.Loaded;

        Assert.Equal(
            ["App", "Core", "Spaced", "Multi(net10.0)", "Multi(net9.0)", "Tool", "Extra"],
            loaded.Solution.Projects.Select(p => p.Name));
        Project app = loaded.Solution.Projects.Single(p => p.Name == "App");
        Assert.Equal(
            ["Core CoreAlias", "Extra ", "Multi(net10.0) ", "Spaced "],
            app.ProjectReferences.Select(r => $"{loaded.Solution.GetProject(r.ProjectId)!.Name} {string.Join(",", r.Aliases)}").Order());
        Project spaced = loaded.Solution.Projects.Single(p => p.Name == "Spaced");
        Assert.Equal("Spaced.Root", spaced.DefaultNamespace);
        Document linked = spaced.Documents.Single(d => d.Name == "Common.cs");
        Assert.Equal(["Common"], linked.Folders);
        Assert.Equal(fixture.Path("shared/Common.cs"), linked.FilePath);
        Document backslashed = spaced.Documents.Single(d => d.FilePath == fixture.Path("shared/Backslashed.cs"));
        Assert.Equal(OperatingSystem.IsWindows() ? ("Backslashed.cs", "Linked") : ("Linked\\Backslashed.cs", string.Empty), (backslashed.Name, string.Join("/", backslashed.Folders)));
        Assert.Equal("words.txt", Assert.Single(spaced.AdditionalDocuments).Name);
        Assert.Contains(spaced.AnalyzerConfigDocuments, d => d.FilePath == fixture.Path(".editorconfig"));

        Compilation compilation = (await app.GetCompilationAsync())!;
        Assert.Empty(compilation.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error));
    }

    [Fact]
    public async Task MSBuildError_FallsBackToMSBuildWorkspace_WithItsPartialLoad()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("PartialLoad", "Good/Good.csproj");
        TargetSelection selection = Selection(fixture, "PartialLoad.slnx");
        IReadOnlyList<string> projects = await ProjectsAsync(selection);
        ProjectLoadTracker tracker = new(null, fixture.Root, "PartialLoad.slnx", "Debug", null, projects.Count);
        using StringWriter console = new();
        using HostLog log = new(console);
        using LoadedWorkspace loaded = await WorkspaceLoader.LoadAsync(selection, projects, "Debug", null, tracker, LoaderKind.Parallel, Spread, log, CancellationToken.None);

        Assert.IsNotType<AdhocWorkspace>(loaded.Workspace);
        WorkspaceDiagnostic failure = Assert.Single(loaded.Diagnostics, d => d.Kind == WorkspaceDiagnosticKind.Failure);
        Assert.Contains("Broken.csproj", failure.Message, StringComparison.Ordinal);
        Assert.Contains(loaded.Solution.Projects, p => p.Name == "Good" && p.DocumentIds.Count > 0);
        string logged = console.ToString();
        Assert.True(logged.Contains("Parallel design-time load of PartialLoad.slnx not used (MSBuild reported a problem", StringComparison.Ordinal) && logged.Contains("error MSB4025", StringComparison.Ordinal), logged);
    }

    [Fact]
    public void Share_IsContiguous_AndBalancedByWeight()
    {
        string[] projects = ["a", "b", "c", "d", "e", "f"];
        Dictionary<string, double> weights = new() { ["a"] = 1, ["b"] = 1, ["c"] = 1, ["d"] = 1, ["e"] = 4, ["f"] = 4 };

        List<List<string>> two = DesignTimePass.Share(projects, 2, p => weights[p]);
        Assert.Equal([["a", "b", "c", "d", "e"], ["f"]], two);
        Assert.Equal(projects, two.SelectMany(s => s));

        List<List<string>> three = DesignTimePass.Share(projects, 3, _ => 1);
        Assert.Equal([["a", "b"], ["c", "d"], ["e", "f"]], three);
        Assert.Equal([["a"]], DesignTimePass.Share(["a"], 3, _ => 1));
    }

    [Fact]
    public void ProcessCount_NeedsEnoughWorkPerProcess_AndStaysWithinTheCores()
    {
        DesignTimeLoadOptions options = new(MaxProcesses: 4, MinWeightPerProcess: 40);
        Assert.Equal(1, DesignTimePass.ProcessCount(5, options));
        Assert.Equal(1, DesignTimePass.ProcessCount(79, options));
        Assert.Equal(Math.Min(2, Environment.ProcessorCount), DesignTimePass.ProcessCount(80, options));
        Assert.Equal(Math.Min(4, Environment.ProcessorCount), DesignTimePass.ProcessCount(5000, options));
    }

    [Fact]
    public void Weight_CountsFrameworksAndReferences()
    {
        using TempDirectory temp = new();
        string single = Path.Combine(temp.Path, "Single.csproj");
        File.WriteAllText(single, "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup><ItemGroup><ProjectReference Include=\"../A/A.csproj\" /></ItemGroup></Project>");
        string multi = Path.Combine(temp.Path, "Multi.csproj");
        File.WriteAllText(multi, "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><TargetFrameworks>net10.0;net9.0;netstandard2.0</TargetFrameworks></PropertyGroup><ItemGroup><PackageReference Include=\"X\" /><PackageReference Include=\"Y\" /></ItemGroup></Project>");
        Assert.Equal(3, DesignTimePass.Weight(single));
        Assert.Equal(12, DesignTimePass.Weight(multi));
        Assert.Equal(1, DesignTimePass.Weight(Path.Combine(temp.Path, "Missing.csproj")));
    }

    private static TargetSelection Selection(FixtureWorkspace fixture, string target) =>
        new(fixture.Root, fixture.Path(target), target.EndsWith(".csproj", StringComparison.Ordinal) ? TargetKind.Project : TargetKind.Solution);

    private static async Task<IReadOnlyList<string>> ProjectsAsync(TargetSelection selection) =>
        selection.Kind == TargetKind.Solution ? await SolutionReader.ReadProjectsAsync(selection.TargetPath, CancellationToken.None) : [selection.TargetPath];

    /// <summary>A restored copy of a fixture and its parallel load (not fallen back to Roslyn's loader), with its progress.</summary>
    public sealed class ParallelLoadResult : IDisposable
    {
        private ParallelLoadResult(FixtureWorkspace fixture, TargetSelection selection, IReadOnlyList<string> projects, RecordingSink progress, ProjectLoadTracker tracker, WorkspaceLoader.ParallelLoad load)
        {
            (this.Fixture, this.Selection, this.Projects, this.Progress, this.Tracker, this.Load) = (fixture, selection, projects, progress, tracker, load);
        }

        internal FixtureWorkspace Fixture { get; }

        internal TargetSelection Selection { get; }

        internal IReadOnlyList<string> Projects { get; }

        internal RecordingSink Progress { get; }

        internal ProjectLoadTracker Tracker { get; }

        internal WorkspaceLoader.ParallelLoad Load { get; }

        internal static async Task<ParallelLoadResult> LoadAsync(string name, string target)
        {
            FixtureWorkspace fixture = FixtureWorkspace.Restored(name, target);
            try
            {
                TargetSelection selection = Selection(fixture, target);
                IReadOnlyList<string> projects = await ProjectsAsync(selection);
                RecordingSink progress = new();
                ProjectLoadTracker tracker = new(progress, fixture.Root, target, "Debug", null, projects.Count);
                WorkspaceLoader.ParallelLoad? load = await WorkspaceLoader.TryParallelAsync(selection, projects, "Debug", null, tracker, Spread, collectEvaluation: true, log: null, CancellationToken.None);
                Assert.True(load is not null, $"The parallel load of {target} fell back to Roslyn's loader.");
                return new ParallelLoadResult(fixture, selection, projects, progress, tracker, load);
            }
            catch
            {
                fixture.Dispose();
                throw;
            }
        }

        public void Dispose()
        {
            this.Load.Loaded.Dispose();
            this.Fixture.Dispose();
        }
    }

    /// <summary>fixtures/ParallelLoad's parallel load, made once for the tests of the class that read it.</summary>
    public sealed class SharedParallelLoad : IDisposable
    {
        internal const string Name = "ParallelLoad";

        private readonly Lazy<Task<ParallelLoadResult>> load = new(() => ParallelLoadResult.LoadAsync(Name, "ParallelLoad.slnx"));

        internal Task<ParallelLoadResult> GetAsync() => this.load.Value;

        public void Dispose()
        {
            if (this.load.IsValueCreated && this.load.Value.IsCompletedSuccessfully)
            {
                this.load.Value.Result.Dispose();
            }
        }
    }

    internal sealed class RecordingSink : ILoadProgressSink
    {
        public List<LoadProgressParams> Updates { get; } = [];

        public void Report(LoadProgressParams progress)
        {
            lock (this.Updates)
            {
                this.Updates.Add(progress);
            }
        }
    }
}
