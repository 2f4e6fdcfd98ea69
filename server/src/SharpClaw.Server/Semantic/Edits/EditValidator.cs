using System.Collections.Concurrent;
using System.Collections.Immutable;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
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
/// With <c>scopeOf</c> (rename), changed files and generator output are bound whole and every other file in the
/// scope the caller names (<see cref="TreeScope"/>: its declarations, plus the members where binding can
/// change). Without it every file is bound in full. An edit confined to member bodies (<see cref="BodyOnlyEdit"/>)
/// binds only its changed files and generator output, in the changed projects.
/// Only what can hold a new error is computed: the after side first (the affected projects in parallel), then
/// the before side only for the files where the after side has errors (every flavour of them, with the same
/// scope), cached per compilation so a second preview on the same snapshot does not bind them again.
/// </summary>
public static class EditValidator
{
    /// <summary>Before-side errors already computed, per compilation snapshot, tree and scope.</summary>
    private static readonly ConditionalWeakTable<Compilation, ConcurrentDictionary<(SyntaxTree? Tree, string Scope), ImmutableArray<Diagnostic>>> BeforeErrors = new();

    public static async Task<IReadOnlyList<NewError>> FindNewErrorsAsync(
        Solution before, Solution after, string workspace, CancellationToken cancellationToken, Func<SyntaxTree, Compilation, CancellationToken, TreeScope>? scopeOf = null)
    {
        SolutionChanges changes = after.GetChanges(before);
        // An edit inside member bodies changes nothing another file binds to: only its own documents can hold a
        // new error, so no other file is bound and no dependent project compiled.
        bool bodiesOnly = await BodyOnlyEdit.IsAsync(changes, cancellationToken).ConfigureAwait(false);
        if (bodiesOnly)
        {
            scopeOf = static (_, _, _) => TreeScope.None;
        }

        HashSet<ProjectId> affected = [];
        Dictionary<string, List<TextChange>> shifts = new(PathUtil.Comparer);
        foreach (ProjectChanges project in changes.GetProjectChanges())
        {
            affected.Add(project.ProjectId);
            foreach (ProjectId dependent in bodiesOnly ? [] : before.GetProjectDependencyGraph().GetProjectsThatTransitivelyDependOnThisProject(project.ProjectId))
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

        // After: every affected project (each flavour) at once; Roslyn compilations are safe to share.
        AfterSide[] afterSides = await Task.WhenAll(affected.Select(id => Task.Run(() => AfterAsync(after.GetProject(id), shifts, scopeOf, cancellationToken), cancellationToken))).ConfigureAwait(false);
        Dictionary<(string Code, string Path, int Line, int Character), (int Count, string Message)> now = [];
        HashSet<string> errorPaths = new(PathUtil.Comparer);
        bool everywhere = false;
        foreach (AfterSide side in afterSides)
        {
            foreach (Diagnostic diagnostic in side.Errors)
            {
                var key = Key(diagnostic, null);
                (int count, string? message) = now.GetValueOrDefault(key);
                now[key] = (count + 1, message ?? diagnostic.GetMessage(System.Globalization.CultureInfo.InvariantCulture));
                // A #line-mapped or locationless error may pair with an old error of any file: compare every file then.
                if (diagnostic.Location.SourceTree is not { } tree || diagnostic.Location.GetMappedLineSpan().HasMappedPath)
                {
                    everywhere = true;
                }
                else
                {
                    errorPaths.Add(tree.FilePath);
                }
            }
        }

        if (now.Count == 0)
        {
            return [];
        }

        // Before: only the files that now have errors, in every affected flavour (a linked file's old errors
        // count in each of its projects, as its new ones do).
        Dictionary<(string Code, string Path, int Line, int Character), int> old = [];
        Dictionary<ProjectId, AfterSide> afterById = afterSides.Where(s => s.Project is not null).ToDictionary(s => s.Project!.Id);
        foreach (ProjectId id in affected)
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (before.GetProject(id) is not { } oldProject || await oldProject.GetCompilationAsync(cancellationToken).ConfigureAwait(false) is not { } oldCompilation)
            {
                continue;
            }

            var cache = BeforeErrors.GetOrCreateValue(oldCompilation);
            IEnumerable<Diagnostic> errors;
            if (scopeOf is null)
            {
                errors = cache.GetOrAdd((null, "compilation"), _ => [.. ErrorsOnly(oldCompilation.GetDiagnostics(cancellationToken))]);
            }
            else
            {
                List<Diagnostic> found = [];
                foreach (SyntaxTree tree in oldCompilation.SyntaxTrees)
                {
                    if (!everywhere && !errorPaths.Contains(tree.FilePath) && !MapsLines(tree, cancellationToken))
                    {
                        continue;
                    }

                    // An unchanged file is bound in the scope its after side was; a changed one, generator output
                    // or a file the after side did not see, whole.
                    TreeScope scope = shifts.ContainsKey(tree.FilePath) || oldProject.GetDocumentId(tree) is null
                        || !afterById.TryGetValue(id, out AfterSide? side) || !side.Scopes.TryGetValue(tree.FilePath, out TreeScope? seen)
                        ? TreeScope.Full
                        : seen;
                    found.AddRange(cache.GetOrAdd((tree, scope.Key), _ => [.. ErrorsOnly(scope.Diagnostics(oldCompilation, tree, cancellationToken))]));
                }

                errors = found;
            }

            foreach (Diagnostic diagnostic in errors)
            {
                var key = Key(diagnostic, shifts);
                old[key] = old.GetValueOrDefault(key) + 1;
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

    /// <summary>One affected project's errors after the edit, and the scope each of its trees was bound in.</summary>
    private sealed record AfterSide(Project? Project, List<Diagnostic> Errors, Dictionary<string, TreeScope> Scopes);

    /// <summary>Errors of the after compilation including source generator output (the driver runs for GetCompilationAsync).</summary>
    private static async Task<AfterSide> AfterAsync(
        Project? project, Dictionary<string, List<TextChange>> changed, Func<SyntaxTree, Compilation, CancellationToken, TreeScope>? scopeOf, CancellationToken cancellationToken)
    {
        Dictionary<string, TreeScope> scopes = new(PathUtil.Comparer);
        if (project is null || await project.GetCompilationAsync(cancellationToken).ConfigureAwait(false) is not { } compilation)
        {
            return new AfterSide(project, [], scopes);
        }

        if (scopeOf is null)
        {
            return new AfterSide(project, [.. ErrorsOnly(compilation.GetDiagnostics(cancellationToken))], scopes);
        }

        List<Diagnostic> found = [];
        foreach (SyntaxTree tree in compilation.SyntaxTrees)
        {
            cancellationToken.ThrowIfCancellationRequested();
            TreeScope scope = changed.ContainsKey(tree.FilePath) || project.GetDocumentId(tree) is null ? TreeScope.Full : scopeOf(tree, compilation, cancellationToken);
            scopes[tree.FilePath] = scope;
            found.AddRange(ErrorsOnly(scope.Diagnostics(compilation, tree, cancellationToken)));
        }

        return new AfterSide(project, found, scopes);
    }

    /// <summary>Whether the tree has a #line directive (its old errors may be keyed under another file's path).</summary>
    private static bool MapsLines(SyntaxTree tree, CancellationToken cancellationToken) =>
        tree.GetRoot(cancellationToken) is CSharpSyntaxNode { ContainsDirectives: true } root
        && root.GetFirstDirective(d => d.IsKind(SyntaxKind.LineDirectiveTrivia) || d.IsKind(SyntaxKind.LineSpanDirectiveTrivia)) is not null;

    private static IEnumerable<Diagnostic> ErrorsOnly(IEnumerable<Diagnostic> all) => all.Where(d => d.Severity == DiagnosticSeverity.Error && !d.IsSuppressed);

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
