using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using SharpClaw.Server.Semantic.Symbols;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>
/// Which of the references Roslyn finds for a member are its own. Roslyn's search goes up from a member to the
/// interface and base members it implements or overrides, and from those down to every other implementation and
/// override; the references it lists under an interface member also hold uses of other implementations (every
/// <c>&lt;</c> of a type implementing <c>IComparisonOperators</c> under its <c>op_LessThan</c>). A call of
/// <c>Square.Area</c> is no reference of <c>Circle.Area</c>, nor <c>instant &lt; end</c> one of
/// <c>LocalDate.operator &lt;</c>. Kept: the member's own references (every flavour: Roslyn's search follows a
/// linked file into each, and a member may implement an interface in one framework only) and those naming a
/// member a call may go through to run it (<c>shape.Area()</c> through <c>IShape.Area</c>), with accessors;
/// everything outside the member hierarchy (a type's constructors) is kept as found.
/// </summary>
internal sealed class ReferenceScope
{
    private readonly Solution solution;
    private readonly HashSet<string> own;
    private readonly HashSet<string> running;
    private readonly BindingModels models = new();

    private ReferenceScope(Solution solution, HashSet<string> own, HashSet<string> running)
    {
        this.solution = solution;
        this.own = own;
        this.running = running;
    }

    public enum Group
    {
        /// <summary>The member's own references, or a symbol outside its hierarchy: every location counts.</summary>
        Own,

        /// <summary>A member a call may go through to run it: a location counts when it names one of those members.</summary>
        Dispatching,

        /// <summary>Another implementation or override in the same hierarchy: none counts.</summary>
        Unrelated,
    }

    public static async Task<ReferenceScope> OfAsync(ISymbol symbol, Solution solution, CancellationToken cancellationToken)
    {
        HashSet<string> own = new(StringComparer.Ordinal);
        HashSet<string> running = new(StringComparer.Ordinal);
        if (symbol is IMethodSymbol or IPropertySymbol or IEventSymbol)
        {
            foreach (ISymbol flavour in await Flavours.OfAsync(symbol, solution, cancellationToken).ConfigureAwait(false))
            {
                own.UnionWith(WithAccessors(flavour).Select(s => Flavours.Identity(s, solution)));
                running.UnionWith(Relations.DispatchingMembers(flavour, solution).Values.SelectMany(WithAccessors).Select(s => Flavours.Identity(s, solution)));
            }
        }

        return new ReferenceScope(solution, own, running);
    }

    /// <summary>
    /// Each found definition with its group. A flavour where another implementation implements nothing (its
    /// netstandard2.0 compilation, say) is in the group of its other flavours: the member is one, in every framework.
    /// </summary>
    public List<(ReferencedSymbol Referenced, Group Group)> Classify(IEnumerable<ReferencedSymbol> found)
    {
        List<(ReferencedSymbol Referenced, string Id, Group Group)> classified = [.. found.Select(r =>
        {
            string id = Flavours.Identity(r.Definition, this.solution);
            return (r, id, this.Classify(r.Definition, id));
        })];
        HashSet<string> unrelated = [.. classified.Where(c => c.Group == Group.Unrelated).Select(c => c.Id)];
        return [.. classified.Select(c => (c.Referenced, unrelated.Contains(c.Id) ? Group.Unrelated : c.Group))];
    }

    private Group Classify(ISymbol definition, string id)
    {
        if (this.own.Count == 0 || definition is not (IMethodSymbol or IPropertySymbol or IEventSymbol))
        {
            return Group.Own;
        }

        if (this.own.Contains(id))
        {
            return Group.Own;
        }

        if (this.running.Contains(id))
        {
            return Group.Dispatching;
        }

        return Relations.DispatchingMembers(definition, this.solution).Keys.Any(k => this.own.Contains(k) || this.running.Contains(k)) ? Group.Unrelated : Group.Own;
    }

    /// <summary>True when the reference's expression binds to the member or to a member a call may go through to run it (or binds to nothing known).</summary>
    public async Task<bool> NamesRunningMemberAsync(ReferenceLocation location, CancellationToken cancellationToken)
    {
        await foreach (ISymbol named in CallGraph.NamedAtAsync(location.Document, location.Location.SourceSpan, this.models, cancellationToken).ConfigureAwait(false))
        {
            string id = Flavours.Identity(named, this.solution);
            return this.own.Contains(id) || this.running.Contains(id);
        }

        return true;
    }

    private static IEnumerable<ISymbol> WithAccessors(ISymbol member) => member switch
    {
        IPropertySymbol property => new ISymbol?[] { property, property.GetMethod, property.SetMethod }.OfType<ISymbol>(),
        IEventSymbol @event => new ISymbol?[] { @event, @event.AddMethod, @event.RemoveMethod }.OfType<ISymbol>(),
        _ => [member],
    };
}
