using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Authorization;
using SharpClaw.Server.Semantic.Cache;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Symbols;
using SharpClaw.Server.Semantic.TestSelection;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>
/// <c>sharpclaw/reachedTests</c>, the verifier's request: the symbols of a change resolved as navigate resolves them,
/// one <see cref="TestWalk"/> over all of them, and every reached test once with the names runners filter on. A symbol
/// that does not resolve is reported, not skipped, so the caller can fall back to every test.
/// </summary>
public sealed class ReachedTestsService(SemanticContextCache cache)
{
    public async Task<ReachedTestsResult> ReachedTestsAsync(ReachedTestsParams parameters, IEvaluationAuthorizer? authorizer, CancellationToken cancellationToken)
    {
        if (parameters.Symbols is not null || parameters.Changes is null)
        {
            ParamCheck.Count<ReachedTestsParams>(nameof(ReachedTestsParams.Symbols), parameters.Symbols?.Count ?? 0);
        }

        if (parameters.Changes is not null)
        {
            ParamCheck.Count<ReachedTestsParams>(nameof(ReachedTestsParams.Changes), parameters.Changes.Count);
        }

        ContextRequest request = SemanticWorkspaceService.CreateRequest(parameters);
        string workspace = request.Target.Workspace;
        List<ReachedTestsSymbol> symbols = [.. parameters.Symbols ?? []];
        List<string> fallbacks = [];
        int changedMembers = 0;
        foreach (ReachedTestsChange change in parameters.Changes ?? [])
        {
            ChangedMembers.Result changed = CompareWithWorkspace(workspace, change);
            fallbacks.AddRange(changed.Fallbacks);
            changedMembers += changed.Members.Count;
            symbols.AddRange(changed.Members.Select(m => new ReachedTestsSymbol { Path = change.Path, Line = m.Line, Character = m.Character }));
        }

        if (symbols.Count == 0)
        {
            return new ReachedTestsResult([], null, false, null, [], 0, 0, fallbacks, []);
        }

        return await cache.QueryAsync(request, authorizer, lease => RunAsync(lease, workspace, parameters, symbols, changedMembers, fallbacks, cache.Log, cancellationToken), cancellationToken).ConfigureAwait(false);
    }

    /// <summary>The change's members against the file as it is in the workspace now (a path outside it is the caller's error).</summary>
    private static ChangedMembers.Result CompareWithWorkspace(string workspace, ReachedTestsChange change)
    {
        if (string.IsNullOrWhiteSpace(change.Path))
        {
            throw SemanticException.InvalidRequest("Each change needs a 'path' (workspace-relative).");
        }

        string file = PathUtil.Normalize(Path.Combine(workspace, change.Path));
        if (!PathUtil.IsUnder(file, workspace) || !file.EndsWith(".cs", StringComparison.OrdinalIgnoreCase))
        {
            throw SemanticException.InvalidRequest($"Change '{change.Path}' is not a C# file inside the workspace.");
        }

        FileInfo info = new(file);
        if (info.Exists && info.Length > MaxFileBytes)
        {
            return new([], [$"{change.Path} is larger than {MaxFileBytes / (1024 * 1024)} MiB"]);
        }

        string? after = info.Exists ? File.ReadAllText(file) : null;
        return ChangedMembers.Compare(change.Before, after, change.Path);
    }

    /// <summary>The largest changed file compared (as the client's bounded reader of workspace files).</summary>
    private const long MaxFileBytes = 8L * 1024 * 1024;

    private static async Task<ReachedTestsResult> RunAsync(ContextLease lease, string workspace, ReachedTestsParams shared, IReadOnlyList<ReachedTestsSymbol> symbols, int changedMembers, IReadOnlyList<string> fallbacks, HostLog? log, CancellationToken cancellationToken)
    {
        Solution solution = lease.Solution;
        PhaseClock clock = new();
        List<ISymbol> starts = [];
        List<ReachedTestsFailure> failures = [];
        for (int i = 0; i < symbols.Count; i++)
        {
            ReachedTestsSymbol symbol = symbols[i];
            NavigateParams selector = new() { Workspace = shared.Workspace, Target = shared.Target, Name = symbol.Name, Path = symbol.Path, Line = symbol.Line, Character = symbol.Character, Action = "tests" };
            try
            {
                SymbolMatch match = await SymbolResolver.ResolveAsync(lease, workspace, selector, cancellationToken).ConfigureAwait(false);
                starts.Add(match.Symbol);
            }
            catch (SemanticException ex)
            {
                failures.Add(new ReachedTestsFailure(i, ex.Kind, ex.Message));
            }
        }

        clock.Lap("resolve");
        TestWalk.Outcome walk = await TestWalk.WalkAsync(starts, solution, cancellationToken).ConfigureAwait(false);
        clock.Lap("walk");
        List<GeneratorGap>? gaps = await GeneratorReach.Of(lease.Context, solution).TestWalkGapsAsync(starts, walk.Members, solution, workspace, cancellationToken).ConfigureAwait(false);
        clock.Lap("generator gaps");
        NavigationFormat format = new(solution, workspace, context: false);
        List<ReachedTest> tests = [];
        foreach (IMethodSymbol test in walk.Tests)
        {
            Location? location = test.Locations.FirstOrDefault(l => l.IsInSource);
            Project? project = location?.SourceTree is { } tree ? solution.GetDocument(tree)?.Project : null;
            NavigateLocation? at = location is null ? null : format.Location(location);
            tests.Add(new ReachedTest(
                NavigateService.TestName(test),
                MetadataName(test.ContainingType) + "." + test.Name,
                await ClassesAsync(test.ContainingType, solution, cancellationToken).ConfigureAwait(false),
                project?.FilePath is { } file ? PathUtil.ToWorkspaceRelative(workspace, file) : project?.Name ?? string.Empty,
                at?.Path ?? string.Empty,
                at?.Line ?? 0));
        }

        clock.Lap("test classes");
        IReadOnlyList<ProjectTestCount> counts = await ProjectTestCounts.OfAsync(solution, workspace, cancellationToken).ConfigureAwait(false);
        clock.Lap("test counts");
        log?.Debug($"reachedTests: {starts.Count} of {symbols.Count} symbol(s), {walk.Visited} member(s) visited, {tests.Count} test(s); {clock}.");
        return new ReachedTestsResult(
            [.. tests.Distinct().OrderBy(t => t.Project, StringComparer.Ordinal).ThenBy(t => t.Path, StringComparer.Ordinal).ThenBy(t => t.Line).ThenBy(t => t.Name, StringComparer.Ordinal)],
            NavigateService.Unfollowable(walk.Unfollowable, format),
            walk.LimitReached,
            gaps,
            failures,
            walk.Visited,
            changedMembers,
            fallbacks,
            counts);
    }

    /// <summary>The classes a test runs in, as runners name them (Namespace.Outer+Inner, generic arity kept).</summary>
    private static async Task<IReadOnlyList<string>> ClassesAsync(INamedTypeSymbol type, Solution solution, CancellationToken cancellationToken) =>
        [.. (await RunningClassesAsync(type, solution, cancellationToken).ConfigureAwait(false)).Select(MetadataName).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal)];

    /// <summary>
    /// The classes a test declared in <paramref name="type"/> runs in: its own unless abstract, and the concrete
    /// classes deriving from it (a runner runs, and names, an inherited test in each).
    /// </summary>
    internal static async Task<IReadOnlyList<INamedTypeSymbol>> RunningClassesAsync(INamedTypeSymbol type, Solution solution, CancellationToken cancellationToken)
    {
        List<INamedTypeSymbol> classes = [];
        if (!type.IsAbstract)
        {
            classes.Add(type);
        }

        if (!type.IsSealed && !type.IsStatic)
        {
            foreach (INamedTypeSymbol derived in await SymbolFinder.FindDerivedClassesAsync(type, solution, transitive: true, cancellationToken: cancellationToken).ConfigureAwait(false))
            {
                if (!derived.IsAbstract)
                {
                    classes.Add(derived);
                }
            }
        }

        return classes;
    }

    /// <summary>
    /// Namespace.Outer+Inner as reflection's <c>Type.FullName</c> spells a definition: a generic class keeps its arity
    /// (<c>FeeTests`1</c>), since runners name its closed fixtures by their type arguments (NUnit's
    /// <c>FeeTests&lt;Int32&gt;</c>) and the filter must know the name is not literal.
    /// </summary>
    private static string MetadataName(INamedTypeSymbol type) =>
        type.ContainingType is { } outer ? MetadataName(outer) + "+" + type.MetadataName
        : type.ContainingNamespace is { IsGlobalNamespace: false } ns ? ns.ToDisplayString() + "." + type.MetadataName
        : type.MetadataName;
}
