using System.Collections.Concurrent;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.Text;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Contexts;

namespace SharpClaw.Server.Semantic.Symbols;

/// <summary>Every reportable source symbol of a snapshot (solution order), and the same symbols by simple name.</summary>
internal sealed class SymbolIndex
{
    private readonly Dictionary<string, List<SymbolMatch>> byName = new(StringComparer.Ordinal);
    private readonly Dictionary<string, List<SymbolMatch>> byTail = new(StringComparer.Ordinal);

    public SymbolIndex(List<SymbolMatch> all)
    {
        this.All = all;
        this.NameMasks = new ulong[all.Count];
        for (int i = 0; i < all.Count; i++)
        {
            SymbolMatch match = all[i];
            this.NameMasks[i] = NameFilter.NameMask(match.Symbol.Name);
            IReadOnlyList<string> tail = NameQuery.TailOf(match.Display);
            Add(this.byName, tail[^1], match);
            if (tail.Count > 1)
            {
                Add(this.byTail, tail[0] + "." + tail[1], match);
            }
        }
    }

    public List<SymbolMatch> All { get; }

    /// <summary>
    /// What deduplication and a workspace query compute per match, kept with the snapshot's index (by reference: a
    /// <c>with</c> copy just computes again), so a repeated query over thousands of matches does not redo it.
    /// </summary>
    private readonly ConcurrentDictionary<SymbolMatch, string> locationKeys = new(ReferenceEqualityComparer.Instance);
    private readonly ConcurrentDictionary<SymbolMatch, (string Workspace, SourceLocation? Location)> firstLocations = new(ReferenceEqualityComparer.Instance);

    /// <summary>The match's first source position (path and offset), which tells apart two declarations sharing a display name.</summary>
    public string LocationKey(SymbolMatch match) => this.locationKeys.GetOrAdd(match, static m => SymbolResolver.FirstLocationKey(m.Symbol));

    /// <summary>The first of the match's locations as answers list them (<see cref="SymbolFormat.Locations"/>), or null when it has none in source.</summary>
    public SourceLocation? FirstLocation(SymbolMatch match, string workspace, Solution solution)
    {
        if (this.firstLocations.TryGetValue(match, out (string Workspace, SourceLocation? Location) known) && known.Workspace == workspace)
        {
            return known.Location;
        }

        SourceLocation? location = SymbolFormat.Locations(match.Symbol, workspace, solution).FirstOrDefault();
        this.firstLocations[match] = (workspace, location);
        return location;
    }

    /// <summary>Per entry of <see cref="All"/>, the characters of its simple name (<see cref="NameFilter.NameMask"/>): a name search skips most symbols without reading them.</summary>
    public ulong[] NameMasks { get; }

    /// <summary>
    /// The only symbols that can match <paramref name="query"/>, in index order: those whose display name ends
    /// in the query's last two segments (or last one, for a one-segment query), generic arguments ignored.
    /// </summary>
    public IReadOnlyList<SymbolMatch> Candidates(NameQuery query)
    {
        IReadOnlyList<string> tail = query.Tail;
        Dictionary<string, List<SymbolMatch>> table = tail.Count > 1 ? this.byTail : this.byName;
        return table.GetValueOrDefault(string.Join('.', tail)) ?? [];
    }

    private static void Add(Dictionary<string, List<SymbolMatch>> table, string key, SymbolMatch match)
    {
        if (!table.TryGetValue(key, out List<SymbolMatch>? list))
        {
            table[key] = list = [];
        }

        list.Add(match);
    }
}

/// <summary>A source symbol found in one project's compilation.</summary>
internal sealed record SymbolMatch(ISymbol Symbol, Project Project, string Display, string Kind)
{
    /// <summary>The file a suffix <c>path</c> resolved to (reported as <c>resolvedFile</c>), else null.</summary>
    public string? ResolvedFile { get; init; }
}

/// <summary>
/// Resolves the symbol selectors of the read tools (name, container, kind, project, path, signature,
/// declaration position) against the source symbols of a leased solution.
/// </summary>
internal static class SymbolResolver
{
    public const int MaxAmbiguous = 20;
    public const int MaxSimilar = 10;

    public static async Task<SymbolMatch> ResolveAsync(ContextLease lease, string workspace, ISymbolSelector selector, CancellationToken cancellationToken)
    {
        Solution solution = lease.Solution;
        List<Project> projects = SelectProjects(solution, workspace, selector.Project);
        if (selector.Line is < 1 || selector.Character is < 1)
        {
            throw SemanticException.InvalidRequest("'line' and 'character' are one-based.");
        }

        ResolvedFile? file = string.IsNullOrWhiteSpace(selector.Path) ? null : FileResolver.Resolve(solution, workspace, selector.Path);
        if (string.IsNullOrWhiteSpace(selector.Name))
        {
            if (file is null || selector.Line is null || selector.Character is null)
            {
                throw SemanticException.InvalidRequest("Pass 'name', or 'path' with 'line' and 'character'.");
            }

            return await AtPositionAsync(lease, projects, workspace, file, selector, cancellationToken).ConfigureAwait(false) with { ResolvedFile = file.Reported };
        }

        NameQuery query = NameQuery.Parse(selector.Name, selector.Signature);
        HashSet<ProjectId> selected = [.. projects.Select(p => p.Id)];
        SymbolIndex index = await IndexAsync(solution, cancellationToken).ConfigureAwait(false);

        // Only symbols whose names end like the query's can match: the index's tables keep a warm resolve
        // independent of the solution's size.
        List<SymbolMatch> matches = [.. index.Candidates(query).Where(m => selected.Contains(m.Project.Id) && query.Matches(m.Symbol, m.Display) && Filter(m, selector, file))];
        matches = Deduplicate(matches, index);

        if (matches.Count == 1)
        {
            return matches[0] with { ResolvedFile = file?.Reported };
        }

        if (matches.Count > 1 && Preferred(matches, query, selector.Name) is { } preferred)
        {
            return preferred with { ResolvedFile = file?.Reported };
        }

        if (matches.Count > 1)
        {
            throw Ambiguous(selector.Name, matches, index, workspace);
        }

        SemanticException notFound = NotFound(selector, query, [.. index.All.Where(m => selected.Contains(m.Project.Id))], index, workspace);
        (string simpleName, int arity) = GeneratorDeclaredNames.NameOf(selector.Name);
        throw await GeneratorDeclaredNames.ExplainAsync(GeneratorReach.Of(lease.Context, solution), solution, workspace, notFound, simpleName, arity, selector.Name.Trim(), cancellationToken).ConfigureAwait(false);
    }

    /// <summary>
    /// Among several matches, the one the name means when explicit interface implementations also match it: the one
    /// whose display name is the name itself (a candidate sent back unchanged), else the only one whose containing type
    /// is the name's container (<c>ISelector.Populate</c> is the interface member, not <c>AttributeSelector.ISelector.Populate</c>).
    /// </summary>
    private static SymbolMatch? Preferred(List<SymbolMatch> matches, NameQuery query, string name)
    {
        string wanted = SymbolFormat.Strip(name);
        List<SymbolMatch> exact = [.. matches.Where(m => SymbolFormat.Strip(m.Display) == wanted)];
        if (exact.Count == 1)
        {
            return exact[0];
        }

        if (query.Tail.Count < 2 || !matches.Exists(m => IsExplicitImplementation(m.Symbol)))
        {
            return null;
        }

        List<SymbolMatch> contained = [.. matches.Where(m => m.Symbol.ContainingType?.Name == query.Tail[0])];
        return contained.Count == 1 ? contained[0] : null;
    }

    private static bool IsExplicitImplementation(ISymbol symbol) => symbol switch
    {
        IMethodSymbol method => method.ExplicitInterfaceImplementations.Length > 0,
        IPropertySymbol property => property.ExplicitInterfaceImplementations.Length > 0,
        IEventSymbol @event => @event.ExplicitInterfaceImplementations.Length > 0,
        _ => false,
    };

    /// <summary>Projects named by <paramref name="project"/> (name, compilation name or workspace-relative path), else all.</summary>
    public static List<Project> SelectProjects(Solution solution, string workspace, string? project)
    {
        List<Project> all = [.. CSharpProjects(solution)];
        if (string.IsNullOrWhiteSpace(project))
        {
            return all;
        }

        string wanted = project.Trim().Replace('\\', '/');
        List<Project> selected = [.. all.Where(p =>
            p.Name.Equals(wanted, StringComparison.OrdinalIgnoreCase)
            || (p.FilePath is { } path && (Path.GetFileNameWithoutExtension(path).Equals(wanted, StringComparison.OrdinalIgnoreCase)
                || PathUtil.ToWorkspaceRelative(workspace, path).Equals(wanted, StringComparison.Ordinal))))];
        if (selected.Count == 0)
        {
            throw SemanticException.InvalidRequest(
                $"No project matches '{project}'. Projects: {string.Join(", ", all.Select(p => p.FilePath is null ? p.Name : PathUtil.ToWorkspaceRelative(workspace, p.FilePath)).Distinct())}.");
        }

        return selected;
    }

    private static async Task<SymbolMatch> AtPositionAsync(ContextLease lease, List<Project> projects, string workspace, ResolvedFile file, ISymbolSelector selector, CancellationToken cancellationToken)
    {
        Solution solution = lease.Solution;
        Document document = FindDocument(projects, file);
        SourceText text = await document.GetTextAsync(cancellationToken).ConfigureAwait(false);
        int line = selector.Line!.Value - 1;
        if (line >= text.Lines.Count)
        {
            throw SemanticException.InvalidRequest($"Line {selector.Line} is past the end of {selector.Path} ({text.Lines.Count} lines).");
        }

        TextLine textLine = text.Lines[line];
        int position = Math.Min(textLine.Start + selector.Character!.Value - 1, textLine.End);
        ISymbol? symbol = await SymbolFinder.FindSymbolAtPositionAsync(document, position, cancellationToken).ConfigureAwait(false);
        if (symbol is null && position > textLine.Start)
        {
            symbol = await SymbolFinder.FindSymbolAtPositionAsync(document, position - 1, cancellationToken).ConfigureAwait(false);
        }

        if (symbol is null or IErrorTypeSymbol)
        {
            // A type name that binds to nothing may be one an excluded generator declares (Jab's IServiceProvider<T>).
            SemanticException notFound = new(new SemanticErrorData(SemanticErrorKind.SymbolNotFound, $"No symbol at {selector.Path}:{selector.Line}:{selector.Character}.", [], null, null) { Symbols = [] });
            SyntaxNode? root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
            NameSyntax? name = root?.FindToken(position).Parent?.AncestorsAndSelf().TakeWhile(n => n is NameSyntax).OfType<NameSyntax>().LastOrDefault();
            SemanticException explained = notFound;
            if (name is not null)
            {
                (string simpleName, int arity) = GeneratorDeclaredNames.NameOf(name);
                explained = await GeneratorDeclaredNames.ExplainAsync(GeneratorReach.Of(lease.Context, solution), solution, workspace, notFound, simpleName, arity, name.ToString(), cancellationToken).ConfigureAwait(false);
            }

            // An error type no generator explains is answered as before (as the error type it is).
            if (symbol is null || explained != notFound)
            {
                throw explained;
            }
        }

        symbol = (symbol is IMethodSymbol { ReducedFrom: { } reduced } ? reduced : symbol).OriginalDefinition;

        // The project that declares the symbol answers (not the one the position is in).
        Project owner = (symbol.ContainingAssembly is { } assembly ? solution.GetProject(assembly, cancellationToken) : null) ?? document.Project;
        return new SymbolMatch(symbol, owner, symbol.ToDisplayString(SymbolFormat.NameFormat), SymbolFormat.KindOf(symbol));
    }

    /// <summary>The document of a resolved file in the selected projects (the default flavour's, else the first compilation's).</summary>
    internal static Document FindDocument(List<Project> projects, ResolvedFile file) =>
        FileResolver.Documents(projects, file).OrderBy(d => Flavours.Rank(d.Project)).FirstOrDefault()
            ?? throw SemanticException.InvalidRequest($"{file.Relative} is not compiled by {(projects.Count == 1 ? "the selected project" : "any project")}, so it has no semantic information.");

    /// <summary>Exact workspace-relative path, or a whole-segment suffix of it.</summary>
    public static bool MatchesPath(string relative, string wanted) =>
        relative.Equals(wanted, PathUtil.Comparison)
        || relative.EndsWith("/" + wanted.TrimStart('/'), PathUtil.Comparison);

    private static bool Filter(SymbolMatch match, ISymbolSelector selector, ResolvedFile? file)
    {
        if (!string.IsNullOrWhiteSpace(selector.Kind) && !match.Kind.Equals(selector.Kind.Trim(), StringComparison.OrdinalIgnoreCase))
        {
            return false;
        }

        if (!string.IsNullOrWhiteSpace(selector.Container))
        {
            // An extension block's member is also in the class that declares the block.
            INamedTypeSymbol? type = match.Symbol.ContainingType;
            NameQuery container = NameQuery.Parse(selector.Container, null);
            bool inContainer = type is not null && (container.Matches(type, type.ToDisplayString(SymbolFormat.NameFormat))
                || (type is { IsExtension: true, ContainingType: { } declaring } && container.Matches(declaring, declaring.ToDisplayString(SymbolFormat.NameFormat))));
            if (!inContainer)
            {
                return false;
            }
        }

        if (file is not null)
        {
            IEnumerable<Location> inFile = match.Symbol.Locations.Where(l => l.IsInSource && PathUtil.Comparer.Equals(l.GetLineSpan().Path, file.FullPath));
            if (selector.Line is { } line)
            {
                inFile = inFile.Where(l => l.GetLineSpan().StartLinePosition.Line + 1 == line
                    && (selector.Character is not { } character || ContainsCharacter(l, character)));
            }

            return inFile.Any();
        }

        if (selector.Line is { } onlyLine)
        {
            return match.Symbol.Locations.Any(l => l.IsInSource && l.GetLineSpan().StartLinePosition.Line + 1 == onlyLine);
        }

        return true;
    }

    private static bool ContainsCharacter(Location location, int character)
    {
        FileLinePositionSpan span = location.GetLineSpan();
        int zero = character - 1;
        return zero >= span.StartLinePosition.Character && zero <= span.EndLinePosition.Character;
    }

    /// <summary>
    /// The symbol index of a solution snapshot, built once per snapshot (snapshots are immutable; a source
    /// refresh makes a new one, and the entry goes with the old snapshot).
    /// </summary>
    internal static Task<SymbolIndex> IndexAsync(Solution solution, CancellationToken cancellationToken)
    {
        Task<SymbolIndex> index = Indexes.GetValue(solution, s => BuildIndexAsync([.. CSharpProjects(s)]));
        if (index.IsFaulted || index.IsCanceled)
        {
            Indexes.Remove(solution); // Not kept: the next query tries again.
        }

        return index.IsCompleted ? index : index.WaitAsync(cancellationToken);
    }

    private static readonly System.Runtime.CompilerServices.ConditionalWeakTable<Solution, Task<SymbolIndex>> Indexes = [];

    /// <summary>
    /// The C# projects of a snapshot in answer order (project file, then name), computed once per snapshot: a warm
    /// query would otherwise list and sort the solution's projects on every call.
    /// </summary>
    internal static IReadOnlyList<Project> CSharpProjects(Solution solution) =>
        OrderedProjects.GetValue(solution, s => [.. s.Projects.Where(p => p.Language == LanguageNames.CSharp).OrderBy(p => p.FilePath, StringComparer.Ordinal).ThenBy(p => p.Name, StringComparer.Ordinal)]);

    private static readonly System.Runtime.CompilerServices.ConditionalWeakTable<Solution, List<Project>> OrderedProjects = [];

    private static async Task<SymbolIndex> BuildIndexAsync(List<Project> projects) =>
        new(await CollectAsync(projects, CancellationToken.None).ConfigureAwait(false));

    /// <summary>
    /// Every declared source symbol (types, their members) of the projects' compilations, in project order. The projects
    /// are read side by side: a first query waits for every compilation of the solution (on serilog/serilog's 15 flavours,
    /// 3.7 s one after another).
    /// </summary>
    private static async Task<List<SymbolMatch>> CollectAsync(List<Project> projects, CancellationToken cancellationToken)
    {
        List<SymbolMatch>[] perProject = new List<SymbolMatch>[projects.Count];
        await Parallel.ForEachAsync(
            Enumerable.Range(0, projects.Count),
            new ParallelOptions { MaxDegreeOfParallelism = Environment.ProcessorCount, CancellationToken = cancellationToken },
            async (i, token) => perProject[i] = await CollectAsync(projects[i], token).ConfigureAwait(false)).ConfigureAwait(false);
        return [.. perProject.SelectMany(p => p)];
    }

    private static async Task<List<SymbolMatch>> CollectAsync(Project project, CancellationToken cancellationToken)
    {
        List<SymbolMatch> result = [];
        Compilation? compilation = await project.GetCompilationAsync(cancellationToken).ConfigureAwait(false);
        if (compilation is null)
        {
            return result;
        }

        Stack<INamespaceOrTypeSymbol> pending = new([compilation.Assembly.GlobalNamespace]);
        while (pending.Count > 0)
        {
            cancellationToken.ThrowIfCancellationRequested();
            INamespaceOrTypeSymbol current = pending.Pop();
            foreach (ISymbol member in current.GetMembers())
            {
                if (member is INamespaceSymbol ns)
                {
                    pending.Push(ns);
                    continue;
                }

                if (!IsReportable(member))
                {
                    continue;
                }

                result.Add(new SymbolMatch(member, project, member.ToDisplayString(SymbolFormat.NameFormat), SymbolFormat.KindOf(member)));
                if (member is INamedTypeSymbol type)
                {
                    pending.Push(type);
                }
            }
        }

        return result;
    }

    private static bool IsReportable(ISymbol symbol)
    {
        if (!symbol.Locations.Any(l => l.IsInSource))
        {
            return false;
        }

        if (symbol is IMethodSymbol method)
        {
            if (method.MethodKind is MethodKind.PropertyGet or MethodKind.PropertySet or MethodKind.EventAdd or MethodKind.EventRemove or MethodKind.EventRaise)
            {
                return false;
            }

            // Implicit default constructors have no declaration; primary constructors do (the type's).
            if (method.MethodKind == MethodKind.Constructor && method.IsImplicitlyDeclared)
            {
                return false;
            }
        }

        return !symbol.IsImplicitlyDeclared || symbol is INamedTypeSymbol;
    }

    /// <summary>
    /// One entry per symbol: every flavour (target framework) of a project declares the same member once, even
    /// where its declaration differs per framework under <c>#if</c>; linked files give the same symbol per compilation.
    /// The default flavour's entry is kept (<see cref="Flavours.Rank"/>).
    /// </summary>
    internal static List<SymbolMatch> Deduplicate(List<SymbolMatch> matches, SymbolIndex index) =>
        [.. matches
            .GroupBy(m => (m.Display, Owner: m.Project.FilePath ?? m.Project.Name)).Select(g => g.OrderBy(m => Flavours.Rank(m.Project)).First())
            .GroupBy(m => (m.Display, Location: index.LocationKey(m))).Select(g => g.First())];

    internal static string FirstLocationKey(ISymbol symbol) =>
        symbol.Locations.Where(l => l.IsInSource).Select(l => $"{l.SourceTree?.FilePath}:{l.SourceSpan.Start}").Order(StringComparer.Ordinal).FirstOrDefault() ?? string.Empty;

    private static SemanticException Ambiguous(string name, List<SymbolMatch> matches, SymbolIndex index, string workspace)
    {
        List<SymbolCandidate> candidates = Candidates(matches.OrderBy(m => m.Display, StringComparer.Ordinal), index, workspace, MaxAmbiguous);
        string listed = candidates.Count < matches.Count ? $"; the first {candidates.Count} are listed" : string.Empty;
        string shared = candidates.Exists(c => c.NeedsPath) ? " (where two share a name, with the file listed beside it)" : string.Empty;
        string message = $"'{name}' matches {matches.Count} symbols{listed}. Ask again with one of these names, exactly as written{shared}.";
        return new SemanticException(new SemanticErrorData(SemanticErrorKind.AmbiguousSymbol, message, [.. candidates.Select(c => c.Name)], null, null) { Symbols = candidates });
    }

    /// <summary>
    /// One entry per symbol, each named by the shortest name that resolves to it alone (<see cref="ShortestName"/>);
    /// entries that still share a name (the same symbol in two projects) carry their file, which tells them apart.
    /// </summary>
    private static List<SymbolCandidate> Candidates(IEnumerable<SymbolMatch> matches, SymbolIndex index, string workspace, int max)
    {
        List<(SymbolMatch Match, string Name)> list = [.. matches.Take(max).Select(m => (m, ShortestName(m, index)))];
        HashSet<string> shared = [.. list.GroupBy(e => e.Name, StringComparer.Ordinal).Where(g => g.Count() > 1).Select(g => g.Key)];
        return [.. list.Select(e =>
        {
            SourceLocation? location = SymbolFormat.Describe(e.Match.Symbol, workspace, e.Match.Project.Solution).Locations.FirstOrDefault();
            return SymbolCandidate.Of(e.Name, e.Match.Kind, location?.Path, location?.Line, location?.Character, shared.Contains(e.Name));
        })];
    }

    /// <summary>
    /// The shortest name that resolves to <paramref name="match"/> alone in the whole index: its containing types
    /// and name with parameter types without namespaces, then as many namespace segments as it takes; else its
    /// fully qualified display name (which the resolver prefers when sent back). The same symbol in several
    /// projects keeps the short name: only its file tells the copies apart.
    /// </summary>
    private static string ShortestName(SymbolMatch match, SymbolIndex index)
    {
        (List<string> brief, string parameters) = NameQuery.Split(match.Symbol.ToDisplayString(SymbolFormat.ShortNameFormat));
        (List<string> full, _) = NameQuery.Split(match.Display);
        IEnumerable<string> names = Enumerable.Range(brief.Count + 1, Math.Max(0, full.Count - brief.Count))
            .Select(take => string.Join('.', full.Skip(full.Count - take)))
            .Prepend(string.Join('.', brief));
        if (match.Symbol.ContainingType is { IsExtension: true })
        {
            // TextExtensions.Shout() before TextExtensions.extension(string).Shout(), where it names the member alone.
            names = names.Prepend(string.Join('.', brief.Where(s => !NameQuery.IsExtensionBlock(s))));
        }

        names = names.Select(n => n + parameters);
        foreach (string name in names)
        {
            NameQuery query;
            try
            {
                query = NameQuery.Parse(name, null);
            }
            catch (SemanticException)
            {
                break;
            }

            List<SymbolMatch> hits = Deduplicate([.. index.Candidates(query).Where(m => query.Matches(m.Symbol, m.Display))], index);
            SymbolMatch? resolved = hits.Count == 1 ? hits[0] : hits.Count > 1 ? Preferred(hits, query, name) : null;
            if (resolved is not null && resolved.Display == match.Display && PathUtil.Comparer.Equals(resolved.Project.FilePath ?? string.Empty, match.Project.FilePath ?? string.Empty))
            {
                return name;
            }

            // The same symbol in several projects: no name tells them apart, the file does (NeedsPath).
            if (hits.Count > 1 && hits.TrueForAll(h => h.Display == match.Display))
            {
                return name;
            }
        }

        return match.Display;
    }

    /// <summary>
    /// When the name is a framework or package type (System.IServiceProvider: the container is a namespace of the references):
    /// why it is not found, since names resolve to what the workspace's source declares, and how to ask about it instead.
    /// Null otherwise.
    /// </summary>
    private static string? OutsideTheSource(List<SymbolMatch> all, string containerText, string simpleName)
    {
        // A compilation's global namespace merges its references' (System is found there); the index's projects are compiled.
        if (all.FirstOrDefault()?.Project.TryGetCompilation(out Compilation? compilation) != true || compilation?.GlobalNamespace is not { } root)
        {
            return null;
        }

        INamespaceSymbol? space = root;
        foreach (string part in containerText.Split('.'))
        {
            space = space?.GetNamespaceMembers().FirstOrDefault(n => n.Name == part.Trim());
        }

        if (space is null)
        {
            return null;
        }

        return space.GetTypeMembers(simpleName).Any(t => t.Locations.Any(l => l.IsInMetadata))
            ? $"{containerText}.{simpleName} is declared outside the workspace's source (a framework or package type); names resolve to what the workspace declares. Ask at a position where the code uses it (path, line and character)."
            : null;
    }

    /// <summary>
    /// Members of <paramref name="types"/> in C#'s sense — declared, inherited from a base type of the source, or an
    /// extension for them — whose name is like <paramref name="simpleName"/>, closest first.
    /// </summary>
    private static List<SymbolMatch> SimilarMembers(List<SymbolMatch> all, List<SymbolMatch> types, string simpleName)
    {
        HashSet<string> typeAndBases = TypeAndBases(types.Select(t => (INamedTypeSymbol)t.Symbol));

        // The name first: it is cheap, and few symbols pass it; a type's display key is not.
        return [.. Similar(all.Where(m => m.Symbol.ContainingType is not null), simpleName)
            .Where(m => types.Any(t => SymbolEqualityComparer.Default.Equals(m.Symbol.ContainingType, t.Symbol))
                || typeAndBases.Contains(Key(m.Symbol.ContainingType!)) || Extends(m.Symbol, typeAndBases))
            .DistinctBy(m => m.Display).Take(MaxSimilar)];
    }

    /// <summary>
    /// <paramref name="types"/> and the types they inherit members from (base classes; base interfaces of an interface),
    /// by <see cref="Key"/>: the flavours' symbols of one type are different objects, and a base in another project is
    /// another compilation's symbol.
    /// </summary>
    private static HashSet<string> TypeAndBases(IEnumerable<INamedTypeSymbol> types)
    {
        HashSet<string> keys = new(StringComparer.Ordinal);
        foreach (INamedTypeSymbol type in types)
        {
            for (INamedTypeSymbol? current = type; current is not null && current.SpecialType != SpecialType.System_Object; current = current.BaseType)
            {
                keys.Add(Key(current));
            }

            if (type.TypeKind == TypeKind.Interface)
            {
                keys.UnionWith(type.AllInterfaces.Select(Key));
            }
        }

        return keys;
    }

    private static string Key(ITypeSymbol type) => type.OriginalDefinition.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat);

    /// <summary>An extension method, or a member of an extension block, whose receiver is one of <paramref name="typeAndBases"/> (or a type parameter constrained to one).</summary>
    private static bool Extends(ISymbol symbol, HashSet<string> typeAndBases)
    {
        ITypeSymbol? receiver = symbol switch
        {
            IMethodSymbol { IsExtensionMethod: true, Parameters: [{ } first, ..] } => first.Type,
            { ContainingType: { IsExtension: true, ExtensionParameter: { } parameter } } => parameter.Type,
            _ => null,
        };
        return receiver switch
        {
            ITypeParameterSymbol parameter => parameter.ConstraintTypes.Any(c => typeAndBases.Contains(Key(c))),
            not null => typeAndBases.Contains(Key(receiver)),
            null => false,
        };
    }

    /// <summary>
    /// The namespace of a source type that <paramref name="containerText"/> names (whole or by its last segments), the
    /// shortest such when several do; else null.
    /// </summary>
    private static string? SourceNamespace(List<SymbolMatch> all, string containerText)
    {
        string wanted = containerText.Trim();
        if (wanted.StartsWith("global::", StringComparison.Ordinal))
        {
            wanted = wanted["global::".Length..];
        }

        return all.Where(m => m.Symbol is INamedTypeSymbol { ContainingNamespace.IsGlobalNamespace: false })
            .Select(m => m.Symbol.ContainingNamespace.ToDisplayString())
            .Distinct(StringComparer.Ordinal)
            .Where(space => space == wanted || space.EndsWith("." + wanted, StringComparison.Ordinal))
            .OrderBy(space => space.Length).ThenBy(space => space, StringComparer.Ordinal)
            .FirstOrDefault();
    }

    private static SemanticException NotFound(ISymbolSelector selector, NameQuery query, List<SymbolMatch> all, SymbolIndex index, string workspace)
    {
        string name = selector.Name!;

        // A qualified name (Calculator.Missing, Nope.Missing) names its container: explain which part failed.
        string? containerText = selector.Container;
        if (string.IsNullOrWhiteSpace(containerText))
        {
            string withoutParameters = NameQuery.WithoutParameters(name.Trim()).Trim();
            int dot = withoutParameters.LastIndexOf('.');
            if (dot > 0 && withoutParameters.IndexOf('<', StringComparison.Ordinal) < 0)
            {
                containerText = withoutParameters[..dot];
            }
        }

        if (!string.IsNullOrWhiteSpace(containerText))
        {
            NameQuery container = NameQuery.Parse(containerText, null);
            List<SymbolMatch> types = [.. all.Where(m => m.Symbol is INamedTypeSymbol && container.Matches(m.Symbol, m.Display))];
            if (types.Count == 0 && OutsideTheSource(all, containerText, query.SimpleName) is { } outside)
            {
                return NotFoundError(index, outside, [], workspace);
            }

            // A namespace the source declares is a container too (Polly.Missing): then the type's name is what failed.
            if (types.Count == 0 && SourceNamespace(all, containerText) is { } space)
            {
                List<SymbolMatch> inSpace = [.. Similar(all.Where(m => m.Symbol is INamedTypeSymbol && m.Symbol.ContainingNamespace?.ToDisplayString() == space), query.SimpleName)
                    .DistinctBy(m => m.Display).Take(MaxSimilar)];
                return inSpace.Count == 0
                    ? NotFoundError(index, $"The namespace {space} has no type '{query.SimpleName}' and no type with a similar name.", [], workspace)
                    : NotFoundError(index, $"The namespace {space} has no type '{query.SimpleName}'. Types with a similar name are listed as candidates.", inSpace, workspace);
            }

            // A type of that name in another namespace (Polly.Retry.RetryResiliencePipelineBuilderExtensions, declared in
            // Polly): its members with a similar name are what the name most likely meant.
            List<SymbolMatch> elsewhere = types.Count == 0 && container.Tail.Count > 1
                ? [.. all.Where(m => m.Symbol is INamedTypeSymbol && m.Symbol.Name == container.SimpleName)]
                : [];
            if (elsewhere.Count > 0 && SimilarMembers(all, elsewhere, query.SimpleName) is { Count: > 0 } theirs)
            {
                string declared = string.Join(", ", elsewhere.Select(t => t.Symbol.ToDisplayString()).Distinct(StringComparer.Ordinal).Take(3));
                return NotFoundError(index, $"No type matches the container '{containerText}', but {declared} has its name. Its members with a similar name are listed as candidates.", theirs, workspace);
            }

            if (types.Count == 0)
            {
                List<SymbolMatch> similarTypes = Similar(all.Where(m => m.Symbol is INamedTypeSymbol), container.SimpleName)
                    .DistinctBy(m => m.Display).Take(MaxSimilar).ToList();
                return NotFoundError(index, $"No type matches the container '{containerText}'. Types with a similar name are listed as candidates.", similarTypes, workspace);
            }

            List<SymbolMatch> members = SimilarMembers(all, types, query.SimpleName);
            string typeName = types[0].Display;
            bool notDeclared = members.Exists(m => !types.Any(t => SymbolEqualityComparer.Default.Equals(m.Symbol.ContainingType, t.Symbol)));
            return members.Count == 0
                ? NotFoundError(index, $"The type {typeName} has no member '{query.SimpleName}' and no member with a similar name. List its members with the members action.", [], workspace)
                : notDeclared
                ? NotFoundError(index, $"The type {typeName} declares no member '{query.SimpleName}'. Members with a similar name, inherited and extension ones included, are listed as candidates under the names that declare them.", members, workspace)
                : NotFoundError(index, $"The type {typeName} has no member '{query.SimpleName}'. Members with a similar name are listed as candidates.", members, workspace);
        }

        List<SymbolMatch> similar = [.. Similar(all, query.SimpleName).DistinctBy(m => m.Display).Take(MaxSimilar)];
        string filters = selector.Kind is null && selector.Path is null && selector.Project is null && selector.Line is null ? string.Empty : " with the given filters";
        return NotFoundError(index, $"No symbol named '{name}'{filters}.", similar, workspace);
    }

    private static SemanticException NotFoundError(SymbolIndex index, string message, List<SymbolMatch> similar, string workspace)
    {
        List<SymbolCandidate> candidates = Candidates(similar, index, workspace, MaxSimilar);
        return new SemanticException(new SemanticErrorData(SemanticErrorKind.SymbolNotFound, message, [.. candidates.Select(c => c.Name)], null, null) { Symbols = candidates });
    }

    /// <summary>Names equal ignoring case, containing each other, or within a small edit distance; closest first.</summary>
    private static IEnumerable<SymbolMatch> Similar(IEnumerable<SymbolMatch> symbols, string simpleName)
    {
        string wanted = simpleName.ToLowerInvariant();
        int budget = Math.Max(1, wanted.Length / 3);
        return symbols
            .Select(m => (Match: m, Name: SimpleName(m.Symbol).ToLowerInvariant()))
            .Select(x => (x.Match, Score: x.Name == wanted ? 0 : x.Name.Contains(wanted, StringComparison.Ordinal) || wanted.Contains(x.Name, StringComparison.Ordinal) ? 1 : 1 + Distance(x.Name, wanted)))
            .Where(x => x.Score <= 1 + budget && !(x.Score > 1 && x.Match.Symbol.Name.Length < 2))
            .OrderBy(x => x.Score).ThenBy(x => x.Match.Display, StringComparer.Ordinal)
            .Select(x => x.Match);
    }

    /// <summary>The name a person types for a symbol: a constructor's type's; an extension block's keyword (Roslyn names the block with an empty string).</summary>
    private static string SimpleName(ISymbol symbol) => symbol switch
    {
        IMethodSymbol { MethodKind: MethodKind.Constructor } => symbol.ContainingType.Name,
        INamedTypeSymbol { IsExtension: true } => "extension",
        _ => symbol.Name,
    };

    private static int Distance(string a, string b)
    {
        int[] previous = new int[b.Length + 1];
        int[] current = new int[b.Length + 1];
        for (int j = 0; j <= b.Length; j++)
        {
            previous[j] = j;
        }

        for (int i = 1; i <= a.Length; i++)
        {
            current[0] = i;
            for (int j = 1; j <= b.Length; j++)
            {
                int cost = a[i - 1] == b[j - 1] ? 0 : 1;
                current[j] = Math.Min(Math.Min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }

            (previous, current) = (current, previous);
        }

        return previous[b.Length];
    }

}
