using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using SharpClaw.Server.Semantic.Symbols;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>
/// The test methods whose calls reach a symbol, transitively: a walk up the call graph (<see cref="CallGraph"/>'s
/// callers, so calls, object creation, accessors, operators, extension members, method groups and lambdas, through
/// interface and virtual dispatch, in every flavour) that stops at test methods (<see cref="TestMethods"/>). A call
/// from a field or property initializer reaches the constructors; a test class's constructor or setup reaches all
/// its tests, a shared fixture or assembly/namespace setup the tests it runs for (<see cref="SharedSetups"/>), and a
/// theory's data source the tests it feeds (<see cref="DataSources"/>).
/// Bounded by <see cref="MemberLimit"/> members; what the walk cannot follow is matched afterwards
/// against the visited members (<see cref="UnfollowableSites"/>).
/// </summary>
internal static class TestWalk
{
    /// <summary>The walk visits at most this many members; past it the answer says the list may be incomplete.</summary>
    public const int MemberLimit = 3000;

    /// <summary>What a walk found: the tests (once each), the places it could not follow, whether it stopped at the limit, the members it visited.</summary>
    public sealed record Outcome(List<IMethodSymbol> Tests, List<UnfollowableSite> Unfollowable, bool LimitReached, IReadOnlyCollection<ISymbol> Members)
    {
        /// <summary>How many members the walk visited.</summary>
        public int Visited => this.Members.Count;
    }

    /// <summary>
    /// The walks done on a solution, by their starts: the pages of one navigate tests answer (10 lines a page) and the
    /// verifier's request ask for the same walk again, and on a real suite one walk takes minutes (Parlot's
    /// Cursor.Advance: over a minute a page). A solution is immutable, so a walk of it never goes stale; the entries
    /// go with the solution, and past <see cref="WalksKept"/> walks they are dropped (the next are walked anew).
    /// </summary>
    private static readonly ConditionalWeakTable<Solution, ConcurrentDictionary<string, Outcome>> Walks = [];

    /// <summary>The walks kept per solution.</summary>
    private const int WalksKept = 16;

    public static async Task<Outcome> WalkAsync(IEnumerable<ISymbol> starts, Solution solution, CancellationToken cancellationToken)
    {
        List<ISymbol> startList = [.. starts];
        string key = string.Join('\n', startList.Select(s => Flavours.Identity(s.OriginalDefinition, solution)).Order(StringComparer.Ordinal));
        ConcurrentDictionary<string, Outcome> walks = Walks.GetValue(solution, _ => new(StringComparer.Ordinal));
        if (walks.TryGetValue(key, out Outcome? known))
        {
            return known;
        }

        Outcome outcome = await WalkUncachedAsync(startList, solution, cancellationToken).ConfigureAwait(false);
        if (walks.Count >= WalksKept)
        {
            walks.Clear();
        }

        return walks.GetOrAdd(key, outcome);
    }

    private static async Task<Outcome> WalkUncachedAsync(IEnumerable<ISymbol> starts, Solution solution, CancellationToken cancellationToken)
    {
        Dictionary<string, ISymbol> visited = new(StringComparer.Ordinal);
        Dictionary<string, IMethodSymbol> tests = new(StringComparer.Ordinal);
        Queue<ISymbol> pending = [];
        bool limitReached = false;
        DataSources? dataSources = null;
        CallerSearches searches = new();

        void Enqueue(ISymbol symbol)
        {
            symbol = symbol.OriginalDefinition;
            if (symbol is INamedTypeSymbol type)
            {
                // A type stands for what runs its code: its members and constructors (a static initializer runs on first use of any).
                foreach (ISymbol member in type.GetMembers().Where(m => m is not INamedTypeSymbol && (!m.IsImplicitlyDeclared || m is IMethodSymbol { MethodKind: MethodKind.Constructor })))
                {
                    Enqueue(member);
                }

                return;
            }

            if (symbol is ILocalSymbol or IParameterSymbol or IRangeVariableSymbol or ILabelSymbol)
            {
                Enqueue(symbol.ContainingSymbol);
                return;
            }

            while (symbol is IMethodSymbol { MethodKind: MethodKind.AnonymousFunction } && symbol.ContainingSymbol is IMethodSymbol or IPropertySymbol or IFieldSymbol)
            {
                symbol = symbol.ContainingSymbol.OriginalDefinition;
            }

            if (symbol is IMethodSymbol { AssociatedSymbol: IPropertySymbol or IEventSymbol } accessor)
            {
                symbol = accessor.AssociatedSymbol!; // An accessor runs wherever its property (or indexer, or event) is used.
            }

            string key = Flavours.Identity(symbol, solution);
            if (visited.ContainsKey(key))
            {
                return;
            }

            if (visited.Count >= MemberLimit)
            {
                limitReached = true;
                return;
            }

            visited[key] = symbol;
            pending.Enqueue(symbol);
        }

        foreach (ISymbol start in starts)
        {
            Enqueue(start);
        }

        while (pending.Count > 0)
        {
            cancellationToken.ThrowIfCancellationRequested();
            ISymbol symbol = pending.Dequeue();
            if (symbol is IMethodSymbol method && TestMethods.IsTest(method))
            {
                tests.TryAdd(Flavours.Identity(method, solution), method);
                continue;
            }

            // The framework constructs a test class and runs its setup before each test: they reach all its tests.
            if (symbol is IMethodSymbol { ContainingType: { } owner } setup && TestMethods.IsSetup(setup))
            {
                foreach (IMethodSymbol test in await TestMethods.OfClassAsync(owner, solution, cancellationToken).ConfigureAwait(false))
                {
                    tests.TryAdd(Flavours.Identity(test, solution), test);
                }

                // A fixture shared by other classes, a collection or the assembly, or a namespace's setup, runs for their tests too.
                foreach (IMethodSymbol test in await SharedSetups.TestsAsync(setup, owner, solution, cancellationToken).ConfigureAwait(false))
                {
                    tests.TryAdd(Flavours.Identity(test, solution), test);
                }
            }

            // A theory's data source runs before the theory, which names it (nameof, typeof) without calling it.
            if (TestMethods.ReferencesTestFramework(symbol.ContainingAssembly))
            {
                dataSources ??= await DataSources.IndexAsync(solution, cancellationToken).ConfigureAwait(false);
                foreach (IMethodSymbol test in dataSources.TestsFedBy(symbol))
                {
                    tests.TryAdd(Flavours.Identity(test, solution), test);
                }
            }

            (List<CallSites> callers, _) = await CallGraph.CallerSitesAsync(symbol, solution, _ => false, searches, cancellationToken).ConfigureAwait(false);
            if (symbol is IMethodSymbol { MethodKind: MethodKind.Conversion } conversion && conversion.Name == WellKnownMemberNames.ImplicitConversionName)
            {
                callers.AddRange(await ConversionCallers.FindAsync(conversion, solution, cancellationToken).ConfigureAwait(false));
            }

            foreach (CallSites caller in callers)
            {
                foreach (ISymbol next in Runners(caller))
                {
                    Enqueue(next);
                }
            }

            // Framework code calls a member that overrides or implements one of its own on any instance it is handed
            // (xunit's Assert.Equal through IEquatable<T>.Equals, formatting through ToString), and no source names
            // that call: whatever creates an instance of the type may run it.
            if (symbol.ContainingType is { } instances && CalledByFramework(symbol, solution))
            {
                foreach (IMethodSymbol constructor in instances.InstanceConstructors)
                {
                    Enqueue(constructor);
                }
            }
        }

        List<UnfollowableSite> unfollowable = await UnfollowableSites.MetAsync(visited.Values, solution, cancellationToken).ConfigureAwait(false);
        return new Outcome([.. tests.Values], unfollowable, limitReached, [.. visited.Values]);
    }

    /// <summary>Whether the member overrides or implements a member declared outside the solution (compiled code can call it).</summary>
    private static bool CalledByFramework(ISymbol member, Solution solution) =>
        member is IMethodSymbol { MethodKind: MethodKind.Ordinary } or IPropertySymbol or IEventSymbol
        && Relations.DispatchingMembers(member, solution).Values.Any(m => !m.Locations.Any(l => l.IsInSource));

    /// <summary>
    /// What runs a call made from <paramref name="caller"/>'s sites: the caller itself; for a field or property
    /// initializer the constructors of its type (instance), or the type itself (static: whatever first uses it);
    /// a lambda in an initializer also runs wherever the member is used; a static constructor, which no code calls
    /// by name, the type too (the runtime runs it at the type's first use).
    /// </summary>
    private static IEnumerable<ISymbol> Runners(CallSites caller)
    {
        if (caller.Symbol is IMethodSymbol { MethodKind: MethodKind.StaticConstructor, ContainingType: { } initialized })
        {
            yield return caller.Symbol; // A test class's static constructor is also its setup.
            yield return initialized;
            yield break;
        }

        if (caller.Symbol is not (IFieldSymbol or IPropertySymbol) || caller.Symbol.ContainingType is not { } type)
        {
            yield return caller.Symbol;
            yield break;
        }

        bool inInitializer = false;
        bool inLambda = false;
        foreach (Location site in caller.Sites)
        {
            SyntaxNode? node = site.SourceTree?.GetRoot().FindNode(site.SourceSpan, getInnermostNodeForTie: true);
            inInitializer |= node?.FirstAncestorOrSelf<EqualsValueClauseSyntax>() is not null;
            inLambda |= node?.FirstAncestorOrSelf<AnonymousFunctionExpressionSyntax>() is not null;
        }

        if (!inInitializer || inLambda)
        {
            yield return caller.Symbol;
        }

        if (inInitializer)
        {
            if (caller.Symbol.IsStatic)
            {
                yield return type; // Whatever first uses the type runs its static initializers.
            }
            else
            {
                foreach (IMethodSymbol constructor in type.InstanceConstructors)
                {
                    yield return constructor;
                }
            }
        }
    }
}
