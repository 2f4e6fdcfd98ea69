using System.Text;
using System.Text.RegularExpressions;
using System.Xml;
using System.Xml.Linq;
using Microsoft.CodeAnalysis;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>Hover as plain text: the kind and signature, then the documentation comment (inherited from an implemented or overridden member when the symbol has none).</summary>
internal static partial class HoverText
{
    private static readonly SymbolDisplayFormat Signature = new(
        globalNamespaceStyle: SymbolDisplayGlobalNamespaceStyle.Omitted,
        typeQualificationStyle: SymbolDisplayTypeQualificationStyle.NameAndContainingTypesAndNamespaces,
        genericsOptions: SymbolDisplayGenericsOptions.IncludeTypeParameters | SymbolDisplayGenericsOptions.IncludeTypeConstraints | SymbolDisplayGenericsOptions.IncludeVariance,
        memberOptions: SymbolDisplayMemberOptions.IncludeAccessibility | SymbolDisplayMemberOptions.IncludeModifiers | SymbolDisplayMemberOptions.IncludeType
            | SymbolDisplayMemberOptions.IncludeParameters | SymbolDisplayMemberOptions.IncludeContainingType | SymbolDisplayMemberOptions.IncludeRef
            | SymbolDisplayMemberOptions.IncludeConstantValue | SymbolDisplayMemberOptions.IncludeExplicitInterface,
        kindOptions: SymbolDisplayKindOptions.IncludeTypeKeyword | SymbolDisplayKindOptions.IncludeMemberKeyword,
        propertyStyle: SymbolDisplayPropertyStyle.ShowReadWriteDescriptor,
        parameterOptions: SymbolDisplayParameterOptions.IncludeType | SymbolDisplayParameterOptions.IncludeName | SymbolDisplayParameterOptions.IncludeParamsRefOut
            | SymbolDisplayParameterOptions.IncludeDefaultValue | SymbolDisplayParameterOptions.IncludeExtensionThis,
        localOptions: SymbolDisplayLocalOptions.IncludeType | SymbolDisplayLocalOptions.IncludeConstantValue | SymbolDisplayLocalOptions.IncludeRef,
        miscellaneousOptions: SymbolDisplayMiscellaneousOptions.UseSpecialTypes | SymbolDisplayMiscellaneousOptions.IncludeNullableReferenceTypeModifier
            | SymbolDisplayMiscellaneousOptions.EscapeKeywordIdentifiers);

    public static string For(ISymbol symbol, string kind)
    {
        StringBuilder text = new($"({kind}) {symbol.ToDisplayString(Signature)}");
        string? xml = Documentation(symbol);
        if (xml is not null)
        {
            foreach (string line in Render(xml))
            {
                text.Append('\n').Append(line);
            }
        }

        return text.ToString();
    }

    private static string? Documentation(ISymbol symbol)
    {
        IEnumerable<ISymbol> candidates = [symbol, .. Relations.Supertypes(symbol).Where(s => s is not INamedTypeSymbol || symbol is not INamedTypeSymbol)];
        foreach (ISymbol candidate in symbol is INamedTypeSymbol ? [symbol] : candidates)
        {
            string? xml = candidate.GetDocumentationCommentXml(expandIncludes: true);
            if (!string.IsNullOrWhiteSpace(xml))
            {
                return xml;
            }
        }

        return null;
    }

    private static List<string> Render(string xml)
    {
        XElement root;
        try
        {
            using XmlReader reader = XmlReader.Create(new StringReader(xml.Contains("<member", StringComparison.Ordinal) ? xml : $"<member>{xml}</member>"), new XmlReaderSettings { DtdProcessing = DtdProcessing.Prohibit, XmlResolver = null });
            root = XElement.Load(reader);
        }
        catch (XmlException)
        {
            return [];
        }

        List<string> lines = [];
        if (root.Element("summary") is { } summary)
        {
            lines.Add(Flatten(summary));
        }

        foreach (XElement parameter in root.Elements("param"))
        {
            lines.Add($"{parameter.Attribute("name")?.Value}: {Flatten(parameter)}");
        }

        if (root.Element("returns") is { } returns)
        {
            lines.Add($"returns: {Flatten(returns)}");
        }

        foreach (XElement exception in root.Elements("exception"))
        {
            lines.Add($"throws {CrefName(exception.Attribute("cref")?.Value)}: {Flatten(exception)}");
        }

        if (root.Element("remarks") is { } remarks)
        {
            lines.Add($"remarks: {Flatten(remarks)}");
        }

        return [.. lines.Where(l => l.Length > 0)];
    }

    private static string Flatten(XElement element)
    {
        StringBuilder builder = new();
        foreach (XNode node in element.Nodes())
        {
            builder.Append(node switch
            {
                XText text => text.Value,
                XElement { Name.LocalName: "see" or "seealso" } see => see.Attribute("cref") is { } cref ? CrefName(cref.Value) : see.Attribute("langword")?.Value ?? see.Attribute("href")?.Value ?? see.Value,
                XElement { Name.LocalName: "paramref" or "typeparamref" } reference => reference.Attribute("name")?.Value ?? string.Empty,
                XElement inner => Flatten(inner),
                _ => string.Empty,
            });
        }

        return Whitespace().Replace(builder.ToString(), " ").Trim();
    }

    /// <summary><c>T:System.DivideByZeroException</c> → <c>DivideByZeroException</c>; <c>M:A.B.C(System.Int32)</c> → <c>B.C</c>.</summary>
    private static string CrefName(string? cref)
    {
        if (string.IsNullOrEmpty(cref))
        {
            return string.Empty;
        }

        string name = cref.Length > 2 && cref[1] == ':' ? cref[2..] : cref;
        int open = name.IndexOf('(', StringComparison.Ordinal);
        if (open >= 0)
        {
            name = name[..open];
        }

        string[] parts = name.Split('.');
        return cref.StartsWith("T:", StringComparison.Ordinal) || parts.Length < 2 ? parts[^1] : $"{parts[^2]}.{parts[^1]}";
    }

    [GeneratedRegex(@"\s+")]
    private static partial Regex Whitespace();
}
