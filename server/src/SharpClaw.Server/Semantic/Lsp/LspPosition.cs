using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis.Text;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Lsp;

/// <summary>A zero-based LSP Position { line, character } of a request, checked against its document.</summary>
internal static class LspPosition
{
    /// <param name="node">The position object as the request carries it (null when absent).</param>
    /// <param name="name">What the request calls it (position, range.start, item.selectionRange.start), for errors.</param>
    /// <param name="file">The document's workspace-relative path, for errors.</param>
    public static LinePosition Read(SourceText text, JsonNode? node, string name, string file)
    {
        JsonObject position = node as JsonObject ?? throw SemanticException.InvalidRequest($"The request needs {name} {{ line, character }} (zero-based).");
        int line = Integer(position, name, "line");
        int character = Integer(position, name, "character");
        if (line >= text.Lines.Count || character > text.Lines[line].Span.Length)
        {
            throw SemanticException.InvalidRequest($"{name} {line}:{character} (zero-based) is outside {file} ({text.Lines.Count} lines).");
        }

        return new LinePosition(line, character);
    }

    private static int Integer(JsonObject position, string name, string part) =>
        position[part] is JsonValue value && value.TryGetValue(out int number) && number >= 0
            ? number
            : throw SemanticException.InvalidRequest($"{name}.{part} must be a non-negative integer.");
}
