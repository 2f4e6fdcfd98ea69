using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.TestSelection;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>
/// Whether an edit stays inside member bodies, so that no code outside the changed documents can bind
/// differently after it (<see cref="EditValidator"/> then checks only the changed documents, and compiles no
/// dependent project). A body declares nothing another file sees: the rule is <see cref="ChangedMembers"/>'s, the
/// one the reached-tests selection trusts (signatures, attributes, added or removed members, constants and static
/// initializers, type declarations, using directives, top-level statements and code under <c>#if</c> are not bodies).
/// Besides it: only C# document texts change (no document added or removed, no project option, reference or
/// additional file), and the source generators that run produce the same output before and after (a generator
/// may read a body and declare what other files use).
/// </summary>
public static class BodyOnlyEdit
{
    public static async Task<bool> IsAsync(SolutionChanges changes, CancellationToken cancellationToken)
    {
        if (changes.GetAddedProjects().Any() || changes.GetRemovedProjects().Any() || changes.GetAddedAnalyzerReferences().Any() || changes.GetRemovedAnalyzerReferences().Any())
        {
            return false;
        }

        // A file compiled in several flavours changes the same way in each: its texts are compared once.
        HashSet<string> compared = new(PathUtil.Comparer); // path and both texts' hashes
        foreach (ProjectChanges project in changes.GetProjectChanges())
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (!OnlyDocumentTexts(project))
            {
                return false;
            }

            foreach (DocumentId id in project.GetChangedDocuments(onlyGetDocumentsWithTextChanges: true))
            {
                Document old = project.OldProject.GetDocument(id)!;
                Document now = project.NewProject.GetDocument(id)!;
                SourceText text = await now.GetTextAsync(cancellationToken).ConfigureAwait(false);
                SourceText previous = await old.GetTextAsync(cancellationToken).ConfigureAwait(false);
                string key = $"{now.FilePath ?? id.ToString()} {Convert.ToHexString([.. previous.GetContentHash()])} {Convert.ToHexString([.. text.GetContentHash()])}";
                if (!compared.Add(key))
                {
                    continue;
                }

                if (ChangedMembers.Compare(previous.ToString(), text.ToString(), now.FilePath ?? now.Name).Fallbacks.Count > 0)
                {
                    return false;
                }
            }

            if (!await SameGeneratedOutputAsync(project.OldProject, project.NewProject, cancellationToken).ConfigureAwait(false))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Nothing of the project changed but the texts of its C# documents.</summary>
    private static bool OnlyDocumentTexts(ProjectChanges project) =>
        project.OldProject.Language == LanguageNames.CSharp
        && !project.GetAddedDocuments().Any() && !project.GetRemovedDocuments().Any()
        && !project.GetAddedAdditionalDocuments().Any() && !project.GetRemovedAdditionalDocuments().Any() && !project.GetChangedAdditionalDocuments().Any()
        && !project.GetAddedAnalyzerConfigDocuments().Any() && !project.GetRemovedAnalyzerConfigDocuments().Any() && !project.GetChangedAnalyzerConfigDocuments().Any()
        && !project.GetAddedProjectReferences().Any() && !project.GetRemovedProjectReferences().Any()
        && !project.GetAddedMetadataReferences().Any() && !project.GetRemovedMetadataReferences().Any()
        && !project.GetAddedAnalyzerReferences().Any() && !project.GetRemovedAnalyzerReferences().Any()
        && Equals(project.OldProject.CompilationOptions, project.NewProject.CompilationOptions)
        && Equals(project.OldProject.ParseOptions, project.NewProject.ParseOptions)
        && project.GetChangedDocuments(onlyGetDocumentsWithTextChanges: false).SequenceEqual(project.GetChangedDocuments(onlyGetDocumentsWithTextChanges: true));

    /// <summary>The generators' documents (by path: generator and hint name) with the same texts on both sides.</summary>
    private static async Task<bool> SameGeneratedOutputAsync(Project before, Project after, CancellationToken cancellationToken)
    {
        Dictionary<string, SourceGeneratedDocument> old = (await before.GetSourceGeneratedDocumentsAsync(cancellationToken).ConfigureAwait(false)).ToDictionary(d => d.FilePath ?? d.HintName, StringComparer.Ordinal);
        List<SourceGeneratedDocument> now = [.. await after.GetSourceGeneratedDocumentsAsync(cancellationToken).ConfigureAwait(false)];
        if (old.Count != now.Count)
        {
            return false;
        }

        foreach (SourceGeneratedDocument document in now)
        {
            if (!old.TryGetValue(document.FilePath ?? document.HintName, out SourceGeneratedDocument? previous)
                || !(await previous.GetTextAsync(cancellationToken).ConfigureAwait(false)).ContentEquals(await document.GetTextAsync(cancellationToken).ConfigureAwait(false)))
            {
                return false;
            }
        }

        return true;
    }
}
