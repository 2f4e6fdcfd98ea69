using SharpClaw.Server.Infrastructure;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace SharpClaw.Server.Semantic.Cache;

/// <summary>
/// The write-back of the host's own file renames (rename_file, undo or redo of one) into a cached solution: each
/// document of the old path becomes a document of the new path in the same project, its folders taken from where
/// the file now is and its text read from disk, so the context stays valid without an MSBuild re-evaluation.
/// </summary>
internal static class DocumentMoves
{
    /// <summary>The solution with every document of <paramref name="from"/> moved to <paramref name="to"/> (already renamed on disk).</summary>
    public static Solution Apply(Solution solution, string from, string to)
    {
        SourceText text;
        using (FileStream stream = new(to, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete))
        {
            text = SourceText.From(stream, encoding: null, checksumAlgorithm: SourceHashAlgorithm.Sha256);
        }

        foreach (DocumentId id in SolutionPaths.DocumentIdsAt(solution, from))
        {
            if (solution.GetDocument(id) is not { } document)
            {
                continue;
            }

            string projectFolder = document.Project.FilePath is { } projectFile ? Path.GetDirectoryName(projectFile)! : Path.GetDirectoryName(to)!;
            string relativeFolder = Path.GetRelativePath(projectFolder, Path.GetDirectoryName(to)!);
            IReadOnlyList<string> folders = relativeFolder == "." ? [] : relativeFolder.Split(Path.DirectorySeparatorChar);
            DocumentInfo info = DocumentInfo.Create(
                DocumentId.CreateNewId(id.ProjectId, to),
                Path.GetFileName(to),
                folders,
                document.SourceCodeKind,
                TextLoader.From(TextAndVersion.Create(text, VersionStamp.Create(), to)),
                to);
            solution = solution.RemoveDocument(id).AddDocument(info);
        }

        return solution;
    }
}
