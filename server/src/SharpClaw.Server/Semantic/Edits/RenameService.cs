using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.Rename;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Symbols;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>
/// Computes a compiler-checked symbol rename: Roslyn's <see cref="Renamer.RenameSymbolAsync(Solution, ISymbol, SymbolRenameOptions, string, CancellationToken)"/>
/// with default options (no file renames, no strings or comments), then rejects invalid identifiers,
/// unresolved conflicts, new compiler errors, generated documents, paths outside the workspace and
/// disagreeing linked documents. Nothing is written here.
/// </summary>
public static class RenameService
{
    public static async Task<EditPlan> PlanAsync(ContextLease lease, string workspace, EditParams parameters, CancellationToken cancellationToken)
    {
        string newName = IdentifierRule.Validate(parameters.NewName);
        SymbolMatch match = await SymbolResolver.ResolveAsync(lease, workspace, parameters, cancellationToken).ConfigureAwait(false);
        ISymbol symbol = match.Symbol;
        if (!symbol.Locations.Any(l => l.IsInSource))
        {
            throw SemanticException.InvalidRequest($"{match.Display} is declared in metadata, not in the workspace; it cannot be renamed.");
        }

        // Refused or not, the plan is computed: a refused rename is still previewed for the person to read.
        SemanticException? refusal = EditVerifiability.Refusal(lease, workspace, $"Renaming {match.Display}", EditVerifiability.ProjectsThatSee(lease.Solution, symbol));
        Solution before = lease.Solution;
        string bareNew = newName.TrimStart('@');
        if (symbol.Name == bareNew)
        {
            throw SemanticException.InvalidRequest($"{match.Display} is already named {bareNew}.");
        }

        Solution after;
        try
        {
            after = await Renamer.RenameSymbolAsync(before, symbol, new SymbolRenameOptions(), newName, cancellationToken).ConfigureAwait(false);
            after = await SolutionDiff.ShareWithLinkedCopiesAsync(before, after, cancellationToken).ConfigureAwait(false);
        }
        catch (ArgumentException ex)
        {
            throw SemanticException.Edit(SemanticErrorKind.RenameConflict, $"Roslyn cannot rename {match.Display}: {ex.Message}");
        }

        string summary = $"rename {match.Display} to {newName}";
        EditPlan plan = await SolutionDiff.PlanAsync(before, after, workspace, "rename", summary, cancellationToken, lease.Buffers).ConfigureAwait(false);

        // One reference search of the old solution serves the binding check and the validation scope.
        IEnumerable<ReferencedSymbol> references = await SymbolFinder.FindReferencesAsync(symbol, before, cancellationToken).ConfigureAwait(false);
        // Unresolved conflicts: every reference must still bind to the renamed symbol.
        List<string> conflicts = await FindBindingConflictsAsync(before, after, symbol, CountReferences(references), workspace, cancellationToken).ConfigureAwait(false);
        // Binding can only change where the old or new name is written or where a reference (also an implicit
        // one, such as foreach's GetEnumerator) is.
        HashSet<string> names = new(StringComparer.Ordinal) { symbol.Name, bareNew };
        foreach (string name in names.ToList().Where(n => n.Length > "Attribute".Length && n.EndsWith("Attribute", StringComparison.Ordinal)))
        {
            names.Add(name[..^"Attribute".Length]);
        }

        RenameBindingScope scope = new(symbol, names, ReferenceFiles(references));
        IReadOnlyList<NewError> errors = await EditValidator.FindNewErrorsAsync(before, after, workspace, cancellationToken, scope.Of).ConfigureAwait(false);
        if (conflicts.Count > 0)
        {
            throw SemanticException.Edit(
                SemanticErrorKind.RenameConflict,
                $"Renaming {match.Display} to {newName} leaves conflicts Roslyn could not resolve; nothing was changed.",
                [.. conflicts, .. errors.Select(Line)]);
        }

        // A name the scope already declares is a conflict of names, not a compile problem to repair.
        if (errors.Any(e => DuplicateDeclarationCodes.Contains(e.Code)))
        {
            throw SemanticException.Edit(
                SemanticErrorKind.RenameConflict,
                $"'{ScopeName(symbol)}' already defines '{bareNew}'; renaming {match.Display} to {newName} would collide with it, so nothing was changed.",
                [.. errors.Select(Line)]);
        }

        if (errors.Count > 0)
        {
            throw SemanticException.Edit(
                SemanticErrorKind.NewErrors,
                $"Renaming {match.Display} to {newName} would introduce {errors.Sum(e => e.Count)} compiler error(s); nothing was changed.",
                [.. errors.Select(Line)]);
        }

        return plan with { Refusal = refusal };
    }

    /// <summary>
    /// "already contains a definition" (namespace, type), "already defines a member", "a local is already defined",
    /// a duplicate parameter, and a type renamed onto another (partial) declaration of the same name.
    /// </summary>
    private static readonly HashSet<string> DuplicateDeclarationCodes = new(StringComparer.Ordinal) { "CS0100", "CS0101", "CS0102", "CS0111", "CS0128", "CS0260" };

    /// <summary>The type, namespace or member whose scope the new name collides in.</summary>
    private static string ScopeName(ISymbol symbol) => symbol.ContainingSymbol switch
    {
        INamespaceSymbol { IsGlobalNamespace: true } => "the global namespace",
        INamespaceSymbol ns => ns.ToDisplayString(),
        { } container => container.Name,
        null => "its scope",
    };

    public static string Line(NewError e) => $"{e.Path}:{e.Line}:{e.Character} error {e.Code} {e.Message}{(e.Count > 1 ? $" (x{e.Count})" : string.Empty)}";

    /// <summary>References that bound to the symbol before and no longer bind to its renamed self afterwards.</summary>
    private static async Task<List<string>> FindBindingConflictsAsync(Solution before, Solution after, ISymbol symbol, int countBefore, string workspace, CancellationToken cancellationToken)
    {
        Location declaration = symbol.Locations.First(l => l.IsInSource);
        Document? oldDocument = before.GetDocument(declaration.SourceTree);
        if (oldDocument is null)
        {
            return [];
        }

        Document newDocument = after.GetDocument(oldDocument.Id)!;
        IEnumerable<Microsoft.CodeAnalysis.Text.TextChange> changes = await newDocument.GetTextChangesAsync(oldDocument, cancellationToken).ConfigureAwait(false);
        int position = declaration.SourceSpan.Start;
        foreach (Microsoft.CodeAnalysis.Text.TextChange change in changes.OrderBy(c => c.Span.Start))
        {
            if (change.Span.End <= declaration.SourceSpan.Start)
            {
                position += (change.NewText?.Length ?? 0) - change.Span.Length;
            }
        }

        ISymbol? renamed = await SymbolFinder.FindSymbolAtPositionAsync(newDocument, position, cancellationToken).ConfigureAwait(false);
        if (renamed is null)
        {
            return [$"{PathUtil.ToWorkspaceRelative(workspace, oldDocument.FilePath ?? oldDocument.Name)}: the renamed declaration could not be found again"];
        }

        int countAfter = CountReferences(await SymbolFinder.FindReferencesAsync(renamed, after, cancellationToken).ConfigureAwait(false));
        return countAfter < countBefore
            ? [$"{countBefore - countAfter} of {countBefore} reference(s) would bind to a different symbol after the rename"]
            : [];
    }

    private static HashSet<string> ReferenceFiles(IEnumerable<ReferencedSymbol> references)
    {
        HashSet<string> files = new(StringComparer.Ordinal);
        foreach (ReferencedSymbol referenced in references)
        {
            foreach (ReferenceLocation location in referenced.Locations)
            {
                if (location.Location.SourceTree?.FilePath is { } path)
                {
                    files.Add(path);
                }
            }
        }

        return files;
    }

    private static int CountReferences(IEnumerable<ReferencedSymbol> references)
    {
        HashSet<(string?, int)> seen = [];
        foreach (ReferencedSymbol referenced in references)
        {
            foreach (ReferenceLocation location in referenced.Locations)
            {
                if (location.Location.IsInSource && !location.IsImplicit && location.Document is not SourceGeneratedDocument)
                {
                    seen.Add((location.Location.SourceTree?.FilePath, location.Location.SourceSpan.Start));
                }
            }
        }

        return seen.Count;
    }
}
