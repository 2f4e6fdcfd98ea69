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
    public static async Task<List<RelatedSymbol>> CallersAsync(ISymbol symbol, NavigationFormat format, CancellationToken cancellationToken)
    {
        // Callers compile against different flavours of a multi-targeted declaring project: search from each.
        List<SymbolCallerInfo> callers = [];
        foreach (ISymbol flavour in await Flavours.OfAsync(symbol, format.Solution, cancellationToken).ConfigureAwait(false))
        {
            callers.AddRange(await SymbolFinder.FindCallersAsync(flavour, format.Solution, cancellationToken).ConfigureAwait(false));
        }

        // One entry per calling symbol, whichever flavour of its project it was found in.
        Dictionary<string, (ISymbol Symbol, List<Location> Sites)> sites = new(StringComparer.Ordinal);
        foreach (SymbolCallerInfo caller in callers)
        {
            List<Location> locations = [.. caller.Locations.Where(l => l.IsInSource && !format.IsGenerated(l))];
            if (locations.Count == 0)
            {
                continue;
            }

            ISymbol calling = Normalize(caller.CallingSymbol);
            string key = Flavours.Identity(calling, format.Solution);
            if (!sites.TryGetValue(key, out (ISymbol Symbol, List<Location> Sites) entry))
            {
                sites[key] = entry = (calling, []);
            }

            entry.Sites.AddRange(locations);
        }

        return NavigationFormat.Ordered(sites.Values.Select(pair => format.Related(pair.Symbol, NavigationFormat.Ordered(pair.Sites.Select(format.Location)))));
    }

    public static async Task<(List<RelatedSymbol> Callees, int OmittedAccesses)> CalleesAsync(ISymbol symbol, NavigationFormat format, CancellationToken cancellationToken)
    {
        Dictionary<ISymbol, List<Location>> calls = new(SymbolEqualityComparer.Default);
        int accesses = 0;
        foreach (SyntaxReference reference in symbol.DeclaringSyntaxReferences)
        {
            SyntaxNode declaration = await reference.GetSyntaxAsync(cancellationToken).ConfigureAwait(false);
            Document? document = format.Solution.GetDocument(reference.SyntaxTree);
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

        List<RelatedSymbol> callees = NavigationFormat.Ordered(calls.Select(pair => format.Related(pair.Key, NavigationFormat.Ordered(pair.Value.Select(format.Location)))));
        return (callees, accesses);
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
