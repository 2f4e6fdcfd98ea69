using System.Diagnostics;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Discovery;
using SharpClaw.Server.Semantic.Evaluation;
using SharpClaw.Server.Semantic.Fingerprints;
using SharpClaw.Server.Semantic.Loading;
using SharpClaw.Server.Toolchain;

namespace SharpClaw.Server.Semantic.Cache;

/// <summary>
/// Evaluates and loads contexts. Called by <see cref="SemanticContextCache"/> only after authorization.
/// A full load runs the single-process evaluation pass and the workspace load (<see cref="WorkspaceLoader"/>:
/// parallel design-time builds, or Roslyn's MSBuildWorkspace) side by side, then checks restore
/// prerequisites, filters analyzers and fingerprints the result.
/// </summary>
public sealed partial class ContextLoader(AnalyzerTrust trust, HostLog? log)
{
    /// <summary>Which loader loads (tests and benches pin one); by default the environment's (<see cref="WorkspaceLoader.ConfiguredKind"/>).</summary>
    public LoaderKind Loader { get; init; } = WorkspaceLoader.ConfiguredKind;

    public DesignTimeLoadOptions DesignTimeOptions { get; init; } = DesignTimeLoadOptions.Default;

    private static readonly string[] ConfigurationFilesAbove = ["global.json", "NuGet.config", "nuget.config", "NuGet.Config"];

    public AnalyzerTrust Trust => trust;

    private int vouchedCount;

    /// <summary>Re-evaluations whose evaluation vouched for the loaded context (<see cref="ImportedFilesCheck"/>), so no design-time pass ran.</summary>
    public int VouchedCount => Volatile.Read(ref this.vouchedCount);

    /// <summary>Full paths of the target's projects (solution order), without running anything.</summary>
    public static async Task<IReadOnlyList<string>> ProjectsOfAsync(TargetSelection target, CancellationToken cancellationToken) =>
        target.Kind == TargetKind.Solution
            ? await SolutionReader.ReadProjectsAsync(target.TargetPath, cancellationToken).ConfigureAwait(false)
            : [target.TargetPath];

    /// <summary>
    /// Evaluation only (no Roslyn workspace): for <c>sharpclaw/projectGraph</c>. From <paramref name="buildCollection"/>, the
    /// collection a build made (<see cref="BuildCollection"/>), when it is complete; else, logged with the reason, with MSBuild.
    /// </summary>
    public async Task<EvaluationData> EvaluateAsync(ContextRequest request, string? buildCollection, CancellationToken cancellationToken)
    {
        IReadOnlyList<string> projects = await ProjectsOfAsync(request.Target, cancellationToken).ConfigureAwait(false);
        return (buildCollection is null ? null : this.FromBuild(request, projects, buildCollection))
            ?? await this.EvaluateProjectsAsync(request, projects, cancellationToken).ConfigureAwait(false);
    }

    private EvaluationData? FromBuild(ContextRequest request, IReadOnlyList<string> projects, string buildCollection)
    {
        // One framework asked: the evaluation covers that framework only, which a whole build's rows do not say.
        string whyNot = "one framework asked";
        if (request.TargetFramework is not null
            || BuildCollection.TryRead(request.Target, projects, buildCollection, request.Configuration, out whyNot) is not { } snapshot)
        {
            log?.Info($"The build's evaluation of {request.Target.RelativeTarget} not used ({whyNot}); evaluating.");
            return null;
        }

        log?.Info(string.Create(
            System.Globalization.CultureInfo.InvariantCulture,
            $"Evaluation of {request.Target.RelativeTarget} taken from the build: {snapshot.Projects.Count} projects, read in {snapshot.Duration.TotalMilliseconds:0} ms."));
        return this.Derive(snapshot);
    }

    public async Task<SemanticContext> LoadAsync(ContextRequest request, EvaluationData? reusableEvaluation, CancellationToken cancellationToken) =>
        (await this.LoadCoreAsync(request, reusableEvaluation, keepIfSameAs: null, cancellationToken).ConfigureAwait(false))!;

    /// <summary>
    /// For a loaded context that must be re-evaluated on every call (property-driven or wildcard imports): runs the
    /// design-time pass again and returns null when MSBuild's answer is exactly what <paramref name="current"/> was
    /// loaded from (the caller keeps it, compilations warm), else the context loaded from that same pass.
    /// </summary>
    /// <remarks>
    /// An evaluation that lists what it imported comes first: when it holds <paramref name="current"/>'s
    /// <see cref="SemanticContext.ImportedFilesCheck"/> (<see cref="ImportedFilesCheck"/>), no pass runs. Its check then
    /// goes with whichever context this call leaves loaded.
    /// </remarks>
    public async Task<SemanticContext?> ReloadUnlessSameAsync(ContextRequest request, SemanticContext current, CancellationToken cancellationToken)
    {
        long started = Stopwatch.GetTimestamp();
        ImportedFilesCheck? check = await this.CheckImportsAsync(request, cancellationToken).ConfigureAwait(false);
        string? difference = check is null ? "the evaluation did not list its imports"
            : current.ImportedFilesCheck is null ? "nothing to compare with yet"
            : current.ImportedFilesCheck.Difference(check);
        if (difference is null)
        {
            Interlocked.Increment(ref this.vouchedCount);
            current.EvaluatedFrom = started;
            log?.Info(string.Create(
                System.Globalization.CultureInfo.InvariantCulture,
                $"Re-evaluated {request.Target.RelativeTarget} (dynamic imports) in {Stopwatch.GetElapsedTime(started).TotalMilliseconds:0} ms: the evaluation and the {check!.FileCount} build files it imported are unchanged, the loaded context stays (no design-time pass)."));
            return null;
        }

        log?.Debug($"Running the design-time pass of {request.Target.RelativeTarget} again: {difference}.");
        SemanticContext? context = await this.LoadCoreAsync(request, reusableEvaluation: null, keepIfSameAs: current, cancellationToken).ConfigureAwait(false);
        (context ?? current).ImportedFilesCheck = check;
        (context ?? current).EvaluatedFrom = started;
        return context;
    }

    /// <summary>An evaluation of <paramref name="request"/>'s projects that lists its imports; null when it cannot vouch for anything.</summary>
    private async Task<ImportedFilesCheck?> CheckImportsAsync(ContextRequest request, CancellationToken cancellationToken)
    {
        try
        {
            IReadOnlyList<string> projects = await ProjectsOfAsync(request.Target, cancellationToken).ConfigureAwait(false);
            EvaluationSnapshot evaluation = await ProjectEvaluator.EvaluateAsync(
                request.Target, projects, request.Configuration, request.TargetFramework, cancellationToken, logImports: true).ConfigureAwait(false);
            return ImportedFilesCheck.Of(evaluation);
        }
        catch (SemanticException ex)
        {
            // The design-time pass that follows reports the failure as a load does.
            log?.Info($"The evaluation before re-running the design-time pass of {request.Target.RelativeTarget} failed: {ex.Message}");
            return null;
        }
    }

    private async Task<SemanticContext?> LoadCoreAsync(ContextRequest request, EvaluationData? reusableEvaluation, SemanticContext? keepIfSameAs, CancellationToken cancellationToken)
    {
        long started = Stopwatch.GetTimestamp();
        TargetSelection target = request.Target;
        IReadOnlyList<string> projects = await ProjectsOfAsync(target, cancellationToken).ConfigureAwait(false);
        ProjectLoadTracker tracker = new(request.Progress, target.Workspace, target.RelativeTarget, request.Configuration, request.TargetFramework, projects.Count);
        tracker.Start();

        // The parallel pass evaluates and builds in one MSBuild run; when it cannot, the evaluation pass and
        // Roslyn's load run side by side as before. A cold load of a target with dynamic imports also lists what MSBuild
        // imported, so the next call's evaluation can vouch for the context without a second pass.
        bool logImports = keepIfSameAs is null && reusableEvaluation is null && this.Loader == LoaderKind.Parallel && this.HasDynamicImports(projects);
        if (this.Loader == LoaderKind.Parallel
            && await WorkspaceLoader.RunParallelPassAsync(target, projects, request.Configuration, request.TargetFramework, tracker, this.DesignTimeOptions, collectEvaluation: reusableEvaluation is null, log, cancellationToken, logImports).ConfigureAwait(false) is { } pass)
        {
            if (keepIfSameAs?.DesignTimeDigest is { } loadedFrom && loadedFrom == pass.Digest)
            {
                log?.Info(string.Create(
                    System.Globalization.CultureInfo.InvariantCulture,
                    $"Re-evaluated {target.RelativeTarget} (dynamic imports) in {Stopwatch.GetElapsedTime(started).TotalMilliseconds:0} ms: MSBuild's answer is unchanged, the loaded context stays."));
                return null;
            }

            WorkspaceLoader.ParallelLoad parallel = WorkspaceLoader.BuildFromPass(target, pass, log);
            try
            {
                EvaluationData evaluated = reusableEvaluation ?? this.Derive(parallel.Evaluation!);
                ThrowIfNotRestored(target, evaluated);
                string? digest = evaluated.DynamicImports.Count > 0 ? pass.Digest : null; // Only those are re-evaluated.
                SemanticContext context = this.CreateContext(request, evaluated, parallel.Loaded, tracker, Stopwatch.GetElapsedTime(started), digest);
                context.EvaluatedFrom = started;
                if (digest is not null && pass.Result.Evaluation is { ImportedFiles: not null } listed)
                {
                    context.ImportedFilesCheck = ImportedFilesCheck.Of(listed);
                }

                return context;
            }
            catch
            {
                parallel.Loaded.Dispose();
                throw;
            }
        }

        using CancellationTokenSource linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        Task<EvaluationData> evaluation = reusableEvaluation is not null
            ? Task.FromResult(reusableEvaluation)
            : this.EvaluateProjectsAsync(request, projects, linked.Token);
        Task<LoadedWorkspace> load = Task.Run(
            () => WorkspaceLoader.LoadWithRoslynAsync(target, request.Configuration, request.TargetFramework, tracker, linked.Token),
            CancellationToken.None);

        EvaluationData data;
        try
        {
            data = await evaluation.ConfigureAwait(false);
            ThrowIfNotRestored(target, data);
        }
        catch
        {
            await linked.CancelAsync().ConfigureAwait(false);
            await DisposeQuietlyAsync(load).ConfigureAwait(false);
            throw;
        }

        LoadedWorkspace loaded;
        try
        {
            loaded = await load.ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            throw;
        }
        catch (Exception ex) when (ex is not SemanticException)
        {
            throw SemanticException.LoadFailed(
                $"Roslyn could not load '{target.RelativeTarget}': {ex.Message}",
                Issues(target.Workspace, data.Snapshot.Failures),
                ex);
        }

        try
        {
            cancellationToken.ThrowIfCancellationRequested();
            return this.CreateContext(request, data, loaded, tracker, Stopwatch.GetElapsedTime(started), designTimeDigest: null);
        }
        catch
        {
            loaded.Dispose();
            throw;
        }
    }

    private SemanticContext CreateContext(ContextRequest request, EvaluationData data, LoadedWorkspace loaded, ProjectLoadTracker tracker, TimeSpan duration, string? designTimeDigest)
    {
        TargetSelection target = request.Target;
        List<EvaluationFailure> failures = [.. data.Snapshot.Failures];
        List<EvaluationFailure> warnings = [];
        foreach (WorkspaceDiagnostic diagnostic in loaded.Diagnostics.Where(d => d.Kind == WorkspaceDiagnosticKind.Failure))
        {
            (string project, bool usable) = ClassifyLoadFailure(diagnostic, loaded.Solution, target.TargetPath);
            (usable ? warnings : failures).Add(new EvaluationFailure(project, diagnostic.Message));
            log?.Warn($"Load of {target.RelativeTarget}: {diagnostic.Message}");
        }

        failures = Merge(failures);
        warnings = Merge(warnings);
        List<string> projectFiles = loaded.Solution.Projects.Select(p => p.FilePath).OfType<string>().Distinct(PathUtil.Comparer).ToList();
        HashSet<string> failed = new(failures.Select(f => f.Path), PathUtil.Comparer);
        if (failures.Count > 0 && (projectFiles.Count == 0 || projectFiles.All(failed.Contains)))
        {
            throw SemanticException.LoadFailed(
                $"No project of '{target.RelativeTarget}' could be loaded. {failures[0].Reason}",
                Issues(target.Workspace, failures));
        }

        Dictionary<ProjectId, string?> frameworks = [];
        foreach (Project project in loaded.Solution.Projects)
        {
            frameworks[project.Id] = FrameworkOf(project, request.TargetFramework, data.Snapshot, tracker);
        }

        List<string> packageFolders = data.Assets.Values.OfType<AssetsFileInfo>().SelectMany(a => a.PackageFolders).ToList();
        long filtering = Stopwatch.GetTimestamp();
        AnalyzerFilterResult filter = trust.Filter(loaded.Solution, target.Workspace, p => frameworks.GetValueOrDefault(p.Id), packageFolders);
        (Solution filtered, List<AnalyzerExclusion> excluded) = filter;
        ContextFingerprint fingerprint = ContextFingerprint.Create(this.FingerprintInputs(data, filtered, failures));
        log?.Info(string.Create(
            System.Globalization.CultureInfo.InvariantCulture,
            $"Loaded {target.RelativeTarget} [{request.Configuration}{(request.TargetFramework is null ? string.Empty : ", " + request.TargetFramework)}]: "
            + $"{filtered.ProjectIds.Count} projects in {duration.TotalMilliseconds:0} ms (evaluation {data.Snapshot.Duration.TotalMilliseconds:0} ms; then analyzer filter and fingerprint {Stopwatch.GetElapsedTime(filtering).TotalMilliseconds:0} ms), "
            + $"{excluded.Count} analyzer references excluded, {failures.Count} failed, fingerprint {fingerprint.StructuralFileCount} build files, "
            + $"{fingerprint.ContentFileCount} documents, {fingerprint.DirectoryCount} folders, {fingerprint.DynamicImports.Count} dynamic imports."));
        return new SemanticContext(request.Key, target, data, loaded.Workspace, filtered, fingerprint, excluded, failures, warnings, frameworks, duration)
        {
            SubstitutedAnalyzers = filter.Substituted,
            DesignTimeDigest = designTimeDigest,
        };
    }

    /// <summary>The fingerprint of an evaluation-only context (compile-item existence instead of content).</summary>
    public ContextFingerprint FingerprintEvaluation(EvaluationData data) =>
        ContextFingerprint.Create(this.FingerprintInputs(data, solution: null, data.Snapshot.Failures));

    private FingerprintInputs FingerprintInputs(EvaluationData data, Solution? solution, IReadOnlyList<EvaluationFailure> failures)
    {
        EvaluationSnapshot snapshot = data.Snapshot;
        HashSet<string> structural = new(PathUtil.Comparer) { snapshot.Target.TargetPath };
        HashSet<string> existence = new(PathUtil.Comparer);
        List<string> cones = [];
        List<string> excluded = [];
        List<(string, string)> extensionFolders = [];
        List<string> directories = [snapshot.Target.TargetPath];

        foreach (EvaluatedProject project in snapshot.Projects)
        {
            structural.Add(project.Path);
            directories.Add(project.Path);
            if (data.Imports.TryGetValue(project.Path, out ProjectImports? imports))
            {
                structural.UnionWith(imports.WatchedPaths);
            }

            if (project.ProjectAssetsFile is { } assets)
            {
                structural.Add(assets);
            }

            if (data.Assets.GetValueOrDefault(project.Path) is { } info)
            {
                structural.UnionWith(info.ConfigFilePaths);
            }

            if (project.ProjectExtensionsPath is { } extensions)
            {
                string projectFile = Path.GetFileName(project.Path);
                extensionFolders.Add((extensions, projectFile));
                structural.UnionWith(RestoreGeneratedImports(extensions, projectFile));
            }

            cones.Add(project.Directory);
            excluded.AddRange(new[] { project.BaseOutputPath, project.BaseIntermediateOutputPath, project.ArtifactsPath }.OfType<string>());
            excluded.Add(Path.Combine(project.Directory, "bin"));
            excluded.Add(Path.Combine(project.Directory, "obj"));
            if (solution is null)
            {
                existence.UnionWith(project.CompileItems);
            }
        }

        foreach (EvaluationFailure failure in failures)
        {
            structural.Add(failure.Path);
            directories.Add(failure.Path);
        }

        foreach (string directory in directories.Select(Path.GetDirectoryName).OfType<string>().Distinct(PathUtil.Comparer))
        {
            for (DirectoryInfo? current = new(directory); current is not null; current = current.Parent)
            {
                foreach (string name in ConfigurationFilesAbove)
                {
                    structural.Add(Path.Combine(current.FullName, name));
                }

                existence.Add(Path.Combine(current.FullName, ".editorconfig"));
            }
        }

        List<string> content = [];
        if (solution is not null)
        {
            foreach (Project project in solution.Projects)
            {
                content.AddRange(project.Documents.Select(d => d.FilePath).OfType<string>());
                content.AddRange(project.AdditionalDocuments.Select(d => d.FilePath).OfType<string>());
                content.AddRange(project.AnalyzerConfigDocuments.Select(d => d.FilePath).OfType<string>());
            }
        }

        // Compile items outside every project folder (linked files, custom globs): watch their folders.
        IEnumerable<string> itemFiles = snapshot.Projects.SelectMany(p => p.CompileItems).Concat(content);
        List<string> sourceFolders = itemFiles
            .Select(Path.GetDirectoryName)
            .OfType<string>()
            .Distinct(PathUtil.Comparer)
            .Where(d => !cones.Any(c => PathUtil.IsUnder(d, c)))
            .ToList();

        // What every evaluation imports by wildcard from outside the workspace: the files' content, and the folders' names.
        IReadOnlyList<string> implicitImports = ImplicitImportFolders.All();
        structural.UnionWith(ImplicitImportFolders.FilesIn(implicitImports));

        // .editorconfig content is a document; only its appearance/disappearance is structural.
        existence.ExceptWith(content);
        return new FingerprintInputs
        {
            StructuralFiles = structural,
            SourceCones = cones,
            ExcludedFolders = excluded,
            SourceFolders = sourceFolders,
            ProjectExtensionFolders = extensionFolders,
            ImplicitImportFolders = implicitImports,
            ContentFiles = content,
            ExistenceFiles = existence,
            DynamicImports = data.DynamicImports,
            EvaluationStartedUtc = snapshot.StartedUtc,
        };
    }

    /// <summary>Files restore generated and the SDK imports by wildcard: &lt;obj&gt;/&lt;project file&gt;.*.props|targets.</summary>
    internal static IEnumerable<string> RestoreGeneratedImports(string extensionsPath, string projectFile)
    {
        if (!Directory.Exists(extensionsPath))
        {
            return [];
        }

        try
        {
            return Directory.EnumerateFiles(extensionsPath, projectFile + ".*")
                .Where(f => f.EndsWith(".props", StringComparison.OrdinalIgnoreCase) || f.EndsWith(".targets", StringComparison.OrdinalIgnoreCase))
                .ToList();
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return [];
        }
    }

    private async Task<EvaluationData> EvaluateProjectsAsync(ContextRequest request, IReadOnlyList<string> projects, CancellationToken cancellationToken)
    {
        EvaluationSnapshot snapshot;
        try
        {
            snapshot = await ProjectEvaluator.EvaluateAsync(request.Target, projects, request.Configuration, request.TargetFramework, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is System.ComponentModel.Win32Exception or InvalidOperationException)
        {
            throw SemanticException.MissingPrerequisites(
                $"The dotnet CLI could not be started ({ex.Message}). Install the .NET SDK from https://dotnet.microsoft.com/download.",
                command: null);
        }

        log?.Info(string.Create(
            System.Globalization.CultureInfo.InvariantCulture,
            $"Evaluated {request.Target.RelativeTarget}: {snapshot.Projects.Count} projects, {snapshot.Failures.Count} failures, {snapshot.Duration.TotalMilliseconds:0} ms."));
        return this.Derive(snapshot);
    }

    /// <summary>Whether a static scan finds a property-driven or wildcard import among <paramref name="projects"/>' build files (before any evaluation).</summary>
    private bool HasDynamicImports(IReadOnlyList<string> projects)
    {
        ImportScanner scanner = this.Scanner([]);
        return projects.Any(project => scanner.Scan(project).DynamicImports.Count > 0);
    }

    /// <summary>An import scanner that does not scan the SDK's files, the trusted package folders nor <paramref name="packageFolders"/>.</summary>
    private ImportScanner Scanner(IEnumerable<string> packageFolders)
    {
        List<string> notScanned = [.. trust.PackageFolders, .. packageFolders.Select(PathUtil.Normalize)];
        if (SdkInventory.FindDotnetRoot() is { } dotnetRoot)
        {
            notScanned.Add(dotnetRoot);
        }

        return new ImportScanner(notScanned.Distinct(PathUtil.Comparer).ToList());
    }

    /// <summary>Reads assets files and scans imports for an evaluation.</summary>
    public EvaluationData Derive(EvaluationSnapshot snapshot)
    {
        Dictionary<string, AssetsFileInfo?> assets = new(PathUtil.Comparer);
        foreach (EvaluatedProject project in snapshot.Projects)
        {
            assets[project.Path] = AssetsFile.TryRead(project.ProjectAssetsFile);
        }

        ImportScanner scanner = this.Scanner(assets.Values.OfType<AssetsFileInfo>().SelectMany(a => a.PackageFolders));
        Dictionary<string, ProjectImports> imports = new(PathUtil.Comparer);
        foreach (EvaluatedProject project in snapshot.Projects)
        {
            imports[project.Path] = scanner.Scan(project.Path);
        }

        return new EvaluationData(snapshot, imports, assets);
    }

    /// <summary>MissingPrerequisites when a project's evaluated ProjectAssetsFile does not exist. Never restores.</summary>
    private static void ThrowIfNotRestored(TargetSelection target, EvaluationData data)
    {
        List<ProjectIssue> missing = data.Snapshot.Projects
            .Where(p => p.ProjectAssetsFile is { } assets && !File.Exists(assets))
            .Select(p => new ProjectIssue(
                PathUtil.ToWorkspaceRelative(target.Workspace, p.Path),
                $"restore assets not found at '{PathUtil.ToWorkspaceRelative(target.Workspace, p.ProjectAssetsFile!)}'"))
            .ToList();
        if (missing.Count == 0)
        {
            return;
        }

        string command = $"dotnet restore \"{target.RelativeTarget}\"";
        throw SemanticException.MissingPrerequisites(
            $"{missing.Count} project(s) of '{target.RelativeTarget}' are not restored ({string.Join("; ", missing.Select(m => $"{m.Path}: {m.Reason}"))}). "
            + $"SharpClaw never restores on its own: run {command} in the workspace folder, then try again.",
            command,
            missing);
    }

    private static string? FrameworkOf(Project project, string? requested, EvaluationSnapshot snapshot, ProjectLoadTracker tracker)
    {
        Match suffix = FrameworkSuffixRegex().Match(project.Name);
        if (suffix.Success)
        {
            return suffix.Groups[1].Value;
        }

        if (requested is not null)
        {
            return requested;
        }

        if (project.FilePath is { } path)
        {
            List<string> resolved = tracker.FrameworksOf(path).Distinct(StringComparer.OrdinalIgnoreCase).ToList();
            if (resolved.Count == 1)
            {
                return resolved[0];
            }

            if (snapshot.Find(path) is { TargetFrameworks.Count: 1 } evaluated)
            {
                return evaluated.TargetFrameworks[0];
            }
        }

        return null;
    }

    /// <summary>
    /// A failure the load reported: the project it names (else the target) and whether the load stays usable
    /// for it. Roslyn adds a project that failed to load as an empty shell; errors on a project that did load
    /// (documents and all) are worth reporting but leave it usable. A failure naming no project, on a load that
    /// gave every project with its documents, is about the loader's own processes (Roslyn's build host not
    /// answering its shutdown under load, after the load): nothing is missing, so it is usable too.
    /// </summary>
    public static (string Project, bool Usable) ClassifyLoadFailure(WorkspaceDiagnostic diagnostic, Solution solution, string targetPath)
    {
        string? named = (diagnostic as ProjectDiagnostic) is { } projectDiagnostic
            ? solution.GetProject(projectDiagnostic.ProjectId)?.FilePath
            : null;
        named ??= QuotedPathRegex().Matches(diagnostic.Message)
            .Select(m => m.Groups[1].Value)
            .FirstOrDefault(p => p.EndsWith("proj", StringComparison.OrdinalIgnoreCase));
        string project = PathUtil.Normalize(named ?? targetPath);
        List<Project> loadedAs = named is null
            ? [.. solution.Projects]
            : solution.Projects.Where(p => p.FilePath is { } path && PathUtil.Comparer.Equals(path, project)).ToList();
        return (project, loadedAs.Count > 0 && loadedAs.All(p => p.DocumentIds.Count > 0));
    }

    private static List<EvaluationFailure> Merge(IEnumerable<EvaluationFailure> failures) =>
        failures
            .GroupBy(f => f.Path, PathUtil.Comparer)
            .Select(g => new EvaluationFailure(g.Key, string.Join(" ", g.Select(f => f.Reason).Distinct())))
            .ToList();

    internal static List<ProjectIssue> Issues(string workspace, IEnumerable<EvaluationFailure> failures) =>
        failures.Select(f => new ProjectIssue(PathUtil.ToWorkspaceRelative(workspace, f.Path), f.Reason)).ToList();

    private static async Task DisposeQuietlyAsync(Task<LoadedWorkspace> load)
    {
        try
        {
            (await load.ConfigureAwait(false)).Dispose();
        }
        catch (Exception)
        {
            // The load failed or was cancelled; it disposed its own workspace.
        }
    }

    [GeneratedRegex(@"'([^']+)'")]
    private static partial Regex QuotedPathRegex();

    [GeneratedRegex(@"\(([^()]+)\)$")]
    private static partial Regex FrameworkSuffixRegex();
}
