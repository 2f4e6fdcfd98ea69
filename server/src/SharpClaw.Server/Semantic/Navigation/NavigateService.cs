using Microsoft.CodeAnalysis;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Authorization;
using SharpClaw.Server.Semantic.Cache;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Symbols;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>
/// <c>sharpclaw/navigate</c>: one action on a symbol addressed by name or by file + line + character
/// (file + line alone for source and members). Lists are filtered, in file and position order, then paged.
/// </summary>
public sealed class NavigateService(SemanticContextCache cache)
{
    /// <summary>Impact answers list at most this many items in all; the largest sections go first when they do not fit.</summary>
    public const int ImpactBudget = 150;

    public async Task<NavigateResult> NavigateAsync(NavigateParams parameters, IEvaluationAuthorizer? authorizer, CancellationToken cancellationToken)
    {
        string action = ParamCheck.OneOf<NavigateParams>(nameof(NavigateParams.Action), parameters.Action);
        int offset = ParamCheck.Bounded<NavigateParams>(nameof(NavigateParams.Offset), parameters.Offset);
        int limit = ParamCheck.Bounded<NavigateParams>(nameof(NavigateParams.Limit), parameters.Limit);
        ContextRequest request = SemanticWorkspaceService.CreateRequest(parameters);
        return await cache.QueryAsync(request, authorizer, lease => RunAsync(lease, request.Target.Workspace, parameters, action, offset, limit, cancellationToken), cancellationToken).ConfigureAwait(false);
    }

    /// <summary>The actions that search every flavour of a multi-targeted declaring project and merge (the others answer from one).</summary>
    private static readonly HashSet<string> SearchesEveryFlavour = ["implementation", "references", "reads", "writes", "callers", "subtypes", "impact", "tests"];

    /// <summary>
    /// The actions whose lists code an excluded generator writes could add to, and whether only by implementing
    /// (<see cref="GeneratorReach.Gaps"/>). tests names its own: the generators that could call any member of its walk.
    /// </summary>
    internal static IReadOnlyDictionary<string, bool> GeneratorCouldAdd { get; } = new Dictionary<string, bool>(StringComparer.Ordinal)
    {
        ["implementation"] = true,
        ["subtypes"] = true,
        ["references"] = false,
        ["reads"] = false,
        ["writes"] = false,
        ["callers"] = false,
        ["impact"] = false,
    };

    internal static async Task<NavigateResult> RunAsync(ContextLease lease, string workspace, NavigateParams parameters, string action, int offset, int limit, CancellationToken cancellationToken)
    {
        SymbolMatch match = await TargetAsync(lease, workspace, parameters, action, cancellationToken).ConfigureAwait(false);
        NavigateResult result = await AnswerAsync(lease, workspace, parameters, match, action, offset, limit, cancellationToken).ConfigureAwait(false);
        return GeneratorCouldAdd.TryGetValue(action, out bool implementing)
            ? result with { GeneratorGaps = await GeneratorReach.Of(lease.Context, lease.Solution).GapsAsync(match.Symbol, lease.Solution, workspace, implementing, cancellationToken).ConfigureAwait(false) }
            : result;
    }

    private static async Task<NavigateResult> AnswerAsync(ContextLease lease, string workspace, NavigateParams parameters, SymbolMatch match, string action, int offset, int limit, CancellationToken cancellationToken)
    {
        Solution solution = lease.Solution;
        ISymbol symbol = match.Symbol;
        NavigationFormat format = new(solution, workspace, parameters.Context == true);
        (string project, string? framework) = SymbolQueryService.Answered(lease, workspace, match.Project);
        FlavourNote? flavours = Flavours.Note(match.Project, lease.Context.Frameworks, searched: SearchesEveryFlavour.Contains(action));
        Builder result = new(action, SymbolFormat.Describe(symbol, workspace, solution), project, framework, SymbolQueryService.Excluded(lease, workspace), match.ResolvedFile, flavours, offset, limit);

        switch (action)
        {
            case "definition":
                return result.Locations(symbol.Locations.Where(l => l.IsInSource).Select(format.Location));
            case "type_definition":
                return result.Locations(TypeOf(symbol, match.Display)?.Locations.Where(l => l.IsInSource).Select(format.Location) ?? []);
            case "implementation":
            {
                List<ISymbol> implementations = await Relations.SubtypesAsync(symbol, solution, cancellationToken).ConfigureAwait(false);
                return result.Locations(implementations.SelectMany(s => s.Locations).Where(l => l.IsInSource).Select(format.Location));
            }

            case "references":
            {
                (List<ReferenceHit> hits, int generated) = await ReferenceFinder.FindAsync(symbol, solution, cancellationToken).ConfigureAwait(false);
                return result.Locations(hits.Select(h => format.Location(h.Location)), generated);
            }

            case "reads" or "writes":
            {
                if (symbol is not (IFieldSymbol or IPropertySymbol or ILocalSymbol or IParameterSymbol or IEventSymbol))
                {
                    throw SemanticException.InvalidRequest($"{action} needs a field, property, local, parameter or event; {match.Display} is a {match.Kind}.");
                }

                Access wanted = action == "reads" ? Access.Read : Access.Write;
                (List<ReferenceHit> hits, int generated) = await ReferenceFinder.FindAsync(symbol, solution, cancellationToken).ConfigureAwait(false);
                List<NavigateLocation> kept = [];
                foreach (ReferenceHit hit in hits)
                {
                    SemanticModel? model = await hit.Document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false);
                    SyntaxNode? root = await hit.Document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
                    if (model is null || root is null)
                    {
                        continue;
                    }

                    SyntaxNode node = root.FindNode(hit.Location.SourceSpan, getInnermostNodeForTie: true);
                    if ((AccessClassifier.Classify(node, model, cancellationToken) & wanted) != 0)
                    {
                        kept.Add(format.Location(hit.Location));
                    }
                }

                return result.Locations(kept, generated);
            }

            case "callers":
            {
                (List<RelatedSymbol> callers, int generated) = await CallGraph.CallersAsync(symbol, format, cancellationToken).ConfigureAwait(false);
                return result.Related(callers, omittedGenerated: generated);
            }

            case "callees":
            {
                (List<RelatedSymbol> callees, int accesses) = await CallGraph.CalleesAsync(symbol, format, cancellationToken).ConfigureAwait(false);
                return result.Related(callees, accesses);
            }

            case "tests":
            {
                TestWalk.Outcome walk = await TestWalk.WalkAsync([symbol], solution, cancellationToken).ConfigureAwait(false);
                List<RelatedSymbol> lines = [];
                foreach (IMethodSymbol test in walk.Tests)
                {
                    // A test declared in an abstract class runs, and is named, in each concrete class deriving from it.
                    foreach (INamedTypeSymbol runs in await ReachedTestsService.RunningClassesAsync(test.ContainingType, solution, cancellationToken).ConfigureAwait(false))
                    {
                        lines.Add(TestLine(test, format) with { Name = ClassName(runs) + "." + test.Name });
                    }
                }

                return result.Related(NavigationFormat.Ordered(lines.DistinctBy(line => line.Name, StringComparer.Ordinal))) with
                {
                    Unfollowable = Unfollowable(walk.Unfollowable, format),
                    WalkLimit = walk.LimitReached ? TestWalk.MemberLimit : null,

                    // Generated code could call any member on the way, not only the symbol asked about.
                    GeneratorGaps = await GeneratorReach.Of(lease.Context, solution).TestWalkGapsAsync([symbol], walk.Members, solution, workspace, cancellationToken).ConfigureAwait(false),
                };
            }

            case "supertypes":
                return result.Related(NavigationFormat.Ordered(Relations.Supertypes(symbol).Select(s => format.Related(s))));
            case "subtypes":
                return result.Related(NavigationFormat.Ordered((await Relations.SubtypesAsync(symbol, solution, cancellationToken).ConfigureAwait(false)).Select(s => format.Related(s))));
            case "hover":
                return result.Hover(HoverText.For(symbol, match.Kind));
            case "source":
                return result.Sources(await MemberListing.SourcesAsync(symbol, format, cancellationToken).ConfigureAwait(false));
            case "members":
            {
                INamedTypeSymbol type = MemberListing.TypeOf(symbol, match.Display);
                return result.Members(SymbolFormat.Describe(type, workspace, solution), MemberListing.Members(type, workspace, solution));
            }

            default:
                return result.Impact(await ImpactAsync(symbol, format, cancellationToken).ConfigureAwait(false));
        }
    }

    /// <summary>A test's line: kind test, named Namespace.Class.Method (the name test runners filter on, nested types dotted).</summary>
    internal static RelatedSymbol TestLine(IMethodSymbol test, NavigationFormat format) =>
        format.Related(test) with { Kind = "test", Name = TestName(test) };

    /// <summary>Namespace.Class.Method of a test method, without parameters or generic arguments.</summary>
    internal static string TestName(IMethodSymbol test) => ClassName(test.ContainingType) + "." + test.Name;

    /// <summary>Namespace.Outer.Inner of a test class, without generic arguments.</summary>
    private static string ClassName(INamedTypeSymbol type) =>
        type.OriginalDefinition.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat.WithGlobalNamespaceStyle(SymbolDisplayGlobalNamespaceStyle.Omitted).WithGenericsOptions(SymbolDisplayGenericsOptions.None));

    /// <summary>The unfollowable places a walk met, the first <see cref="UnfollowableNote.MaxPlaces"/> in file order; null when none.</summary>
    internal static UnfollowableNote? Unfollowable(List<UnfollowableSite> sites, NavigationFormat format)
    {
        if (sites.Count == 0)
        {
            return null;
        }

        List<UnfollowablePlace> places = [.. sites
            .Select(site => (site.Kind, Location: format.Location(site.Location)))
            .Select(site => new UnfollowablePlace(site.Kind, site.Location.Path, site.Location.Line, site.Location.Character))
            .Distinct()
            .OrderBy(p => p.Path, StringComparer.Ordinal).ThenBy(p => p.Line).ThenBy(p => p.Character)];
        return new UnfollowableNote(places.Count, [.. places.Select(p => p.Kind).Distinct(StringComparer.Ordinal)], [.. places.Take(UnfollowableNote.MaxPlaces)]);
    }

    /// <summary>The symbol of the query; file + line alone (no character) for source and members means the innermost declaration there.</summary>
    private static async Task<SymbolMatch> TargetAsync(ContextLease lease, string workspace, NavigateParams parameters, string action, CancellationToken cancellationToken)
    {
        if (string.IsNullOrWhiteSpace(parameters.Name) && !string.IsNullOrWhiteSpace(parameters.Path) && parameters.Line is { } line && parameters.Character is null)
        {
            if (action is not ("source" or "members"))
            {
                throw SemanticException.InvalidRequest($"{action} needs a character with file and line (file and line alone work for source and members).");
            }

            if (line < 1)
            {
                throw SemanticException.InvalidRequest("'line' and 'character' are one-based.");
            }

            Solution solution = lease.Solution;
            List<Project> projects = SymbolResolver.SelectProjects(solution, workspace, parameters.Project);
            ResolvedFile file = FileResolver.Resolve(solution, workspace, parameters.Path);
            Document document = SymbolResolver.FindDocument(projects, file);
            ISymbol symbol = await MemberListing.InnermostAsync(document, line, action == "members", file.Relative, cancellationToken).ConfigureAwait(false);
            return new SymbolMatch(symbol, document.Project, symbol.ToDisplayString(SymbolFormat.NameFormat), SymbolFormat.KindOf(symbol)) { ResolvedFile = file.Reported };
        }

        return await SymbolResolver.ResolveAsync(lease, workspace, parameters, cancellationToken).ConfigureAwait(false);
    }

    private static INamedTypeSymbol? TypeOf(ISymbol symbol, string display)
    {
        ITypeSymbol? type = symbol switch
        {
            ITypeSymbol t => t,
            ILocalSymbol local => local.Type,
            IParameterSymbol parameter => parameter.Type,
            IFieldSymbol field => field.Type,
            IPropertySymbol property => property.Type,
            IEventSymbol @event => @event.Type,
            IMethodSymbol { MethodKind: MethodKind.Constructor } constructor => constructor.ContainingType,
            IMethodSymbol method => method.ReturnType,
            _ => throw SemanticException.InvalidRequest($"{display} has no type."),
        };
        while (type is IArrayTypeSymbol or IPointerTypeSymbol)
        {
            type = type is IArrayTypeSymbol array ? array.ElementType : ((IPointerTypeSymbol)type).PointedAtType;
        }

        if (type is INamedTypeSymbol { OriginalDefinition.SpecialType: SpecialType.System_Nullable_T } nullable)
        {
            type = nullable.TypeArguments[0];
        }

        return (type as INamedTypeSymbol)?.OriginalDefinition;
    }

    private static async Task<(List<ImpactSection> Sections, List<OmittedSection> Omitted)> ImpactAsync(ISymbol symbol, NavigationFormat format, CancellationToken cancellationToken)
    {
        (List<ReferenceHit> hits, int generated) = await ReferenceFinder.FindAsync(symbol, format.Solution, cancellationToken).ConfigureAwait(false);
        List<NavigateLocation> references = NavigationFormat.Ordered(hits.Select(h => format.Location(h.Location)));
        List<ImpactSection> sections = [new ImpactSection("references", references.Count, references, null, generated)];
        List<RelatedSymbol> subtypes = NavigationFormat.Ordered((await Relations.SubtypesAsync(symbol, format.Solution, cancellationToken).ConfigureAwait(false)).Select(s => format.Related(s)));
        if (symbol is INamedTypeSymbol)
        {
            sections.Add(new ImpactSection("subtypes", subtypes.Count, null, subtypes, 0));
        }
        else
        {
            (List<RelatedSymbol> callers, int generatedCalls) = await CallGraph.CallersAsync(symbol, format, cancellationToken).ConfigureAwait(false);
            sections.Add(new ImpactSection("callers", callers.Count, null, callers, generatedCalls));
            sections.Add(new ImpactSection("implementations", subtypes.Count, null, subtypes, 0));
        }

        List<OmittedSection> omitted = [];
        while (sections.Sum(Size) > ImpactBudget)
        {
            ImpactSection largest = sections.OrderByDescending(Size).First();
            sections.Remove(largest);
            omitted.Add(new OmittedSection(largest.Action, largest.Total, Size(largest)));
        }

        return (sections, omitted);
    }

    /// <summary>Lines a section takes: one per location or symbol, plus one per call site.</summary>
    private static int Size(ImpactSection section) =>
        (section.Locations?.Count ?? 0) + (section.Related?.Sum(r => 1 + (r.CallSites?.Count ?? 0)) ?? 0);

    /// <summary>Builds the result of one action, paging its list.</summary>
    private sealed class Builder(string action, ResolvedSymbol symbol, string project, string? framework, IReadOnlyList<ExcludedAnalyzers>? excluded, string? resolvedFile, FlavourNote? flavours, int offset, int limit)
    {
        public NavigateResult Locations(IEnumerable<NavigateLocation> locations, int omittedGenerated = 0)
        {
            List<NavigateLocation> all = NavigationFormat.Ordered(locations);
            (List<NavigateLocation> page, bool truncated) = Page(all);
            return this.Create(locations: page, total: all.Count, truncated: truncated, shown: page.Count, omittedGenerated: omittedGenerated);
        }

        public NavigateResult Related(List<RelatedSymbol> related, int omittedAccesses = 0, int omittedGenerated = 0)
        {
            (List<RelatedSymbol> page, bool truncated) = Page(related);
            return this.Create(related: page, total: related.Count, truncated: truncated, shown: page.Count, omittedGenerated: omittedGenerated, omittedAccesses: omittedAccesses);
        }

        public NavigateResult Members(ResolvedSymbol type, List<MemberItem> members)
        {
            (List<MemberItem> page, bool truncated) = Page(members);
            return this.Create(members: page, total: members.Count, truncated: truncated, shown: page.Count) with { Symbol = type };
        }

        public NavigateResult Hover(string text) => this.Create(hover: text, total: 1, shown: 1);

        public NavigateResult Sources(List<SourcePart> sources) => this.Create(sources: sources, total: sources.Count, shown: sources.Count);

        public NavigateResult Impact((List<ImpactSection> Sections, List<OmittedSection> Omitted) impact) =>
            this.Create(sections: impact.Sections, omittedToFit: impact.Omitted, total: impact.Sections.Sum(s => s.Total) + impact.Omitted.Sum(s => s.Total), shown: 0, paged: false);

        private (List<T> Page, bool Truncated) Page<T>(List<T> all)
        {
            List<T> page = [.. all.Skip(offset).Take(limit)];
            return (page, offset + page.Count < all.Count);
        }

        private NavigateResult Create(
            IReadOnlyList<NavigateLocation>? locations = null,
            IReadOnlyList<RelatedSymbol>? related = null,
            string? hover = null,
            IReadOnlyList<SourcePart>? sources = null,
            IReadOnlyList<MemberItem>? members = null,
            IReadOnlyList<ImpactSection>? sections = null,
            IReadOnlyList<OmittedSection>? omittedToFit = null,
            int total = 0,
            bool truncated = false,
            int shown = 0,
            int omittedGenerated = 0,
            int omittedAccesses = 0,
            bool paged = true) =>
            new(action, symbol, project, framework, locations, related, hover, sources, members, sections, omittedToFit, total, paged ? offset : 0, limit, truncated, truncated ? offset + shown : null, omittedGenerated, omittedAccesses, excluded)
            {
                ResolvedFile = resolvedFile,
                Flavours = flavours,
            };
    }
}
