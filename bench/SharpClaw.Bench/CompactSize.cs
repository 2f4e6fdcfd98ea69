using System.Text;
using SharpClaw.Protocol.Semantic;

namespace SharpClaw.Bench;

/// <summary>
/// The size of the compact text an agent receives for a result, in tokens (characters / 4). Mirrors the
/// line formats of the TypeScript renderers (src/tools/**/render*.ts): locations one line per file,
/// related symbols "path:line:char kind Name" with "  calls" lines, a project line, a truncated: line.
/// </summary>
internal static class CompactSize
{
    public static int Tokens(object result)
    {
        StringBuilder text = new();
        switch (result)
        {
            case NavigateResult navigate:
                Navigate(text, navigate);
                break;
            case BulkNavigateResult bulk:
                foreach (BulkNavigateSection section in bulk.Sections)
                {
                    text.AppendLine($"## {section.Index} {section.Action} {section.Target}");
                    if (section.Result is { } answer)
                    {
                        Navigate(text, answer);
                    }
                    else
                    {
                        text.AppendLine($"error {section.Error?.Code}: {section.Error?.Message}");
                    }
                }

                break;
            case SymbolsResult symbols:
                foreach (SymbolItem item in symbols.Items)
                {
                    text.AppendLine(symbols.Path is null
                        ? $"{item.Path}:{item.Line}:{item.Character} {item.Kind} {item.Name}"
                        : $"{new string(' ', 2 * item.Depth)}{item.Line}:{item.Character}-{item.EndLine}:{item.EndCharacter} {item.Kind} {item.Name}");
                }

                text.AppendLine("projects: " + string.Join(", ", symbols.Projects.Select(p => $"{p.Project} ({p.TargetFramework})")));
                Truncated(text, symbols.Truncated, symbols.Total, symbols.NextOffset, "symbols");
                break;
            case SymbolResolveResult resolve:
                text.AppendLine($"{resolve.Symbol.Kind} {resolve.Symbol.Name}");
                Locations(text, resolve.Symbol.Locations.Select(l => (l.Path, l.Line, l.Character)));
                text.AppendLine($"project: {resolve.Project} ({resolve.TargetFramework})");
                break;
            case FindReferencesResult references:
                text.AppendLine($"references of {references.Symbol.Kind} {references.Symbol.Name}");
                Locations(text, references.References.Select(l => (l.Path, l.Line, l.Character)));
                text.AppendLine($"project: {references.Project} ({references.TargetFramework})");
                Truncated(text, references.Truncated, references.Total, references.NextOffset, "locations");
                break;
            case TypeHierarchyResult hierarchy:
                text.AppendLine($"{hierarchy.Symbol.Kind} {hierarchy.Symbol.Name}");
                foreach ((string title, SymbolCollection collection) in new[] { ("base types", hierarchy.BaseTypes), ("interfaces", hierarchy.Interfaces), ("derived types", hierarchy.DerivedTypes), ("implementations", hierarchy.Implementations) })
                {
                    text.AppendLine($"## {title}");
                    foreach (ResolvedSymbol item in collection.Items)
                    {
                        SourceLocation? at = item.Locations.FirstOrDefault();
                        text.AppendLine($"{(at is null ? string.Empty : $"{at.Path}:{at.Line}:{at.Character} ")}{item.Kind} {item.Name}");
                    }
                }

                break;
            case DiagnosticsResult diagnostics:
                foreach (DiagnosticItem item in diagnostics.Diagnostics ?? [])
                {
                    text.AppendLine($"  {item.Line}:{item.Character} {item.Severity} {item.Id} {item.Message}");
                }

                text.AppendLine($"{diagnostics.FilesChecked} files checked, {diagnostics.Total} diagnostics in {diagnostics.FilesWithDiagnostics} files");
                break;
        }

        return (text.Length + 3) / 4;
    }

    private static void Navigate(StringBuilder text, NavigateResult result)
    {
        if (result.Locations is { } locations)
        {
            Locations(text, locations.Select(l => (l.Path, l.Line, l.Character)));
        }

        foreach (RelatedSymbol related in result.Related ?? [])
        {
            Related(text, related);
        }

        if (result.Hover is { } hover)
        {
            text.AppendLine(hover);
        }

        foreach (ImpactSection section in result.Sections ?? [])
        {
            text.AppendLine($"## {section.Action}");
            Locations(text, (section.Locations ?? []).Select(l => (l.Path, l.Line, l.Character)));
            foreach (RelatedSymbol related in section.Related ?? [])
            {
                Related(text, related);
            }
        }

        text.AppendLine($"project: {result.Project} ({result.TargetFramework})");
        Truncated(text, result.Truncated, result.Total, result.NextOffset, result.Related is null ? "locations" : "symbols");
    }

    private static void Related(StringBuilder text, RelatedSymbol related)
    {
        text.AppendLine($"{(related.Location is { } at ? $"{at.Path}:{at.Line}:{at.Character} " : string.Empty)}{related.Kind} {related.Name}");
        if (related.CallSites is { Count: > 0 } sites)
        {
            text.AppendLine("  calls " + string.Join(' ', sites.Select(s => $"{s.Line}:{s.Character}")));
        }
    }

    private static void Locations(StringBuilder text, IEnumerable<(string Path, int Line, int Character)> locations)
    {
        foreach (IGrouping<string, (string Path, int Line, int Character)> file in locations.GroupBy(l => l.Path))
        {
            text.AppendLine($"{file.Key} {string.Join(' ', file.Select(l => $"{l.Line}:{l.Character}"))}");
        }
    }

    private static void Truncated(StringBuilder text, bool truncated, int total, int? next, string noun)
    {
        if (truncated)
        {
            text.AppendLine($"truncated: {total} {noun} in total, next offset: {next}. Raise limit or narrow the query.");
        }
    }
}
