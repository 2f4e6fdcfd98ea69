using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Loading;

/// <summary>
/// The text loader of every document the host loads from disk, in place of Roslyn's FileTextLoader: it reads
/// through <see cref="BoundedFileRead"/>, so a source replaced by a FIFO, device or socket after the load is
/// never opened (opening a FIFO blocks until a writer comes) and an oversized one is not read. Such a file
/// loads as Roslyn loads an unreadable one: empty text and a workspace failure naming it.
/// </summary>
public sealed class BoundedTextLoader(string path, System.Text.Encoding? encoding) : TextLoader
{
    public override Task<TextAndVersion> LoadTextAndVersionAsync(LoadTextOptions options, CancellationToken cancellationToken)
    {
        VersionStamp version = VersionStamp.Create(File.GetLastWriteTimeUtc(path));
        byte[] bytes = BoundedFileRead.ReadBytes(path, BoundedFileRead.MaxSourceBytes, out BoundedFileRead.Refusal refusal)
            ?? throw (refusal == BoundedFileRead.Refusal.Missing
                ? new FileNotFoundException($"{path} {BoundedFileRead.Describe(refusal, BoundedFileRead.MaxSourceBytes)}.", path)
                : new InvalidDataException($"{path} {BoundedFileRead.Describe(refusal, BoundedFileRead.MaxSourceBytes)}."));
        SourceText text = SourceText.From(bytes, bytes.Length, encoding, options.ChecksumAlgorithm, throwIfBinaryDetected: false, canBeEmbedded: true);
        return Task.FromResult(TextAndVersion.Create(text, version, path));
    }

    /// <summary>The solution with every document that has a path on disk loaded through a bounded loader (MSBuildWorkspace's come with FileTextLoader).</summary>
    public static Solution Apply(Solution solution)
    {
        foreach (Project project in solution.Projects)
        {
            foreach (Document document in project.Documents)
            {
                if (document.FilePath is { } file)
                {
                    solution = solution.WithDocumentTextLoader(document.Id, new BoundedTextLoader(file, null), PreservationMode.PreserveValue);
                }
            }
        }

        return solution;
    }
}
