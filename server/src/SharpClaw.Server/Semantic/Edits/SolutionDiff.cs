using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.OpenDocuments;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>
/// Turns a Roslyn solution change into an <see cref="EditPlan"/> after the checks every semantic edit needs:
/// no generated documents, nothing outside the canonical workspace (symbolic links below the root count as
/// outside), linked documents (one file in several projects or target frameworks) must agree, and the size
/// limits (256 files, 8 MiB per file, 64 MiB in total).
/// </summary>
public static class SolutionDiff
{
    public const int MaxFiles = 256;
    public const long MaxFileBytes = 8L * 1024 * 1024;
    public const long MaxTotalBytes = 64L * 1024 * 1024;

    private static readonly string[] GeneratedSuffixes = [".g.cs", ".g.i.cs", ".designer.cs", ".generated.cs", ".AssemblyInfo.cs", ".AssemblyAttributes.cs", ".GlobalUsings.g.cs"];

    /// <summary>
    /// A change computed in one flavour is the file's new text: every linked copy of a changed document (the
    /// same file in another project or target framework) gets it, so the plan writes it once and validation
    /// compiles every flavour with it. Copies the change gave different texts (a rename whose uses sit under
    /// <c>#if</c> in some flavours only) are merged: the union of their edits against the common original,
    /// as Roslyn merges linked files. Only edits that overlap with different texts stay apart
    /// (<see cref="PlanAsync"/> rejects them as linked_document_conflict).
    /// </summary>
    public static async Task<Solution> ShareWithLinkedCopiesAsync(Solution before, Solution after, CancellationToken cancellationToken)
    {
        Dictionary<string, (SourceText Old, HashSet<TextChange> Changes, bool Conflict)> byPath = new(PathUtil.Comparer);
        foreach (ProjectChanges project in after.GetChanges(before).GetProjectChanges())
        {
            foreach (DocumentId id in project.GetChangedDocuments(onlyGetDocumentsWithTextChanges: true))
            {
                if (after.GetDocument(id) is not { FilePath: { } raw } changed || before.GetDocument(id) is not { } original)
                {
                    continue;
                }

                string path = Path.GetFullPath(raw);
                SourceText old = await original.GetTextAsync(cancellationToken).ConfigureAwait(false);
                IEnumerable<TextChange> edits = await changed.GetTextChangesAsync(original, cancellationToken).ConfigureAwait(false);
                if (byPath.TryGetValue(path, out var seen))
                {
                    seen.Changes.UnionWith(edits);
                    byPath[path] = (seen.Old, seen.Changes, seen.Conflict || !seen.Old.ContentEquals(old));
                }
                else
                {
                    byPath[path] = (old, [.. edits], false);
                }
            }
        }

        Dictionary<string, SourceText> newTexts = new(PathUtil.Comparer);
        foreach ((string path, var entry) in byPath)
        {
            if (!entry.Conflict && Merge(entry.Old, entry.Changes) is { } merged)
            {
                newTexts[path] = merged;
            }
        }

        if (newTexts.Count == 0)
        {
            return after;
        }

        Solution shared = after;
        foreach (Document linked in after.Projects.SelectMany(p => p.Documents))
        {
            if (linked.FilePath is not { } raw || !newTexts.TryGetValue(Path.GetFullPath(raw), out SourceText? text) || before.GetDocument(linked.Id) is null)
            {
                continue;
            }

            if (!(await linked.GetTextAsync(cancellationToken).ConfigureAwait(false)).ContentEquals(text))
            {
                shared = shared.WithDocumentText(linked.Id, text, PreservationMode.PreserveIdentity);
            }
        }

        return shared;
    }

    /// <summary>The original with every distinct edit applied, or null when two edits overlap.</summary>
    private static SourceText? Merge(SourceText old, HashSet<TextChange> changes)
    {
        List<TextChange> ordered = [.. changes.OrderBy(c => c.Span.Start).ThenBy(c => c.Span.End)];
        for (int i = 1; i < ordered.Count; i++)
        {
            TextChange previous = ordered[i - 1];
            TextChange current = ordered[i];
            if (current.Span.Start < previous.Span.End || (current.Span.Start == previous.Span.Start && current.Span.IsEmpty && previous.Span.IsEmpty))
            {
                return null;
            }
        }

        return old.WithChanges(ordered);
    }

    public static async Task<EditPlan> PlanAsync(
        Solution before, Solution after, string workspace, string operation, string summary, CancellationToken cancellationToken, OpenDocumentSnapshot? buffers = null)
    {
        SolutionChanges changes = after.GetChanges(before);
        List<DocumentId> changed = [];
        Dictionary<string, (TextDocument Old, TextDocument New)> otherFiles = new(PathUtil.Comparer);
        foreach (ProjectChanges project in changes.GetProjectChanges())
        {
            if (project.GetAddedDocuments().Any() || project.GetRemovedDocuments().Any()
                || project.GetAddedAnalyzerConfigDocuments().Any() || project.GetRemovedAnalyzerConfigDocuments().Any()
                || project.GetAddedAdditionalDocuments().Any() || project.GetRemovedAdditionalDocuments().Any())
            {
                throw SemanticException.InvalidRequest("This edit adds or removes files (for example a new suppression file or .editorconfig), which SharpClaw does not apply; only changes of existing files are supported.");
            }

            changed.AddRange(project.GetChangedDocuments(onlyGetDocumentsWithTextChanges: true));
            foreach (DocumentId id in project.GetChangedAnalyzerConfigDocuments().Concat(project.GetChangedAdditionalDocuments()))
            {
                TextDocument? oldDocument = before.GetAnalyzerConfigDocument(id) ?? (TextDocument?)before.GetAdditionalDocument(id);
                TextDocument? newDocument = after.GetAnalyzerConfigDocument(id) ?? (TextDocument?)after.GetAdditionalDocument(id);
                if (oldDocument is { FilePath: { } path } && newDocument is not null)
                {
                    otherFiles[Path.GetFullPath(path)] = (oldDocument, newDocument);
                }
            }
        }

        // One entry per file: linked documents (same path in several projects) must all get the same text.
        Dictionary<string, (SourceText After, List<TextChange> Changes, TextDocument Old)> byPath = new(PathUtil.Comparer);
        List<string> disagreements = [];
        foreach (DocumentId id in changed)
        {
            Document oldDocument = before.GetDocument(id)!;
            Document newDocument = after.GetDocument(id)!;
            string path = oldDocument.FilePath is { } raw ? Path.GetFullPath(raw) : throw SemanticException.InvalidRequest($"The edit changes the in-memory document '{oldDocument.Name}', which has no file.");
            if (await IsGeneratedAsync(oldDocument, cancellationToken).ConfigureAwait(false))
            {
                throw SemanticException.Edit(
                    SemanticErrorKind.GeneratedDocument,
                    $"The edit would change the generated file {PathUtil.ToWorkspaceRelative(workspace, path)}; nothing was changed. Edit the generator's input instead.",
                    [PathUtil.ToWorkspaceRelative(workspace, path)]);
            }

            SourceText newText = await newDocument.GetTextAsync(cancellationToken).ConfigureAwait(false);
            List<TextChange> textChanges = [.. (await newDocument.GetTextChangesAsync(oldDocument, cancellationToken).ConfigureAwait(false)).OrderBy(c => c.Span.Start)];
            if (byPath.TryGetValue(path, out var existing))
            {
                if (!existing.After.ContentEquals(newText))
                {
                    disagreements.Add(PathUtil.ToWorkspaceRelative(workspace, path));
                }
            }
            else
            {
                byPath[path] = (newText, textChanges, oldDocument);
            }
        }

        // A linked copy that the edit left unchanged while another copy changed also disagrees (paths compared
        // normalized: a linked item's path may be spelled through its project folder, e.g. App/../Lib/File.cs).
        ILookup<string, DocumentId> byFullPath = after.Projects.SelectMany(p => p.Documents)
            .Where(d => d.FilePath is not null)
            .ToLookup(d => Path.GetFullPath(d.FilePath!), d => d.Id, PathUtil.Comparer);
        foreach ((string path, var entry) in byPath)
        {
            foreach (DocumentId id in byFullPath[path])
            {
                if (after.GetDocument(id) is { } linked
                    && !(await linked.GetTextAsync(cancellationToken).ConfigureAwait(false)).ContentEquals(entry.After))
                {
                    disagreements.Add(PathUtil.ToWorkspaceRelative(workspace, path));
                }
            }
        }

        // Existing non-C# files an action edits (.editorconfig severity configuration, additional files).
        foreach ((string path, (TextDocument oldDocument, TextDocument newDocument)) in otherFiles)
        {
            if (!byPath.ContainsKey(path))
            {
                SourceText newText = await newDocument.GetTextAsync(cancellationToken).ConfigureAwait(false);
                SourceText oldText = await oldDocument.GetTextAsync(cancellationToken).ConfigureAwait(false);
                byPath[path] = (newText, [.. newText.GetTextChanges(oldText).OrderBy(c => c.Span.Start)], oldDocument);
            }
        }

        if (disagreements.Count > 0)
        {
            List<string> files = [.. disagreements.Distinct(StringComparer.Ordinal)];
            throw SemanticException.Edit(
                SemanticErrorKind.LinkedDocumentConflict,
                $"The edit changes {string.Join(", ", files)} differently in the projects or target frameworks that share it; nothing was changed. Select one targetFramework or edit the file deliberately.",
                files);
        }

        if (byPath.Count > MaxFiles)
        {
            throw SemanticException.Edit(SemanticErrorKind.EditTooLarge, $"The edit changes {byPath.Count} files; at most {MaxFiles} are allowed. Narrow it.");
        }

        List<PlannedFile> files2 = [];
        long total = 0;
        foreach ((string path, var entry) in byPath.OrderBy(kv => PathUtil.ToWorkspaceRelative(workspace, kv.Key), StringComparer.Ordinal))
        {
            CheckInsideWorkspace(workspace, path);
            byte[] original = BoundedFileRead.ReadForEdit(path, PathUtil.ToWorkspaceRelative(workspace, path), BoundedFileRead.MaxSourceBytes);
            string oldText = (await entry.Old.GetTextAsync(cancellationToken).ConfigureAwait(false)).ToString();
            string disk = FileText.Decode(original);
            // An open editor buffer may differ from the disk: the plan starts from the buffer, and only a
            // client that applies edits in its editor (VS Code) can apply it; the host's writer refuses it.
            bool fromBuffer = buffers is not null && buffers.Documents.TryGetValue(path, out OpenDocument? buffer) && buffer.Text.ToString() == oldText;
            if (!string.Equals(disk, oldText, StringComparison.Ordinal) && !fromBuffer)
            {
                throw SemanticException.Edit(
                    SemanticErrorKind.StaleEdit,
                    $"{PathUtil.ToWorkspaceRelative(workspace, path)} changed on disk while the edit was computed. Try again.",
                    [PathUtil.ToWorkspaceRelative(workspace, path)]);
            }

            byte[] bytes = FileText.Encode(entry.After.ToString(), original);
            if (bytes.LongLength > MaxFileBytes)
            {
                throw SemanticException.Edit(SemanticErrorKind.EditTooLarge, $"{PathUtil.ToWorkspaceRelative(workspace, path)} would be {bytes.LongLength} bytes; at most 8 MiB per file are allowed.");
            }

            total += bytes.LongLength;
            if (total > MaxTotalBytes)
            {
                throw SemanticException.Edit(SemanticErrorKind.EditTooLarge, "The edit writes more than 64 MiB in total; narrow it.");
            }

            files2.Add(new PlannedFile(path, null, original, bytes, oldText, FileText.Decode(bytes), entry.Changes.Count, entry.Changes));
        }

        return new EditPlan(operation, summary, workspace, files2);
    }

    /// <summary>
    /// outside_workspace unless <paramref name="path"/> lies inside the canonical workspace with no symbolic link below the root.
    /// The refusal names the path as the edit would write it, relative to the workspace (<c>../outside/A.cs</c>, or the
    /// link below the root it passes through), never the machine path a link resolves to: answers carry no path outside the workspace.
    /// </summary>
    public static void CheckInsideWorkspace(string workspace, string path)
    {
        string root = PathUtil.ResolveLinks(workspace);
        string full = Path.GetFullPath(path);
        string real = PathUtil.ResolveLinks(full);
        string named = Path.GetRelativePath(workspace, full).Replace(Path.DirectorySeparatorChar, '/');
        if (!PathUtil.IsUnder(full, workspace))
        {
            throw SemanticException.Edit(
                SemanticErrorKind.OutsideWorkspace,
                $"The edit would write {named}, which is outside the workspace; nothing was changed.",
                [named]);
        }

        if (!PathUtil.IsUnder(real, root))
        {
            throw SemanticException.Edit(
                SemanticErrorKind.OutsideWorkspace,
                $"The edit would write {named} through the symbolic link {LinkBelow(workspace, full)} below the workspace, which leads outside the workspace; nothing was changed.",
                [named]);
        }

        if (!string.Equals(Path.GetRelativePath(root, real), Path.GetRelativePath(workspace, full), PathUtil.Comparison))
        {
            throw SemanticException.Edit(
                SemanticErrorKind.OutsideWorkspace,
                $"The edit would write {named} through a symbolic link below the workspace (it is really {PathUtil.ToWorkspaceRelative(root, real)}); nothing was changed.",
                [named]);
        }
    }

    /// <summary>The first component of <paramref name="full"/> below <paramref name="workspace"/> that is a symbolic link, workspace-relative.</summary>
    private static string LinkBelow(string workspace, string full)
    {
        string current = Path.TrimEndingDirectorySeparator(workspace);
        foreach (string part in Path.GetRelativePath(workspace, full).Split(Path.DirectorySeparatorChar, StringSplitOptions.RemoveEmptyEntries))
        {
            current = Path.Combine(current, part);
            FileSystemInfo info = Directory.Exists(current) ? new DirectoryInfo(current) : new FileInfo(current);
            if (info.Exists && info.LinkTarget is not null)
            {
                return PathUtil.ToWorkspaceRelative(workspace, current);
            }
        }

        return "(a link)";
    }

    private static async Task<bool> IsGeneratedAsync(Document document, CancellationToken cancellationToken)
    {
        if (document is SourceGeneratedDocument)
        {
            return true;
        }

        string name = document.FilePath ?? document.Name;
        if (GeneratedSuffixes.Any(s => name.EndsWith(s, StringComparison.OrdinalIgnoreCase)))
        {
            return true;
        }

        SourceText text = await document.GetTextAsync(cancellationToken).ConfigureAwait(false);
        string head = text.ToString(new TextSpan(0, Math.Min(text.Length, 512)));
        return head.Contains("<auto-generated", StringComparison.OrdinalIgnoreCase);
    }
}
