using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace SharpClaw.Server.Semantic.Cache;

/// <summary>
/// Brings a cached solution up to date with files that changed on disk without a structural change (the
/// fingerprint's content changes): each file is read again and its text swapped into every document that has its
/// path, linked ones, additional files and analyzer config files included. No MSBuild, no authorization.
/// </summary>
internal static class DocumentRefresh
{
    /// <summary>Reads changed files and swaps the text of every document (linked ones too) that has that path.</summary>
    public static Solution Apply(Solution solution, IReadOnlyList<string> changedFiles)
    {
        foreach (string path in changedFiles)
        {
            SourceText text;
            try
            {
                using FileStream stream = new(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
                text = SourceText.From(stream, encoding: null, checksumAlgorithm: SourceHashAlgorithm.Sha256);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                continue; // Gone or locked right now: the next check sees it again.
            }

            foreach (DocumentId id in solution.GetDocumentIdsWithFilePath(path))
            {
                if (solution.ContainsDocument(id))
                {
                    solution = solution.WithDocumentText(id, text, PreservationMode.PreserveIdentity);
                }
                else if (solution.ContainsAdditionalDocument(id))
                {
                    solution = solution.WithAdditionalDocumentText(id, text, PreservationMode.PreserveIdentity);
                }
                else if (solution.ContainsAnalyzerConfigDocument(id))
                {
                    solution = solution.WithAnalyzerConfigDocumentText(id, text);
                }
            }
        }

        return solution;
    }
}
