using Microsoft.CodeAnalysis;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Loading;
using SharpClaw.Server.Semantic.Symbols;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>
/// Decides whether an edit can be verified: an excluded generator only matters when it sits in a project
/// that can see a changed symbol — the declaring project (every target framework flavour of it) and every
/// project that depends on it, directly or transitively; for a <c>private</c> member the declaring project
/// alone. Excluded analyzers that contain no generator only miss warnings and never block. The
/// <c>unverified</c> error names exactly the projects and generators that block.
/// </summary>
public static class EditVerifiability
{
    /// <summary>Project files (all flavours) that can see <paramref name="symbol"/>.</summary>
    public static IReadOnlySet<string> ProjectsThatSee(Solution solution, ISymbol symbol)
    {
        List<ProjectId> declaring = [.. symbol.Locations
            .Where(l => l.IsInSource && l.SourceTree is not null)
            .Select(l => solution.GetDocumentId(l.SourceTree!)?.ProjectId)
            .OfType<ProjectId>()
            .Distinct()];
        bool privateOnly = GeneratorReach.IsPrivate(symbol);
        return Visible(solution, declaring, withDependents: !privateOnly);
    }

    /// <summary>Project files (all flavours) that can see something declared in the given documents' projects.</summary>
    public static IReadOnlySet<string> ProjectsThatSee(Solution solution, IEnumerable<ProjectId> changedProjects) =>
        Visible(solution, [.. changedProjects], withDependents: true);

    /// <summary>The projects a solution change touches (changed, added or removed documents).</summary>
    public static IEnumerable<ProjectId> ChangedProjects(Solution before, Solution after) =>
        after.GetChanges(before).GetProjectChanges().Select(p => p.ProjectId);

    /// <summary>The excluded generators (not plain analyzers) in <paramref name="projects"/>.</summary>
    public static List<AnalyzerExclusion> BlockingGenerators(SemanticContext context, IReadOnlySet<string> projects) =>
        [.. context.ExcludedAnalyzers.Where(e => projects.Contains(e.ProjectPath) && GeneratorDetector.MayContainGenerator(e.AnalyzerPath))];

    /// <summary>The <c>unverified</c> refusal when an excluded generator sits in a project that can see the change, else null.</summary>
    public static SemanticException? Refusal(ContextLease lease, string workspace, string what, IReadOnlySet<string> projects)
    {
        List<AnalyzerExclusion> generators = BlockingGenerators(lease.Context, projects);
        if (generators.Count == 0)
        {
            return null;
        }

        List<string> excluded = [.. generators
            .Select(e => $"{PathUtil.ToWorkspaceRelative(workspace, e.ProjectPath)}: {e.Package ?? Path.GetFileName(e.AnalyzerPath)}")
            .Distinct(StringComparer.Ordinal)
            .Order(StringComparer.Ordinal)];
        int projectCount = generators.Select(g => g.ProjectPath).Distinct(PathUtil.Comparer).Count();
        return SemanticException.Edit(
            SemanticErrorKind.Unverified,
            $"{what} cannot be verified: {projectCount} project{(projectCount == 1 ? string.Empty : "s")} that can see the change use{(projectCount == 1 ? "s" : string.Empty)} a source generator SharpClaw does not run (not shipped by the installed SDK), so the code it generates is not checked. Nothing was changed. Edit the files deliberately, then build to verify.",
            excluded);
    }

    /// <summary>The project files of <see cref="GeneratorReach.VisibleFrom"/> (one rule for who can see a symbol).</summary>
    private static HashSet<string> Visible(Solution solution, List<ProjectId> declaring, bool withDependents) =>
        new(GeneratorReach.VisibleFrom(solution, declaring, withDependents).Select(id => solution.GetProject(id)).OfType<Project>().Select(p => p.FilePath ?? p.Name), PathUtil.Comparer);
}
