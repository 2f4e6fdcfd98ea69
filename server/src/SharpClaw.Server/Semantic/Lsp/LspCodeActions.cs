using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Edits;

namespace SharpClaw.Server.Semantic.Lsp;

/// <summary>
/// LSP <c>textDocument/codeAction</c> and <c>codeAction/resolve</c>, from the same listing and resolution the
/// edit tool's code_actions uses. The listing returns CodeActions without edits (computing every edit up front
/// would run every action); resolve computes one, validated like an edit preview (no new compiler errors, no
/// excluded generator that can see the change), and returns its WorkspaceEdit. Nothing is written. Entries the
/// edit tool would refuse as unverified come back <c>disabled</c> with the reason; "Suppress or configure
/// issues" entries stay out, as in the edit tool's default listing.
/// </summary>
internal static class LspCodeActions
{
    public static async Task<JsonArray> ListAsync(ContextLease lease, string workspace, Document document, JsonObject request, CancellationToken cancellationToken)
    {
        (CodeActionListing listing, JsonObject range) = await ListingAsync(lease, workspace, document, request, cancellationToken).ConfigureAwait(false);
        List<string> only = [.. ((request["context"] as JsonObject)?["only"] as JsonArray ?? []).Select(k => k is JsonValue v && v.TryGetValue(out string? kind) ? kind : null).OfType<string>()];
        JsonArray result = [];
        foreach (CodeActionEntry entry in listing.Entries.Where(e => !e.Hidden))
        {
            string kind = listing.Kinds[entry.Index];
            if (only.Count > 0 && !only.Any(o => kind == o || kind.StartsWith(o + ".", StringComparison.Ordinal)))
            {
                continue;
            }

            JsonObject action = new()
            {
                ["title"] = entry.Title,
                ["kind"] = kind,
                ["data"] = new JsonObject
                {
                    ["uri"] = LspRequestService.UriOf(document.FilePath!),
                    ["range"] = range.DeepClone(),
                    ["index"] = entry.Index,
                },
            };
            if (entry.Unverified)
            {
                action["disabled"] = new JsonObject { ["reason"] = "Unverified: a source generator SharpClaw excludes can see this project, so the change cannot be checked by the compiler." };
            }

            result.Add(action);
        }

        return result;
    }

    public static async Task<JsonObject> ResolveAsync(ContextLease lease, string workspace, Func<JsonObject, Document> documentOf, JsonObject request, CancellationToken cancellationToken)
    {
        JsonObject data = request["data"] as JsonObject
            ?? throw SemanticException.InvalidRequest("codeAction/resolve needs the CodeAction that textDocument/codeAction returned (with its data).");
        string title = request["title"] is JsonValue t && t.TryGetValue(out string? text) ? text : string.Empty;
        int index = data["index"] is JsonValue i && i.TryGetValue(out int number) ? number : -1;
        Document document = documentOf(new JsonObject { ["textDocument"] = new JsonObject { ["uri"] = data["uri"]?.DeepClone() } });
        (CodeActionListing listing, _) = await ListingAsync(lease, workspace, document, new JsonObject { ["range"] = data["range"]?.DeepClone() }, cancellationToken).ConfigureAwait(false);
        if (index < 0 || index >= listing.Entries.Count || listing.Entries[index].Title != title)
        {
            throw SemanticException.InvalidRequest($"The code action '{title}' is no longer offered there (the document changed since textDocument/codeAction); ask for the code actions again.");
        }

        EditPlan plan = await CodeActionService.ResolveAsync(lease, workspace, listing, index, cancellationToken).ConfigureAwait(false);
        JsonObject resolved = (JsonObject)request.DeepClone();
        resolved["edit"] = WorkspaceEditOf(plan);
        return resolved;
    }

    private static async Task<(CodeActionListing Listing, JsonObject Range)> ListingAsync(ContextLease lease, string workspace, Document document, JsonObject request, CancellationToken cancellationToken)
    {
        JsonObject range = request["range"] as JsonObject
            ?? throw SemanticException.InvalidRequest("The request needs range { start, end } (zero-based line and character).");
        SourceText text = await document.GetTextAsync(cancellationToken).ConfigureAwait(false);
        string file = PathUtil.ToWorkspaceRelative(workspace, document.FilePath!);
        LinePosition start = LspPosition.Read(text, range["start"], "range.start", file);
        LinePosition end = LspPosition.Read(text, range["end"], "range.end", file);
        EditParams parameters = new()
        {
            Workspace = workspace,
            Action = "code_actions",
            Path = PathUtil.ToWorkspaceRelative(workspace, document.FilePath!),
            Line = start.Line + 1,
            Character = start.Character + 1,
            EndLine = end.Line + 1,
            EndCharacter = end.Character + 1,
        };
        return (await CodeActionService.ListAsync(lease, workspace, parameters, cancellationToken).ConfigureAwait(false), range);
    }

    /// <summary>
    /// The plan as an LSP WorkspaceEdit: <c>changes</c> when every operation edits a file in place, else
    /// <c>documentChanges</c> with the file renames (a renamed file's edits follow at its new URI).
    /// </summary>
    internal static JsonObject WorkspaceEditOf(EditPlan plan)
    {
        if (!plan.Files.Any(f => f.IsRename))
        {
            JsonObject changes = [];
            foreach (PlannedFile file in plan.Files)
            {
                changes[LspRequestService.UriOf(file.Path)] = EditsOf(file);
            }

            return new JsonObject { ["changes"] = changes };
        }

        JsonArray documentChanges = [];
        foreach (PlannedFile file in plan.Files)
        {
            if (file.IsRename)
            {
                documentChanges.Add(new JsonObject { ["kind"] = "rename", ["oldUri"] = LspRequestService.UriOf(file.Path), ["newUri"] = LspRequestService.UriOf(file.NewPath!) });
            }

            if (file.BeforeText != file.AfterText)
            {
                documentChanges.Add(new JsonObject
                {
                    ["textDocument"] = new JsonObject { ["uri"] = LspRequestService.UriOf(file.AfterPath), ["version"] = null },
                    ["edits"] = EditsOf(file),
                });
            }
        }

        return new JsonObject { ["documentChanges"] = documentChanges };
    }

    /// <summary>One TextEdit replacing what differs between the before and after text (the common prefix and suffix kept).</summary>
    private static JsonArray EditsOf(PlannedFile file)
    {
        string before = file.BeforeText;
        string after = file.AfterText;
        int prefix = 0;
        int shorter = Math.Min(before.Length, after.Length);
        while (prefix < shorter && before[prefix] == after[prefix])
        {
            prefix++;
        }

        int suffix = 0;
        while (suffix < shorter - prefix && before[before.Length - 1 - suffix] == after[after.Length - 1 - suffix])
        {
            suffix++;
        }

        // Never split a line break or a surrogate pair: the range's ends must be positions a client can address.
        if (prefix > 0 && prefix < before.Length && ((before[prefix - 1] == '\r' && before[prefix] == '\n') || char.IsLowSurrogate(before[prefix])))
        {
            prefix--;
        }

        int end = before.Length - suffix;
        if (suffix > 0 && end > prefix && ((before[end - 1] == '\r' && before[end] == '\n') || char.IsHighSurrogate(before[end - 1])))
        {
            suffix--;
        }

        SourceText text = SourceText.From(before);
        TextSpan replaced = TextSpan.FromBounds(prefix, before.Length - suffix);
        return
        [
            new JsonObject
            {
                ["range"] = LspRequestService.Range(text.Lines.GetLinePositionSpan(replaced)),
                ["newText"] = after.Substring(prefix, after.Length - suffix - prefix),
            },
        ];
    }
}
