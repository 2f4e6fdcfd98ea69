using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Text;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Symbols;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>Positions and symbol lines of the navigation results, in the shared order (file, position; metadata last by name).</summary>
internal sealed class NavigationFormat(Solution solution, string workspace, bool context)
{
    public string Workspace => workspace;

    public Solution Solution => solution;

    public NavigateLocation Location(Location location)
    {
        FileLinePositionSpan span = location.GetLineSpan();
        string? line = context && location.SourceTree is { } tree ? LineText(tree.GetText(), location.SourceSpan.Start) : null;
        return new NavigateLocation(SymbolFormat.LocationPath(workspace, span.Path, this.IsGenerated(location)), span.StartLinePosition.Line + 1, span.StartLinePosition.Character + 1, line);
    }

    public bool IsGenerated(Location location) => SymbolFormat.IsGenerated(location, solution);

    public static List<NavigateLocation> Ordered(IEnumerable<NavigateLocation> locations) =>
        [.. locations.Distinct().OrderBy(l => l.Path, StringComparer.Ordinal).ThenBy(l => l.Line).ThenBy(l => l.Character)];

    /// <summary>
    /// The line of a related symbol. Constructors are kind constructor; a primary constructor has no declaration
    /// of its own, so it is named by (and located at) its type.
    /// </summary>
    public RelatedSymbol Related(ISymbol symbol, IReadOnlyList<NavigateLocation>? callSites = null)
    {
        symbol = symbol.OriginalDefinition;
        string name = IsPrimaryConstructor(symbol) ? symbol.ContainingType.ToDisplayString(SymbolFormat.NameFormat) : symbol.ToDisplayString(SymbolFormat.NameFormat);
        SourceLocation? location = SymbolFormat.Describe(symbol, workspace, solution).Locations.FirstOrDefault();
        return new RelatedSymbol(name, SymbolFormat.KindOf(symbol), location is null ? null : location with { Generated = null }, callSites);
    }

    public static bool IsPrimaryConstructor(ISymbol symbol) =>
        symbol is IMethodSymbol { MethodKind: MethodKind.Constructor } method
        && method.DeclaringSyntaxReferences.Any(r => r.GetSyntax() is TypeDeclarationSyntax);

    public static List<RelatedSymbol> Ordered(IEnumerable<RelatedSymbol> symbols) =>
        [.. symbols
            .GroupBy(s => (s.Name, s.Location?.Path, s.Location?.Line, s.Via)).Select(g => g.First())
            .OrderBy(s => s.Location is null ? 1 : 0)
            .ThenBy(s => s.Location?.Path, StringComparer.Ordinal)
            .ThenBy(s => s.Location?.Line)
            .ThenBy(s => s.Location?.Character)
            .ThenBy(s => s.Name, StringComparer.Ordinal)
            .ThenBy(s => s.Via, StringComparer.Ordinal)];

    /// <summary>The line holding <paramref name="position"/>, trimmed, and cut around the position when long (<see cref="LineExcerpt"/>).</summary>
    public static string LineText(SourceText text, int position)
    {
        TextLine line = text.Lines.GetLineFromPosition(position);
        return LineExcerpt.Around(text.ToString(line.Span), position - line.Start);
    }
}
