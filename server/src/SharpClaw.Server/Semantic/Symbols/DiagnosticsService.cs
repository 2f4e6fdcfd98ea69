using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Authorization;
using SharpClaw.Server.Semantic.Cache;
using SharpClaw.Server.Semantic.Contexts;

namespace SharpClaw.Server.Semantic.Symbols;

/// <summary>
/// <c>sharpclaw/diagnostics</c>: compiler diagnostics plus the kept (SDK) analyzers' diagnostics of the
/// selected C# files, filtered by ids then severity, paged, with totals. Analyzers that cannot report at the asked
/// severity (or ids) in the selected files are not run, so "below the severity" counts the compiler's diagnostics
/// below it and those of the analyzers that ran.
/// </summary>
public sealed class DiagnosticsService(SemanticContextCache cache)
{
    public const int MaxFiles = 1000;

    /// <summary>Up to this many files of a project are analyzed file by file; more take one whole-compilation pass.</summary>
    public const int PerFileThreshold = 4;

    /// <summary>The protocol's severities, lowest first: a minimum's index ranks the others.</summary>
    private static readonly string[] Severities = [.. DiagnosticSeverities.Values];

    /// <summary>A file this new gets time to join its project before it is reported as outside every project.</summary>
    public static TimeSpan NewFileGrace { get; } = TimeSpan.FromSeconds(3);

    public async Task<DiagnosticsResult> GetAsync(DiagnosticsParams parameters, IEvaluationAuthorizer? authorizer, CancellationToken cancellationToken)
    {
        int offset = ParamCheck.Bounded<DiagnosticsParams>(nameof(DiagnosticsParams.Offset), parameters.Offset);
        int limit = ParamCheck.Bounded<DiagnosticsParams>(nameof(DiagnosticsParams.Limit), parameters.Limit);
        string severity = string.IsNullOrWhiteSpace(parameters.Severity) ? "warning" : ParamCheck.OneOf<DiagnosticsParams>(nameof(DiagnosticsParams.Severity), parameters.Severity);
        int minimum = Array.IndexOf(Severities, severity);

        HashSet<string>? ids = parameters.Ids is { Count: > 0 } list ? new(list.Select(i => i.Trim()), StringComparer.OrdinalIgnoreCase) : null;

        ContextRequest request = SemanticWorkspaceService.CreateRequest(parameters);
        (ContextLease acquired, Func<string, bool> matches, string? resolvedFile, List<string> incomplete) =
            await this.AcquireGivingNewFilesTimeAsync(request, authorizer, parameters, cancellationToken).ConfigureAwait(false);
        using ContextLease lease = acquired;
        string workspace = request.Target.Workspace;
        List<Project> projects = SymbolResolver.SelectProjects(lease.Solution, workspace, parameters.Project);

        // Every C# document once (multi-targeted projects list a file per compilation: the first answers).
        List<(Document Document, string Relative)> documents = [.. projects
            .SelectMany(p => p.Documents)
            .Where(d => d.FilePath is { } f && (f.EndsWith(".cs", StringComparison.OrdinalIgnoreCase) || f.EndsWith(".csx", StringComparison.OrdinalIgnoreCase)))
            .Select(d => (Document: d, Relative: PathUtil.ToWorkspaceRelative(workspace, d.FilePath!)))
            .DistinctBy(d => d.Relative)];
        // Generated files (under obj/, *.g.cs) only when asked for: an exact path, or a glob that names them itself.
        bool withGenerated = AsksForGenerated(parameters.Path);
        List<(Document Document, string Relative)> selected = [.. documents
            .Where(d => matches(d.Relative) && (withGenerated || !SymbolFormat.IsGeneratedPath(d.Relative)))
            .OrderBy(d => d.Relative, StringComparer.Ordinal).Take(MaxFiles)];

        // Projects are analyzed in parallel (each on its own compilation); the items are sorted below, so
        // the answer's order does not depend on which project finished first.
        List<IGrouping<ProjectId, (Document Document, string Relative)>> groups = [.. selected.GroupBy(d => d.Document.Project.Id)];
        List<DiagnosticItem>[] perProject = new List<DiagnosticItem>[groups.Count];
        GeneratorReach reach = GeneratorReach.Of(lease.Context, lease.Solution);
        await Parallel.ForEachAsync(
            Enumerable.Range(0, groups.Count),
            new ParallelOptions { MaxDegreeOfParallelism = Math.Max(1, Environment.ProcessorCount), CancellationToken = cancellationToken },
            async (index, token) => perProject[index] = await ProjectDiagnosticsAsync(groups[index], workspace, reach, RestoreErrorsOf(lease.Context, groups[index].First().Document.Project), minimum, ids, token).ConfigureAwait(false)).ConfigureAwait(false);
        List<DiagnosticItem> all = [.. perProject.SelectMany(items => items)];
        all = [.. all.Distinct()];
        if (ids is not null)
        {
            all = [.. all.Where(d => ids.Contains(d.Id))];
        }

        // The diagnostics that stand first, in file order; then those of projects whose restore failed; then those an
        // excluded generator may explain, the ones in a partial type it may complete first.
        List<DiagnosticItem> listed = [.. all
            .Where(d => Array.IndexOf(Severities, d.Severity) >= minimum)
            .OrderBy(d => d.ExcludedGenerator is null ? (d.RestoreFailed is null ? 0 : 1) : d.PartialType is not null ? 2 : 3)
            .ThenBy(d => d.Path, StringComparer.Ordinal).ThenBy(d => d.Line).ThenBy(d => d.Character).ThenBy(d => d.Id, StringComparer.Ordinal)];
        int below = all.Count - listed.Count;

        List<DiagnosticItem>? page = null;
        List<DiagnosticSummaryLine>? summary = null;
        int lines;
        if (parameters.Summary == true)
        {
            // A code's errors an excluded generator or a failed restore may explain get a line of their own, after the lines that stand.
            List<DiagnosticSummaryLine> grouped = [.. listed
                .GroupBy(d => (Id: d.Id.ToUpperInvariant(), d.ExcludedGenerator, RestoreFailed: d.RestoreFailed is not null))
                .Select(g => new DiagnosticSummaryLine(g.First().Id, g.Count(), g.First().Severity, new SourceLocation(g.First().Path, g.First().Line, g.First().Character), g.First().Message) { ExcludedGenerator = g.Key.ExcludedGenerator, RestoreFailed = g.Key.RestoreFailed })
                .OrderBy(s => s.ExcludedGenerator is null ? (s.RestoreFailed ? 1 : 0) : 2).ThenByDescending(s => s.Count).ThenBy(s => s.Id, StringComparer.Ordinal).ThenBy(s => s.ExcludedGenerator, StringComparer.Ordinal)];
            lines = grouped.Count;
            summary = [.. grouped.Skip(offset).Take(limit)];
        }
        else
        {
            lines = listed.Count;
            page = [.. listed.Skip(offset).Take(limit)];
        }

        int shown = page?.Count ?? summary!.Count;
        bool truncated = offset + shown < lines;
        List<AnsweringProject> answering = [.. selected.Select(d => d.Document.Project).DistinctBy(p => p.Id)
            .Select(p => new AnsweringProject(p.FilePath is null ? p.Name : PathUtil.ToWorkspaceRelative(workspace, p.FilePath), lease.Context.Frameworks.GetValueOrDefault(p.Id)))
            .OrderBy(p => p.Project, StringComparer.Ordinal).ThenBy(p => p.TargetFramework, StringComparer.Ordinal)];
        List<ExcludedAnalyzers> excluded = ResultBuilder.GroupExclusions(workspace, lease.Context.ExcludedAnalyzers);

        return new DiagnosticsResult(
            answering,
            page,
            summary,
            severity,
            ids is not null,
            selected.Count,
            listed.Count,
            listed.Select(d => d.Path).Distinct().Count(),
            below,
            offset,
            limit,
            truncated,
            truncated ? offset + shown : null,
            incomplete,
            excluded.Count == 0 ? null : excluded)
        {
            ResolvedFile = resolvedFile,
            PossiblyFromExcludedGenerators = listed.Count(d => d.ExcludedGenerator is not null),
            GeneratorCaveats = Caveats(listed, reach, lease.Solution, workspace),
            PossiblyFromFailedRestores = listed.Count(d => d.RestoreFailed is not null),
            RestoreCaveats = RestoreCaveats(listed),
        };
    }

    /// <summary>What the restore of <paramref name="project"/> could not do ("NU1101 Jab, NU1102 X"), or null when it restored whole.</summary>
    private static string? RestoreErrorsOf(SemanticContext context, Project project)
    {
        if (project.FilePath is null || context.Evaluation.Assets.GetValueOrDefault(project.FilePath) is not { RestoreErrors: { Count: > 0 } errors })
        {
            return null;
        }

        return string.Join(", ", errors.Take(3)) + (errors.Count > 3 ? $", +{errors.Count - 3} more" : string.Empty);
    }

    /// <summary>The projects whose restore failed and that have listed errors: most errors first, at most three.</summary>
    private static List<RestoreCaveat>? RestoreCaveats(List<DiagnosticItem> listed)
    {
        List<RestoreCaveat> caveats = [.. listed
            .Where(d => d.RestoreFailed is not null)
            .GroupBy(d => (d.Project, Failure: d.RestoreFailed!))
            .Select(g => new RestoreCaveat(g.Key.Project, g.Key.Failure, g.Count()))
            .OrderByDescending(c => c.Errors).ThenBy(c => c.Project, StringComparer.Ordinal)
            .Take(3)];
        return caveats.Count == 0 ? null : caveats;
    }

    /// <summary>
    /// Compiler and kept-analyzer diagnostics of the selected files of one project, in the files given. Only the
    /// analyzers that can report at the asked severity (and ids) in these files run, each only in the files where it
    /// can (<see cref="AnalyzerSelection"/>): the diagnostics of the others would all be dropped below the severity.
    /// </summary>
    private static async Task<List<DiagnosticItem>> ProjectDiagnosticsAsync(
        IGrouping<ProjectId, (Document Document, string Relative)> group, string workspace, GeneratorReach reach, string? restoreFailed, int minimum, IReadOnlySet<string>? ids, CancellationToken cancellationToken)
    {
        List<DiagnosticItem> items = [];
        Project project = group.First().Document.Project;
        Compilation? compilation = await project.GetCompilationAsync(cancellationToken).ConfigureAwait(false);
        if (compilation is null)
        {
            return items;
        }

        Dictionary<SyntaxTree, string> trees = [];
        foreach ((Document document, string relative) in group)
        {
            if (await document.GetSyntaxTreeAsync(cancellationToken).ConfigureAwait(false) is { } tree)
            {
                trees[tree] = relative;
            }
        }

        Narrowing analyzers = CompilationAnalyzers.Narrow(project, compilation, trees.Keys, minimum, ids, cancellationToken);
        List<Diagnostic> found = [];
        if (trees.Count > PerFileThreshold)
        {
            // Many files of one project: one pass over the whole compilation is much cheaper than per-file passes.
            found.AddRange(await CompilationAnalyzers.AllAsync(project, compilation, analyzers, cancellationToken).ConfigureAwait(false));
        }
        else
        {
            foreach (SyntaxTree tree in trees.Keys)
            {
                found.AddRange(await CompilationAnalyzers.FileAsync(project, compilation, tree, analyzers, cancellationToken).ConfigureAwait(false));
            }
        }

        string projectPath = project.FilePath is null ? project.Name : PathUtil.ToWorkspaceRelative(workspace, project.FilePath);
        IReadOnlyList<ExcludedGeneratorName> inReach = reach.InReach(project.Id);
        string? generators = inReach.Count == 0 ? null : GeneratorReach.Names(inReach);
        bool ownGenerator = reach.Own(project.Id).Count > 0;
        foreach (Diagnostic diagnostic in found)
        {
            if (diagnostic.IsSuppressed || !diagnostic.Location.IsInSource
                || diagnostic.Location.SourceTree is not { } inTree || !trees.TryGetValue(inTree, out string? relative))
            {
                continue;
            }

            FileLinePositionSpan span = diagnostic.Location.GetLineSpan();
            string severity = SeverityName(diagnostic.Severity);
            items.Add(new DiagnosticItem(
                relative,
                span.StartLinePosition.Line + 1,
                span.StartLinePosition.Character + 1,
                span.EndLinePosition.Line + 1,
                span.EndLinePosition.Character + 1,
                severity,
                diagnostic.Id,
                diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture),
                projectPath)
            {
                ExcludedGenerator = severity == "error" ? generators : null,
                PartialType = severity == "error" && ownGenerator ? ExcludedGeneratorErrors.PartialTypeAt(inTree, diagnostic.Location.SourceSpan.Start, cancellationToken) : null,
                RestoreFailed = severity == "error" ? restoreFailed : null,
            });
        }

        return items;
    }

    /// <summary>
    /// The project-level caveats: for each excluded generator that may explain listed errors, how many and in which
    /// projects (a project in its reach lacks its output, in its own compilation or in a referenced assembly).
    /// </summary>
    private static List<GeneratorCaveat>? Caveats(List<DiagnosticItem> listed, GeneratorReach reach, Solution solution, string workspace)
    {
        if (reach.IsEmpty)
        {
            return null;
        }

        // Each project file's generators in reach, over all its flavours.
        Dictionary<string, HashSet<ExcludedGeneratorName>> byProject = new(StringComparer.Ordinal);
        foreach (Project project in solution.Projects)
        {
            string path = project.FilePath is null ? project.Name : PathUtil.ToWorkspaceRelative(workspace, project.FilePath);
            if (reach.InReach(project.Id) is not { Count: > 0 } generators)
            {
                continue;
            }

            if (!byProject.TryGetValue(path, out HashSet<ExcludedGeneratorName>? set))
            {
                byProject[path] = set = [];
            }

            set.UnionWith(generators);
        }

        List<GeneratorCaveat> caveats = [.. listed
            .Where(d => d.ExcludedGenerator is not null)
            .SelectMany(d => (byProject.GetValueOrDefault(d.Project) ?? []).Select(g => (Generator: g, Item: d)))
            .GroupBy(p => p.Generator)
            .Select(g =>
            {
                List<string> projects = [.. g.Select(p => p.Item.Project).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal)];
                return new GeneratorCaveat(g.Key.Name, g.Key.Origin, g.Count(), projects.Count, [.. projects.Take(3)]);
            })
            .OrderByDescending(c => c.Errors).ThenBy(c => c.Generator, StringComparer.Ordinal)];
        return caveats.Count == 0 ? null : caveats;
    }

    /// <summary>Whether a diagnostics <c>path</c> asks for generated files: one file (not a glob), or a glob naming obj/ or .g.cs itself.</summary>
    private static bool AsksForGenerated(string? path)
    {
        if (string.IsNullOrWhiteSpace(path))
        {
            return false;
        }

        string wanted = path.Trim().Replace('\\', '/');
        return !PathGlob.IsGlob(wanted)
            || wanted.Contains("obj/", StringComparison.OrdinalIgnoreCase)
            || wanted.Contains(".g.", StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>True when <see cref="FileResolver.DiskFiles"/> would not list the file (it is under bin, obj, artifacts, node_modules or a dot folder).</summary>
    private static bool IsSkippedByDiskWalk(string workspace, string file)
    {
        string relative = Path.GetRelativePath(workspace, Path.GetDirectoryName(file)!);
        return relative != "." && relative.Split(Path.DirectorySeparatorChar).Any(name => name is "bin" or "obj" or "artifacts" or "node_modules" || name.StartsWith('.'));
    }

    private static string SeverityName(DiagnosticSeverity severity) => severity switch
    {
        DiagnosticSeverity.Error => "error",
        DiagnosticSeverity.Warning => "warning",
        DiagnosticSeverity.Info => "information",
        _ => "hint",
    };

    /// <summary>Exact path, unique whole-segment suffix (the shared file rule), or glob; null/empty: every file.</summary>
    private static (Func<string, bool> Matches, string? ResolvedFile, string? Single) PathFilter(string? path, Solution solution, string workspace)
    {
        if (string.IsNullOrWhiteSpace(path))
        {
            return (_ => true, null, null);
        }

        string wanted = path.Trim().Replace('\\', '/');
        if (Path.IsPathRooted(wanted))
        {
            wanted = PathUtil.ToWorkspaceRelative(workspace, wanted);
        }

        if (PathGlob.IsGlob(wanted))
        {
            try
            {
                return (PathGlob.PathFilter(wanted, ignoreCase: PathUtil.Comparison != StringComparison.Ordinal), null, null);
            }
            catch (ArgumentException ex)
            {
                throw SemanticException.InvalidRequest($"'path' is {ex.Message}");
            }
        }

        ResolvedFile file = FileResolver.Resolve(solution, workspace, wanted);
        return (relative => relative.Equals(file.Relative, PathUtil.Comparison), file.Reported, file.FullPath);
    }

    /// <summary>Matching .cs/.csx files under the workspace that no project of the solution compiles.</summary>
    /// <summary>
    /// A lease in which a C# file created moments ago had its chance to join a project: when one is
    /// still outside every project, waits out its grace and acquires again (the cache notices the new
    /// compile item and reloads, with authorization, if a project's globs include it). Returns the
    /// lease with the path filter and the files outside every project, computed once for it.
    /// </summary>
    private async Task<(ContextLease Lease, Func<string, bool> Matches, string? ResolvedFile, List<string> Incomplete)> AcquireGivingNewFilesTimeAsync(
        ContextRequest request, IEvaluationAuthorizer? authorizer, DiagnosticsParams parameters, CancellationToken cancellationToken)
    {
        string workspace = request.Target.Workspace;
        for (bool waited = false; ; waited = true)
        {
            ContextLease lease = await cache.AcquireAsync(request, authorizer, cancellationToken).ConfigureAwait(false);
            try
            {
                (Func<string, bool> matches, string? resolvedFile, string? single) = PathFilter(parameters.Path, lease.Solution, workspace);
                List<string> incomplete = Incomplete(workspace, lease.Solution, matches, single, parameters.Project is null);
                DateTime newest = incomplete.Select(relative => File.GetLastWriteTimeUtc(Path.Combine(workspace, relative))).DefaultIfEmpty(DateTime.MinValue).Max();
                TimeSpan remaining = newest + NewFileGrace - DateTime.UtcNow;
                if (waited || remaining <= TimeSpan.Zero)
                {
                    return (lease, matches, resolvedFile, incomplete);
                }

                lease.Dispose();
                await Task.Delay(remaining < NewFileGrace ? remaining : NewFileGrace, cancellationToken).ConfigureAwait(false);
            }
            catch
            {
                lease.Dispose();
                throw;
            }
        }
    }

    private static List<string> Incomplete(string workspace, Solution solution, Func<string, bool> matches, string? single, bool allProjects)
    {
        if (!allProjects)
        {
            return [];
        }

        if (single is not null)
        {
            // One file asked for: only it can be outside every project (no walk of the workspace).
            bool compiled = SolutionPaths.DocumentIdsAt(solution, single).Any(solution.ContainsDocument);
            bool source = single.EndsWith(".cs", StringComparison.OrdinalIgnoreCase) || single.EndsWith(".csx", StringComparison.OrdinalIgnoreCase);
            return compiled || !source || !File.Exists(single) || !PathUtil.IsUnder(single, workspace) || IsSkippedByDiskWalk(workspace, single)
                ? []
                : [PathUtil.ToWorkspaceRelative(workspace, single)];
        }

        HashSet<string> known = new(solution.Projects.SelectMany(p => p.Documents).Select(d => d.FilePath).OfType<string>(), PathUtil.Comparer);
        List<string> result = [.. FileResolver.DiskFiles(workspace, MaxFiles * 10)
            .Where(file => !known.Contains(file))
            .Select(file => PathUtil.ToWorkspaceRelative(workspace, file))
            .Where(matches)];
        result.Sort(StringComparer.Ordinal);
        return result;
    }
}
