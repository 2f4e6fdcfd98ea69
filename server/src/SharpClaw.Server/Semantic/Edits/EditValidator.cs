using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>A compiler error that an edit would introduce.</summary>
public sealed record NewError(string Code, string Path, int Line, int Character, string Message, int Count);

/// <summary>
/// Compares compiler errors before and after an edit, in every project whose documents change and every
/// project that depends on one of them, generator output included (SDK generators run in both compilations).
/// Errors are keyed by code and mapped source location (old locations shifted through the edit's text
/// changes) with occurrence counts, so an existing error whose message now names the new symbol is not new.
/// With <c>mayChangeBinding</c> (rename), method bodies are bound only in the changed files, generator
/// output and the files the predicate names (those mentioning the old or new name or holding a reference);
/// every other file contributes its declaration errors. Without it every file is bound in full.
/// </summary>
public static class EditValidator
{
    public static async Task<IReadOnlyList<NewError>> FindNewErrorsAsync(
        Solution before, Solution after, string workspace, CancellationToken cancellationToken, Func<SyntaxTree, bool>? mayChangeBinding = null)
    {
        SolutionChanges changes = after.GetChanges(before);
        HashSet<ProjectId> affected = [];
        Dictionary<string, List<TextChange>> shifts = new(PathUtil.Comparer);
        foreach (ProjectChanges project in changes.GetProjectChanges())
        {
            affected.Add(project.ProjectId);
            foreach (ProjectId dependent in before.GetProjectDependencyGraph().GetProjectsThatTransitivelyDependOnThisProject(project.ProjectId))
            {
                affected.Add(dependent);
            }

            foreach (DocumentId id in project.GetChangedDocuments(onlyGetDocumentsWithTextChanges: true))
            {
                Document oldDocument = before.GetDocument(id)!;
                if (oldDocument.FilePath is { } path && !shifts.ContainsKey(path))
                {
                    shifts[path] = [.. (await after.GetDocument(id)!.GetTextChangesAsync(oldDocument, cancellationToken).ConfigureAwait(false)).OrderBy(c => c.Span.Start)];
                }
            }
        }

        Dictionary<(string Code, string Path, int Line, int Character), int> old = [];
        Dictionary<(string Code, string Path, int Line, int Character), (int Count, string Message)> now = [];
        foreach (ProjectId id in affected)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (before.GetProject(id) is { } oldProject && await oldProject.GetCompilationAsync(cancellationToken).ConfigureAwait(false) is { } oldCompilation)
            {
                foreach (Diagnostic diagnostic in Errors(oldCompilation, oldProject, shifts, mayChangeBinding, cancellationToken))
                {
                    var key = Key(diagnostic, shifts);
                    old[key] = old.GetValueOrDefault(key) + 1;
                }
            }

            if (after.GetProject(id) is { } newProject && await newProject.GetCompilationAsync(cancellationToken).ConfigureAwait(false) is { } newCompilation)
            {
                foreach (Diagnostic diagnostic in Errors(newCompilation, newProject, shifts, mayChangeBinding, cancellationToken))
                {
                    var key = Key(diagnostic, null);
                    (int count, string? message) = now.GetValueOrDefault(key);
                    now[key] = (count + 1, message ?? diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture));
                }
            }
        }

        List<NewError> added = [];
        foreach ((var key, (int count, string message)) in now)
        {
            int extra = count - old.GetValueOrDefault(key);
            if (extra > 0)
            {
                string path = Path.IsPathRooted(key.Path) ? PathUtil.ToWorkspaceRelative(workspace, key.Path) : key.Path;
                added.Add(new NewError(key.Code, path, key.Line, key.Character, message, extra));
            }
        }

        return [.. added.OrderBy(e => e.Path, StringComparer.Ordinal).ThenBy(e => e.Line).ThenBy(e => e.Character).ThenBy(e => e.Code, StringComparer.Ordinal)];
    }

    /// <summary>Errors of the compilation including source generator output (the driver runs for GetCompilationAsync).</summary>
    private static IEnumerable<Diagnostic> Errors(
        Compilation compilation, Project project, Dictionary<string, List<TextChange>> changed, Func<SyntaxTree, bool>? mayChangeBinding, CancellationToken cancellationToken)
    {
        IEnumerable<Diagnostic> all;
        if (mayChangeBinding is null)
        {
            all = compilation.GetDiagnostics(cancellationToken);
        }
        else
        {
            List<Diagnostic> found = [];
            foreach (SyntaxTree tree in compilation.SyntaxTrees)
            {
                SemanticModel model = compilation.GetSemanticModel(tree);
                bool full = changed.ContainsKey(tree.FilePath) || project.GetDocumentId(tree) is null || mayChangeBinding(tree);
                found.AddRange(full ? model.GetDiagnostics(cancellationToken: cancellationToken) : model.GetDeclarationDiagnostics(cancellationToken: cancellationToken));
            }

            all = found;
        }

        return all.Where(d => d.Severity == DiagnosticSeverity.Error && !d.IsSuppressed);
    }

    private static (string Code, string Path, int Line, int Character) Key(Diagnostic diagnostic, Dictionary<string, List<TextChange>>? shifts)
    {
        if (!diagnostic.Location.IsInSource)
        {
            return (diagnostic.Id, string.Empty, 0, 0);
        }

        FileLinePositionSpan mapped = diagnostic.Location.GetMappedLineSpan();
        string path = mapped.HasMappedPath ? mapped.Path : diagnostic.Location.SourceTree?.FilePath ?? mapped.Path;
        if (shifts is not null && !mapped.HasMappedPath && diagnostic.Location.SourceTree is { } tree
            && shifts.TryGetValue(tree.FilePath, out List<TextChange>? changes))
        {
            // Where this old position is in the new text: shift by the edits before it.
            SourceText oldText = tree.GetText();
            int position = diagnostic.Location.SourceSpan.Start;
            int delta = 0;
            foreach (TextChange change in changes)
            {
                if (change.Span.End > position)
                {
                    break;
                }

                delta += (change.NewText?.Length ?? 0) - change.Span.Length;
            }

            SourceText newText = oldText.WithChanges(changes);
            int newPosition = Math.Clamp(position + delta, 0, newText.Length);
            LinePosition at = newText.Lines.GetLinePosition(newPosition);
            return (diagnostic.Id, path, at.Line + 1, at.Character + 1);
        }

        return (diagnostic.Id, path, mapped.StartLinePosition.Line + 1, mapped.StartLinePosition.Character + 1);
    }
}
