using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Cache;

/// <summary>
/// Brings a cached solution up to date with files that changed on disk without a structural change (the
/// fingerprint's content changes): each file is read again and its text swapped into every document that has its
/// path, linked ones, additional files and analyzer config files included. No MSBuild, no authorization.
/// A file whose bytes are what the document already holds is left alone, so the solution stays the same object and
/// what was computed for it (compilations, the symbol index) stays: a file written in the last two seconds is
/// reported changed on every check (its time cannot prove it unchanged), and an agent asks again right after an edit.
/// </summary>
internal static class DocumentRefresh
{
    /// <summary>Reads changed files and swaps the text of every document (linked ones too) that has that path.</summary>
    public static Solution Apply(Solution solution, IReadOnlyList<string> changedFiles)
    {
        foreach (string path in changedFiles)
        {
            // Read through BoundedFileRead: a file replaced by a FIFO, device or socket is never opened (a
            // FIFO blocks until a writer comes) and reads as empty, as the syntax index skips it; too large too.
            byte[]? bytes = BoundedFileRead.ReadBytes(path, BoundedFileRead.MaxSourceBytes, out BoundedFileRead.Refusal refusal);
            if (bytes is null && refusal == BoundedFileRead.Refusal.Missing)
            {
                continue; // Gone or locked right now: the next check sees it again.
            }

            SourceText text = bytes is null
                ? SourceText.From(string.Empty, encoding: null, checksumAlgorithm: SourceHashAlgorithm.Sha256)
                : SourceText.From(bytes, bytes.Length, encoding: null, checksumAlgorithm: SourceHashAlgorithm.Sha256);

            foreach (DocumentId id in SolutionPaths.DocumentIdsAt(solution, path))
            {
                if (Holds(solution.GetDocument(id) ?? solution.GetAdditionalDocument(id) ?? (TextDocument?)solution.GetAnalyzerConfigDocument(id), text))
                {
                    continue;
                }

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

    /// <summary>Whether the document's text in memory has the same bytes (checksum) and encoding as <paramref name="text"/>.</summary>
    private static bool Holds(TextDocument? document, SourceText text) =>
        document is not null
        && document.TryGetText(out SourceText? current)
        && current.ChecksumAlgorithm == text.ChecksumAlgorithm
        && current.Encoding?.WebName == text.Encoding?.WebName
        && current.GetChecksum().AsSpan().SequenceEqual(text.GetChecksum().AsSpan());
}
