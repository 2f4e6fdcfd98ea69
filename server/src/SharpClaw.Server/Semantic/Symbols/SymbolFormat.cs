using System.Text;
using Microsoft.CodeAnalysis;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Symbols;

/// <summary>
/// How symbols are written in answers: the display formats (names an agent can send back as <c>name</c>,
/// parameter types for matching), the kind words, resolved symbols and source locations with their
/// reported paths (workspace-relative, or a <c>file://</c> URI for generated and outside files).
/// </summary>
internal static class SymbolFormat
{
    /// <summary>Display names usable as <c>name</c>: fully qualified, C# keywords, parameter types only.</summary>
    public static readonly SymbolDisplayFormat NameFormat = new(
        globalNamespaceStyle: SymbolDisplayGlobalNamespaceStyle.Omitted,
        typeQualificationStyle: SymbolDisplayTypeQualificationStyle.NameAndContainingTypesAndNamespaces,
        genericsOptions: SymbolDisplayGenericsOptions.IncludeTypeParameters,
        memberOptions: SymbolDisplayMemberOptions.IncludeContainingType | SymbolDisplayMemberOptions.IncludeParameters | SymbolDisplayMemberOptions.IncludeExplicitInterface,
        parameterOptions: SymbolDisplayParameterOptions.IncludeType | SymbolDisplayParameterOptions.IncludeParamsRefOut,
        miscellaneousOptions: SymbolDisplayMiscellaneousOptions.UseSpecialTypes | SymbolDisplayMiscellaneousOptions.IncludeNullableReferenceTypeModifier);

    /// <summary>
    /// The short name of a candidate: containing types but no namespaces, parameter types without namespaces.
    /// It resolves like <see cref="NameFormat"/> (a name matches the end of the qualified name; parameter types
    /// are compared without namespaces) wherever it matches one symbol alone.
    /// </summary>
    public static readonly SymbolDisplayFormat ShortNameFormat = new(
        globalNamespaceStyle: SymbolDisplayGlobalNamespaceStyle.Omitted,
        typeQualificationStyle: SymbolDisplayTypeQualificationStyle.NameAndContainingTypes,
        genericsOptions: SymbolDisplayGenericsOptions.IncludeTypeParameters,
        memberOptions: SymbolDisplayMemberOptions.IncludeContainingType | SymbolDisplayMemberOptions.IncludeParameters | SymbolDisplayMemberOptions.IncludeExplicitInterface,
        parameterOptions: SymbolDisplayParameterOptions.IncludeType | SymbolDisplayParameterOptions.IncludeParamsRefOut,
        miscellaneousOptions: SymbolDisplayMiscellaneousOptions.UseSpecialTypes | SymbolDisplayMiscellaneousOptions.IncludeNullableReferenceTypeModifier);

    /// <summary>Parameter type display (minimal: no namespaces).</summary>
    private static readonly SymbolDisplayFormat ParameterTypeFormat = new(
        globalNamespaceStyle: SymbolDisplayGlobalNamespaceStyle.Omitted,
        typeQualificationStyle: SymbolDisplayTypeQualificationStyle.NameAndContainingTypes,
        genericsOptions: SymbolDisplayGenericsOptions.IncludeTypeParameters,
        miscellaneousOptions: SymbolDisplayMiscellaneousOptions.UseSpecialTypes | SymbolDisplayMiscellaneousOptions.IncludeNullableReferenceTypeModifier);

    public static string KindOf(ISymbol symbol) => symbol switch
    {
        INamespaceSymbol => "namespace",
        INamedTypeSymbol { IsRecord: true } => "record",
        INamedTypeSymbol t => t.TypeKind switch
        {
            TypeKind.Class => "class",
            TypeKind.Struct => "struct",
            TypeKind.Interface => "interface",
            TypeKind.Enum => "enum",
            TypeKind.Delegate => "delegate",
            _ => "type",
        },
        IMethodSymbol { MethodKind: MethodKind.Constructor or MethodKind.StaticConstructor } => "constructor",
        IMethodSymbol { MethodKind: MethodKind.UserDefinedOperator or MethodKind.Conversion } => "operator",
        IMethodSymbol => "method",
        IPropertySymbol => "property",
        IFieldSymbol => "field",
        IEventSymbol => "event",
        _ => "other",
    };

    public static ResolvedSymbol Describe(ISymbol symbol, string workspace, Solution solution)
    {
        List<SourceLocation> locations = Locations(symbol, workspace, solution);
        string? container = symbol.ContainingType?.ToDisplayString(NameFormat)
            ?? (symbol.ContainingNamespace is { IsGlobalNamespace: false } ns ? ns.ToDisplayString(NameFormat) : null);
        return new ResolvedSymbol(symbol.ToDisplayString(NameFormat), KindOf(symbol), container, locations);
    }

    /// <summary>A symbol's source locations as answers list them: distinct, by path, line and character.</summary>
    public static List<SourceLocation> Locations(ISymbol symbol, string workspace, Solution solution) => [.. symbol.Locations
        .Where(l => l.IsInSource)
        .Select(l => ToLocation(l, workspace, solution))
        .Distinct()
        .OrderBy(l => l.Path, StringComparer.Ordinal).ThenBy(l => l.Line).ThenBy(l => l.Character)];

    /// <summary>A source location, marked <c>Generated</c> in a source-generated document (whose path is then an absolute URI).</summary>
    public static SourceLocation ToLocation(Location location, string workspace, Solution solution)
    {
        bool generated = IsGenerated(location, solution);
        FileLinePositionSpan span = location.GetLineSpan();
        return new SourceLocation(LocationPath(workspace, span.Path, generated), span.StartLinePosition.Line + 1, span.StartLinePosition.Character + 1)
        {
            Generated = generated ? true : null,
        };
    }

    /// <summary>True in a source-generated document (or a tree that no document of the solution holds).</summary>
    public static bool IsGenerated(Location location, Solution solution) =>
        location.SourceTree is { } tree && solution.GetDocument(tree) is null or SourceGeneratedDocument;

    /// <summary>A workspace-relative (or file://) path of a generated file: under an obj folder, or named *.g.cs / *.g.i.cs.</summary>
    internal static bool IsGeneratedPath(string path)
    {
        string normalized = path.Replace('\\', '/');
        return normalized.StartsWith("obj/", StringComparison.OrdinalIgnoreCase)
            || normalized.Contains("/obj/", StringComparison.OrdinalIgnoreCase)
            || normalized.EndsWith(".g.cs", StringComparison.OrdinalIgnoreCase)
            || normalized.EndsWith(".g.i.cs", StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>
    /// The path a location is reported with: workspace-relative for a workspace file; the absolute <c>file://</c> URI
    /// for a generated document (Roslyn's virtual path, not a file on disk) and for a file outside the workspace.
    /// </summary>
    public static string LocationPath(string workspace, string path, bool generated)
    {
        string full = Path.GetFullPath(path);
        return generated || !PathUtil.IsUnder(full, workspace) ? new Uri(full).AbsoluteUri : PathUtil.ToWorkspaceRelative(workspace, full);
    }

    /// <summary>The text without whitespace (display strings compared as written by anyone).</summary>
    internal static string Strip(string text)
    {
        StringBuilder builder = new(text.Length);
        foreach (char c in text)
        {
            if (!char.IsWhiteSpace(c))
            {
                builder.Append(c);
            }
        }

        return builder.ToString();
    }

    /// <summary>Formats a parameter type for matching.</summary>
    internal static string ParameterType(IParameterSymbol parameter) => Strip(parameter.Type.ToDisplayString(ParameterTypeFormat));
}
