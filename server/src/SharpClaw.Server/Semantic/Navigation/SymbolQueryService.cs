using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.Text;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Authorization;
using SharpClaw.Server.Semantic.Cache;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Symbols;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>The read tools' symbol queries: resolve, references, type hierarchy.</summary>
public sealed class SymbolQueryService(SemanticContextCache cache)
{

    public async Task<SymbolResolveResult> ResolveAsync(SymbolResolveParams parameters, IEvaluationAuthorizer? authorizer, CancellationToken cancellationToken)
    {
        ContextRequest request = SemanticWorkspaceService.CreateRequest(parameters);
        return await cache.QueryAsync(request, authorizer, lease => ResolveCoreAsync(lease, request, parameters, cancellationToken), cancellationToken).ConfigureAwait(false);
    }

    private static async Task<SymbolResolveResult> ResolveCoreAsync(ContextLease lease, ContextRequest request, SymbolResolveParams parameters, CancellationToken cancellationToken)
    {
        string workspace = request.Target.Workspace;
        SymbolMatch match = await SymbolResolver.ResolveAsync(lease, workspace, parameters, cancellationToken).ConfigureAwait(false);
        (string project, string? framework) = Answered(lease, workspace, match.Project);
        return new SymbolResolveResult(SymbolFormat.Describe(match.Symbol, workspace, lease.Solution), project, framework, Excluded(lease, workspace))
        {
            ResolvedFile = match.ResolvedFile,
            Flavours = Flavours.Note(match.Project, lease.Context.Frameworks, searched: false),
        };
    }

    public async Task<FindReferencesResult> FindReferencesAsync(FindReferencesParams parameters, IEvaluationAuthorizer? authorizer, CancellationToken cancellationToken)
    {
        int offset = ParamCheck.Bounded<FindReferencesParams>(nameof(FindReferencesParams.Offset), parameters.Offset);
        int limit = ParamCheck.Bounded<FindReferencesParams>(nameof(FindReferencesParams.Limit), parameters.Limit);
        ContextRequest request = SemanticWorkspaceService.CreateRequest(parameters);
        return await cache.QueryAsync(request, authorizer, lease => FindReferencesCoreAsync(lease, request, parameters, offset, limit, cancellationToken), cancellationToken).ConfigureAwait(false);
    }

    private static async Task<FindReferencesResult> FindReferencesCoreAsync(ContextLease lease, ContextRequest request, FindReferencesParams parameters, int offset, int limit, CancellationToken cancellationToken)
    {
        string workspace = request.Target.Workspace;
        Solution solution = lease.Solution;
        SymbolMatch match = await SymbolResolver.ResolveAsync(lease, workspace, parameters, cancellationToken).ConfigureAwait(false);

        (List<ReferenceHit> hits, int omittedGenerated) = await ReferenceFinder.FindAsync(match.Symbol, solution, cancellationToken).ConfigureAwait(false);
        List<(SymbolReference Location, Document Document, TextSpan Span)> references = [.. hits.Select(hit =>
        {
            SourceLocation at = SymbolFormat.ToLocation(hit.Location, workspace, lease.Solution);
            return (new SymbolReference(at.Path, at.Line, at.Character, null), hit.Document, hit.Location.SourceSpan);
        })];

        List<(SymbolReference Location, Document Document, TextSpan Span)> ordered = [.. references
            .OrderBy(r => r.Location.Path, StringComparer.Ordinal).ThenBy(r => r.Location.Line).ThenBy(r => r.Location.Character)];
        List<SymbolReference> page = [];
        foreach ((SymbolReference location, Document document, TextSpan span) in ordered.Skip(offset).Take(limit))
        {
            if (parameters.Context == true)
            {
                SourceText text = await document.GetTextAsync(cancellationToken).ConfigureAwait(false);
                page.Add(location with { Context = text.Lines.GetLineFromPosition(span.Start).ToString().Trim() });
            }
            else
            {
                page.Add(location);
            }
        }

        bool truncated = offset + page.Count < ordered.Count;
        (string project, string? framework) = Answered(lease, workspace, match.Project);
        return new FindReferencesResult(
            SymbolFormat.Describe(match.Symbol, workspace, lease.Solution),
            project,
            framework,
            page,
            ordered.Count,
            offset,
            limit,
            truncated,
            truncated ? offset + page.Count : null,
            omittedGenerated,
            Excluded(lease, workspace))
        {
            ResolvedFile = match.ResolvedFile,
            Flavours = Flavours.Note(match.Project, lease.Context.Frameworks, searched: true), // Roslyn follows the symbol into every flavour (linked documents)
            GeneratorGaps = await GeneratorReach.Of(lease.Context, solution).GapsAsync(match.Symbol, solution, workspace, implementable: false, cancellationToken).ConfigureAwait(false),
        };
    }

    public async Task<TypeHierarchyResult> TypeHierarchyAsync(TypeHierarchyParams parameters, IEvaluationAuthorizer? authorizer, CancellationToken cancellationToken)
    {
        int limit = ParamCheck.Bounded<TypeHierarchyParams>(nameof(TypeHierarchyParams.Limit), parameters.Limit);
        ContextRequest request = SemanticWorkspaceService.CreateRequest(parameters);
        return await cache.QueryAsync(request, authorizer, lease => TypeHierarchyCoreAsync(lease, request, parameters, limit, cancellationToken), cancellationToken).ConfigureAwait(false);
    }

    private static async Task<TypeHierarchyResult> TypeHierarchyCoreAsync(ContextLease lease, ContextRequest request, TypeHierarchyParams parameters, int limit, CancellationToken cancellationToken)
    {
        string workspace = request.Target.Workspace;
        Solution solution = lease.Solution;
        SymbolMatch match = await SymbolResolver.ResolveAsync(lease, workspace, parameters, cancellationToken).ConfigureAwait(false);
        if (match.Symbol is not INamedTypeSymbol type)
        {
            throw SemanticException.InvalidRequest($"{match.Display} is a {match.Kind}, not a type.");
        }

        List<ISymbol> baseTypes = [];
        for (INamedTypeSymbol? current = type.BaseType; current is not null; current = current.BaseType)
        {
            baseTypes.Add(current);
        }

        List<ISymbol> interfaces = [.. type.AllInterfaces];
        List<ISymbol> derived;
        List<ISymbol> implementations = [];
        // Consumers compile against different flavours of a multi-targeted declaring project: search from each.
        if (type.TypeKind == TypeKind.Interface)
        {
            derived = await Flavours.SearchAllAsync(type, solution, async t => await SymbolFinder.FindDerivedInterfacesAsync((INamedTypeSymbol)t, solution, transitive: true, cancellationToken: cancellationToken).ConfigureAwait(false), cancellationToken).ConfigureAwait(false);
            implementations = await Flavours.SearchAllAsync(type, solution, async t => await SymbolFinder.FindImplementationsAsync((INamedTypeSymbol)t, solution, transitive: true, cancellationToken: cancellationToken).ConfigureAwait(false), cancellationToken).ConfigureAwait(false);
        }
        else if (type.TypeKind == TypeKind.Class)
        {
            derived = await Flavours.SearchAllAsync(type, solution, async t => await SymbolFinder.FindDerivedClassesAsync((INamedTypeSymbol)t, solution, transitive: true, cancellationToken: cancellationToken).ConfigureAwait(false), cancellationToken).ConfigureAwait(false);
        }
        else
        {
            derived = [];
        }

        (string project, string? framework) = Answered(lease, workspace, match.Project);
        return new TypeHierarchyResult(
            SymbolFormat.Describe(type, workspace, solution),
            project,
            framework,
            Collect(baseTypes, solution, workspace, limit, keepOrder: true),
            Collect(interfaces, solution, workspace, limit, keepOrder: false),
            Collect(derived, solution, workspace, limit, keepOrder: false),
            Collect(implementations, solution, workspace, limit, keepOrder: false),
            limit,
            Excluded(lease, workspace))
        {
            ResolvedFile = match.ResolvedFile,
            Flavours = Flavours.Note(match.Project, lease.Context.Frameworks, searched: type.TypeKind is TypeKind.Interface or TypeKind.Class),
            GeneratorGaps = await GeneratorReach.Of(lease.Context, solution).GapsAsync(type, solution, workspace, implementable: true, cancellationToken).ConfigureAwait(false),
        };
    }

    private static SymbolCollection Collect(List<ISymbol> symbols, Solution solution, string workspace, int limit, bool keepOrder)
    {
        // One entry per declaration: the same type compiled in several flavours is one, but two types of the same full
        // name in different projects (a test class copied into two test projects, each with a private nested
        // implementation) are two. Grouping by name alone listed one of them.
        List<ResolvedSymbol> all = [.. symbols.Select(s => s.OriginalDefinition).Distinct(SymbolEqualityComparer.Default).Select(s => SymbolFormat.Describe(s!, workspace, solution))
            .GroupBy(s => (s.Name, s.Locations.FirstOrDefault())).Select(g => g.First())];
        if (!keepOrder)
        {
            all = [.. all
                .OrderBy(s => s.Locations.Count == 0 ? 1 : 0)
                .ThenBy(s => s.Locations.FirstOrDefault()?.Path, StringComparer.Ordinal)
                .ThenBy(s => s.Locations.FirstOrDefault()?.Line)
                .ThenBy(s => s.Locations.FirstOrDefault()?.Character)
                .ThenBy(s => s.Name, StringComparer.Ordinal)];
        }

        return new SymbolCollection([.. all.Take(limit)], all.Count, all.Count > limit);
    }

    internal static (string Project, string? Framework) Answered(ContextLease lease, string workspace, Project project) =>
        (project.FilePath is null ? project.Name : PathUtil.ToWorkspaceRelative(workspace, project.FilePath), lease.Context.Frameworks.GetValueOrDefault(project.Id));

    internal static IReadOnlyList<ExcludedAnalyzers>? Excluded(ContextLease lease, string workspace)
    {
        List<ExcludedAnalyzers> excluded = ResultBuilder.GroupExclusions(workspace, lease.Context.ExcludedAnalyzers);
        return excluded.Count == 0 ? null : excluded;
    }
}
