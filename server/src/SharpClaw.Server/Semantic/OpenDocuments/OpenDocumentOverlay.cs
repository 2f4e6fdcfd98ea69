using SharpClaw.Server.Infrastructure;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;

namespace SharpClaw.Server.Semantic.OpenDocuments;

/// <summary>
/// Puts the open editor buffers on top of a context's disk snapshot. The result is memoized per
/// (disk snapshot, buffer version), so repeated queries reuse one solution and Roslyn's compilations.
/// </summary>
internal sealed class OpenDocumentOverlay
{
    private readonly Lock gate = new();
    private (Solution Disk, long Version, Solution Overlaid)? last;

    public async Task<Solution> ApplyAsync(Solution disk, OpenDocumentSnapshot buffers, CancellationToken cancellationToken)
    {
        if (buffers.Documents.Count == 0)
        {
            return disk;
        }

        lock (this.gate)
        {
            if (this.last is { } memo && ReferenceEquals(memo.Disk, disk) && memo.Version == buffers.Version)
            {
                return memo.Overlaid;
            }
        }

        Solution overlaid = disk;
        foreach (OpenDocument buffer in buffers.Documents.Values)
        {
            // Every document of the file: a multi-targeted project links it into several compilations.
            foreach (DocumentId id in SolutionPaths.DocumentIdsAt(disk, buffer.Path))
            {
                Document? document = overlaid.GetDocument(id);
                SourceText? current = document is null ? null : await document.GetTextAsync(cancellationToken).ConfigureAwait(false);
                if (current is null || !current.ContentEquals(buffer.Text))
                {
                    overlaid = overlaid.WithDocumentText(id, buffer.Text, PreservationMode.PreserveIdentity);
                }
            }
        }

        lock (this.gate)
        {
            this.last = (disk, buffers.Version, overlaid);
        }

        return overlaid;
    }
}
