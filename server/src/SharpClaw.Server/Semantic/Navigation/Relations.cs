using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using SharpClaw.Server.Semantic.Symbols;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>Supertypes, subtypes and implementations of types and members.</summary>
internal static class Relations
{
    /// <summary>A type's base classes and interfaces; a member's overridden and implemented members.</summary>
    public static List<ISymbol> Supertypes(ISymbol symbol)
    {
        List<ISymbol> result = [];
        if (symbol is INamedTypeSymbol type)
        {
            for (INamedTypeSymbol? current = type.BaseType; current is not null; current = current.BaseType)
            {
                result.Add(current);
            }

            result.AddRange(type.AllInterfaces);
            return result;
        }

        for (ISymbol? overridden = Overridden(symbol); overridden is not null; overridden = Overridden(overridden))
        {
            result.Add(overridden);
        }

        if (symbol.ContainingType is { } container)
        {
            foreach (INamedTypeSymbol @interface in container.AllInterfaces)
            {
                foreach (ISymbol member in @interface.GetMembers())
                {
                    if (SymbolEqualityComparer.Default.Equals(container.FindImplementationForInterfaceMember(member), symbol))
                    {
                        result.Add(member);
                    }
                }
            }
        }

        return result;
    }

    /// <summary>
    /// The members a call may go through to run <paramref name="symbol"/>: the interface members it implements and
    /// the base members it overrides, transitively (an override of a base member that implements an interface member
    /// is reached through both), keyed by <see cref="Flavours.Identity"/>. Empty for anything but a method, property
    /// or event.
    /// </summary>
    public static Dictionary<string, ISymbol> DispatchingMembers(ISymbol symbol, Solution solution)
    {
        Dictionary<string, ISymbol> dispatching = new(StringComparer.Ordinal);
        if (symbol is IMethodSymbol or IPropertySymbol or IEventSymbol)
        {
            Queue<ISymbol> pending = new([symbol]);
            while (pending.Count > 0)
            {
                foreach (ISymbol member in Supertypes(pending.Dequeue()))
                {
                    if (dispatching.TryAdd(Flavours.Identity(member, solution), member.OriginalDefinition))
                    {
                        pending.Enqueue(member);
                    }
                }
            }
        }

        return dispatching;
    }

    /// <summary>
    /// A type's derived classes, derived interfaces and implementations (transitive); a member's overrides and
    /// implementations — searched from every flavour (target framework) of the declaring project and merged.
    /// </summary>
    public static Task<List<ISymbol>> SubtypesAsync(ISymbol symbol, Solution solution, CancellationToken cancellationToken) =>
        Flavours.SearchAllAsync(symbol, solution, async flavour => await SubtypesOfOneAsync(flavour, solution, cancellationToken).ConfigureAwait(false), cancellationToken);

    private static async Task<List<ISymbol>> SubtypesOfOneAsync(ISymbol symbol, Solution solution, CancellationToken cancellationToken)
    {
        List<ISymbol> result = [];
        if (symbol is INamedTypeSymbol type)
        {
            if (type.TypeKind == TypeKind.Interface)
            {
                result.AddRange(await SymbolFinder.FindDerivedInterfacesAsync(type, solution, transitive: true, cancellationToken: cancellationToken).ConfigureAwait(false));
                result.AddRange(await SymbolFinder.FindImplementationsAsync(type, solution, transitive: true, cancellationToken: cancellationToken).ConfigureAwait(false));
            }
            else if (type.TypeKind == TypeKind.Class)
            {
                result.AddRange(await SymbolFinder.FindDerivedClassesAsync(type, solution, transitive: true, cancellationToken: cancellationToken).ConfigureAwait(false));
            }

            return result;
        }

        if (symbol is IMethodSymbol or IPropertySymbol or IEventSymbol)
        {
            result.AddRange(await SymbolFinder.FindOverridesAsync(symbol, solution, cancellationToken: cancellationToken).ConfigureAwait(false));
            result.AddRange(await SymbolFinder.FindImplementationsAsync(symbol, solution, cancellationToken: cancellationToken).ConfigureAwait(false));
        }

        return result;
    }

    private static ISymbol? Overridden(ISymbol symbol) => symbol switch
    {
        IMethodSymbol method => method.OverriddenMethod,
        IPropertySymbol property => property.OverriddenProperty,
        IEventSymbol @event => @event.OverriddenEvent,
        _ => null,
    };
}
