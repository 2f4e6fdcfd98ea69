using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.FindSymbols;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Semantic.Symbols;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>
/// Callers (with the call sites in each caller's file) and callees (calls only, with the call sites in the
/// requested symbol's file; property, field and constant accesses counted and left out).
/// </summary>
internal static class CallGraph
{
    /// <summary>
    /// The callers of <paramref name="symbol"/>: those that call it, and those that reach it through an interface
    /// member it implements or a base member it overrides (marked <c>Via</c> that member). Roslyn's caller search
    /// cascades across such members in both directions; a call site whose called member cannot run the requested one
    /// (a call to a sibling implementation's base, say) is left out.
    /// </summary>
    public static async Task<(List<RelatedSymbol> Callers, int OmittedGenerated)> CallersAsync(ISymbol symbol, NavigationFormat format, CancellationToken cancellationToken)
    {
        (List<CallSites> callers, int generated) = await CallerSitesAsync(symbol, format.Solution, format.IsGenerated, new CallerSearches(), cancellationToken).ConfigureAwait(false);
        return (NavigationFormat.Ordered(callers.Select(entry => format.Related(entry.Symbol, NavigationFormat.Ordered(entry.Sites.Select(format.Location))) with { Via = entry.Via })), generated);
    }

    /// <summary>
    /// What <see cref="CallersAsync"/> formats: each calling symbol (once per way it gets here) with its call
    /// sites, leaving out sites <paramref name="isGenerated"/> says are generated, and how many those were (call
    /// sites in source-generated code, counted as references counts them).
    /// </summary>
    /// <remarks>
    /// <paramref name="searches"/> keeps what a walk over many members asks again (<see cref="CallerSearches"/>);
    /// a single question passes a new one.
    /// </remarks>
    public static async Task<(List<CallSites> Callers, int OmittedGenerated)> CallerSitesAsync(ISymbol symbol, Solution solution, Func<Location, bool> isGenerated, CallerSearches searches, CancellationToken cancellationToken)
    {
        // A C# 14 extension member also runs when its implementation method is called by name (TextExtensions.Shout("x")).
        HashSet<string> targets = [Flavours.Identity(symbol, solution)];
        if (symbol is IMethodSymbol { AssociatedExtensionImplementation: { } implementation })
        {
            targets.Add(Flavours.Identity(implementation, solution));
        }

        Dictionary<string, ISymbol> dispatching = Relations.DispatchingMembers(symbol, solution);

        // Callers compile against different flavours of a multi-targeted declaring project: search from each
        // (Roslyn's search already follows a flavour declared at the same place of a linked file), and from each
        // member that dispatches here.
        List<SymbolCallerInfo> callers = [];
        foreach (ISymbol start in dispatching.Values.Prepend(symbol))
        {
            List<ISymbol> flavours = await searches.FlavoursAsync(start, solution, cancellationToken).ConfigureAwait(false);
            foreach (ISymbol flavour in flavours.Where((f, i) => i == 0 || !Flavours.IsLinkedCounterpart(f, flavours[0])))
            {
                callers.AddRange(await searches.CallersAsync(flavour, solution, cancellationToken).ConfigureAwait(false));
            }
        }

        // One entry per calling symbol (whichever flavour of its project it was found in) and way it gets here.
        Dictionary<(string Caller, string? Via), (ISymbol Symbol, HashSet<Location> Sites, string? Via)> entries = [];
        HashSet<(string Path, int Start)> generated = [];
        foreach (SymbolCallerInfo caller in callers)
        {
            ISymbol calling = Normalize(caller.CallingSymbol);
            string key = Flavours.Identity(calling, solution);
            foreach (Location location in caller.Locations.Where(l => l.IsInSource))
            {
                (bool runs, ISymbol? via) = await ClassifyAsync(location, symbol, targets, dispatching, solution, searches, cancellationToken).ConfigureAwait(false);
                if (!runs)
                {
                    continue;
                }

                if (isGenerated(location))
                {
                    generated.Add((location.SourceTree?.FilePath ?? string.Empty, location.SourceSpan.Start));
                    continue;
                }

                string? viaName = via is null ? null : searches.DisplayName(via);
                if (!entries.TryGetValue((key, viaName), out (ISymbol Symbol, HashSet<Location> Sites, string? Via) entry))
                {
                    entries[(key, viaName)] = entry = (calling, [], viaName);
                }

                entry.Sites.Add(location);
            }
        }

        return ([.. entries.Values.Select(entry => new CallSites(entry.Symbol, entry.Sites, entry.Via))], generated.Count);
    }

    /// <summary>
    /// Whether the call at <paramref name="location"/> can run <paramref name="symbol"/>: it names the symbol
    /// (in any flavour; <paramref name="targets"/>), or a member in <paramref name="dispatching"/> (then that member
    /// is the way); a call naming another member of the same name and kind cannot. Anything not recognised is kept
    /// as a direct call.
    /// </summary>
    private static async Task<(bool Runs, ISymbol? Via)> ClassifyAsync(Location location, ISymbol symbol, HashSet<string> targets, Dictionary<string, ISymbol> dispatching, Solution solution, CallerSearches searches, CancellationToken cancellationToken)
    {
        if (solution.GetDocument(location.SourceTree) is not { } document)
        {
            return (true, null);
        }

        bool other = false;
        foreach ((ISymbol named, string id) in await searches.NamedAtAsync(document, location.SourceSpan, solution, cancellationToken).ConfigureAwait(false))
        {
            if (targets.Contains(id))
            {
                return (true, null);
            }

            if (dispatching.TryGetValue(id, out ISymbol? via))
            {
                return (true, via);
            }

            other |= named.Kind == symbol.Kind && named.Name == symbol.Name;
        }

        return (!other, null);
    }

    public static async Task<(List<RelatedSymbol> Callees, int OmittedAccesses)> CalleesAsync(ISymbol symbol, NavigationFormat format, CancellationToken cancellationToken)
    {
        (List<CallSites> callees, int accesses) = await CalleeSitesAsync(symbol, format.Solution, cancellationToken).ConfigureAwait(false);
        return (NavigationFormat.Ordered(callees.Select(callee => format.Related(callee.Symbol, NavigationFormat.Ordered(callee.Sites.Select(format.Location))))), accesses);
    }

    /// <summary>What <see cref="CalleesAsync"/> formats: each called method with its call sites in the symbol's declarations.</summary>
    public static async Task<(List<CallSites> Callees, int OmittedAccesses)> CalleeSitesAsync(ISymbol symbol, Solution solution, CancellationToken cancellationToken)
    {
        Dictionary<ISymbol, List<Location>> calls = new(SymbolEqualityComparer.Default);
        int accesses = 0;
        foreach (SyntaxReference reference in symbol.DeclaringSyntaxReferences)
        {
            SyntaxNode declaration = await reference.GetSyntaxAsync(cancellationToken).ConfigureAwait(false);
            Document? document = solution.GetDocument(reference.SyntaxTree);
            if (document is null or SourceGeneratedDocument || await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false) is not { } model)
            {
                continue;
            }

            foreach (SyntaxNode body in Bodies(declaration))
            {
                foreach (SyntaxNode node in body.DescendantNodesAndSelf())
                {
                    (ISymbol? called, Location? site) = Call(node, model, cancellationToken);
                    if (called is not null && site is not null)
                    {
                        called = Normalize(called);
                        if (!calls.TryGetValue(called, out List<Location>? list))
                        {
                            calls[called] = list = [];
                        }

                        list.Add(site);
                    }
                    else if (node is IdentifierNameSyntax name && IsAccess(name, model, cancellationToken))
                    {
                        accesses++;
                    }
                }
            }
        }

        return ([.. calls.Select(pair => new CallSites(pair.Key, pair.Value, Via: null))], accesses);
    }

    /// <summary>The code a declaration runs: a primary constructor only its base-type arguments, a field its initializer.</summary>
    private static IEnumerable<SyntaxNode> Bodies(SyntaxNode declaration) => declaration switch
    {
        TypeDeclarationSyntax type => type.BaseList?.Types.OfType<PrimaryConstructorBaseTypeSyntax>() ?? [],
        VariableDeclaratorSyntax variable => variable.Initializer is { } initializer ? [initializer] : [],
        _ => [declaration],
    };

    private static (ISymbol? Called, Location? Site) Call(SyntaxNode node, SemanticModel model, CancellationToken cancellationToken)
    {
        switch (node)
        {
            case InvocationExpressionSyntax invocation:
                if (invocation.Expression is IdentifierNameSyntax { Identifier.ValueText: "nameof" } && model.GetSymbolInfo(invocation, cancellationToken).Symbol is null)
                {
                    return (null, null);
                }

                return (Bound(invocation, model, cancellationToken), NameOf(invocation.Expression).GetLocation());
            case ObjectCreationExpressionSyntax creation:
                return (Bound(creation, model, cancellationToken), NameOf(creation.Type).GetLocation());
            case ImplicitObjectCreationExpressionSyntax implicitCreation:
                return (Bound(implicitCreation, model, cancellationToken), implicitCreation.NewKeyword.GetLocation());
            case ConstructorInitializerSyntax initializer:
                return (Bound(initializer, model, cancellationToken), initializer.ThisOrBaseKeyword.GetLocation());
            case PrimaryConstructorBaseTypeSyntax baseType:
                return (Bound(baseType, model, cancellationToken), NameOf(baseType.Type).GetLocation());
            default:
                return (null, null);
        }
    }

    private static IMethodSymbol? Bound(SyntaxNode node, SemanticModel model, CancellationToken cancellationToken)
    {
        SymbolInfo info = model.GetSymbolInfo(node, cancellationToken);
        return (info.Symbol ?? info.CandidateSymbols.FirstOrDefault()) as IMethodSymbol;
    }

    /// <summary>The name token of a called expression: <c>Add</c> in <c>calculator.Add</c>, <c>Box</c> in <c>new Core.Box</c>.</summary>
    private static SyntaxNodeOrToken NameOf(SyntaxNode expression) => expression switch
    {
        MemberAccessExpressionSyntax access => access.Name,
        MemberBindingExpressionSyntax binding => binding.Name,
        QualifiedNameSyntax qualified => qualified.Right,
        AliasQualifiedNameSyntax alias => alias.Name,
        _ => expression,
    };

    private static bool IsAccess(IdentifierNameSyntax name, SemanticModel model, CancellationToken cancellationToken)
    {
        if (name.Parent is InvocationExpressionSyntax || (name.Parent is MemberAccessExpressionSyntax access && access.Name == name && access.Parent is InvocationExpressionSyntax))
        {
            return false; // A delegate-typed property invoked is a call target, not counted.
        }

        if (name.Parent is NameEqualsSyntax or NameColonSyntax)
        {
            return false;
        }

        return model.GetSymbolInfo(name, cancellationToken).Symbol switch
        {
            IPropertySymbol or IFieldSymbol => true,
            ILocalSymbol { IsConst: true } => true,
            _ => false,
        };
    }

    /// <summary>
    /// The symbols a reference or call site names, innermost first: the node at <paramref name="span"/> and up to two
    /// of its parents (a member access names its member, an invocation its method), each normalized as a caller is;
    /// bound one at a time, so a caller that stops at the first binds no more.
    /// </summary>
    internal static async IAsyncEnumerable<ISymbol> NamedAtAsync(Document document, Microsoft.CodeAnalysis.Text.TextSpan span, BindingModels models, [System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken cancellationToken)
    {
        if (await models.OfAsync(document, cancellationToken).ConfigureAwait(false) is not { } model
            || await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false) is not { } root)
        {
            yield break;
        }

        SyntaxNode? node = root.FindNode(span, getInnermostNodeForTie: true);
        for (int depth = 0; node is not null && depth < 3; depth++, node = node.Parent)
        {
            SymbolInfo info = model.GetSymbolInfo(node, cancellationToken);
            if ((info.Symbol ?? info.CandidateSymbols.FirstOrDefault()) is { } symbol)
            {
                yield return Normalize(symbol);
            }
        }
    }

    /// <summary>Lambdas and extension-method reductions report their member; generic instances their definition.</summary>
    private static ISymbol Normalize(ISymbol symbol)
    {
        while (symbol is IMethodSymbol { MethodKind: MethodKind.AnonymousFunction } && symbol.ContainingSymbol is { } container)
        {
            symbol = container;
        }

        if (symbol is IMethodSymbol { ReducedFrom: { } reduced })
        {
            symbol = reduced;
        }

        return symbol.OriginalDefinition;
    }
}

/// <summary>
/// What a walk up the call graph (<see cref="TestWalk"/>) asks again and again, answered once per walk of one solution
/// snapshot: a member's flavours and the callers a search from one flavour finds (every override the walk visits
/// searches again from the base member it dispatches through: Parlot's <c>Parser&lt;T&gt;.Parse</c> 63 times in one
/// walk), and the symbols named at a call site (an override's search brings back its base's call sites too: 55,901
/// sites classified in that walk, 1,108 of them distinct). Same questions, same answers: a solution is immutable.
/// </summary>
internal sealed class CallerSearches
{
    private readonly Dictionary<ISymbol, List<ISymbol>> flavours = new(SymbolEqualityComparer.Default);
    private readonly Dictionary<ISymbol, List<SymbolCallerInfo>> callers = new(SymbolEqualityComparer.Default);
    private readonly Dictionary<ISymbol, string> displayNames = new(SymbolEqualityComparer.Default);
    private readonly Dictionary<(SyntaxTree Tree, Microsoft.CodeAnalysis.Text.TextSpan Span), List<(ISymbol Symbol, string Id)>> named = [];
    private readonly BindingModels models = new();

    /// <summary><see cref="Flavours.OfAsync"/>, once per symbol.</summary>
    public async Task<List<ISymbol>> FlavoursAsync(ISymbol symbol, Solution solution, CancellationToken cancellationToken)
    {
        if (!this.flavours.TryGetValue(symbol, out List<ISymbol>? found))
        {
            this.flavours[symbol] = found = await Flavours.OfAsync(symbol, solution, cancellationToken).ConfigureAwait(false);
        }

        return found;
    }

    /// <summary>A dispatching member's name as a caller's <c>Via</c> shows it, once per member (one per call site otherwise).</summary>
    public string DisplayName(ISymbol member)
    {
        if (!this.displayNames.TryGetValue(member, out string? name))
        {
            this.displayNames[member] = name = member.ToDisplayString(SymbolFormat.NameFormat);
        }

        return name;
    }

    /// <summary>Roslyn's caller search from one flavour, once per flavour.</summary>
    public async Task<List<SymbolCallerInfo>> CallersAsync(ISymbol flavour, Solution solution, CancellationToken cancellationToken)
    {
        if (!this.callers.TryGetValue(flavour, out List<SymbolCallerInfo>? found))
        {
            this.callers[flavour] = found = [.. await SymbolFinder.FindCallersAsync(flavour, solution, cancellationToken).ConfigureAwait(false)];
        }

        return found;
    }

    /// <summary><see cref="CallGraph.NamedAtAsync"/> with each symbol's <see cref="Flavours.Identity"/>, once per site.</summary>
    public async Task<List<(ISymbol Symbol, string Id)>> NamedAtAsync(Document document, Microsoft.CodeAnalysis.Text.TextSpan span, Solution solution, CancellationToken cancellationToken)
    {
        if (await document.GetSyntaxTreeAsync(cancellationToken).ConfigureAwait(false) is not { } tree)
        {
            return [];
        }

        if (!this.named.TryGetValue((tree, span), out List<(ISymbol Symbol, string Id)>? found))
        {
            found = [];
            await foreach (ISymbol symbol in CallGraph.NamedAtAsync(document, span, this.models, cancellationToken).ConfigureAwait(false))
            {
                found.Add((symbol, Flavours.Identity(symbol, solution)));
            }

            this.named[(tree, span)] = found;
        }

        return found;
    }
}

/// <summary>A calling or called symbol and the call sites that connect it (callers: <c>Via</c> the member it calls, if not the symbol itself).</summary>
internal sealed record CallSites(ISymbol Symbol, IReadOnlyCollection<Location> Sites, string? Via);
