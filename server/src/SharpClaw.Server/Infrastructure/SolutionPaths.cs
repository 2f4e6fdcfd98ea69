using Microsoft.CodeAnalysis;

namespace SharpClaw.Server.Infrastructure;

/// <summary>The one way the host finds a solution's documents by path.</summary>
internal static class SolutionPaths
{
    /// <summary>
    /// The documents whose path is exactly <paramref name="full"/> under the path rule (<see cref="PathUtil.Comparer"/>):
    /// Roslyn's path index ignores case, so on a case-sensitive file system it would hand <c>Src/A.cs</c> the documents
    /// of <c>src/A.cs</c>, another file. Every kind the index holds (sources, additional files, analyzer configs).
    /// </summary>
    public static IEnumerable<DocumentId> DocumentIdsAt(Solution solution, string full) =>
        solution.GetDocumentIdsWithFilePath(full).Where(id =>
            ((TextDocument?)solution.GetDocument(id) ?? solution.GetAdditionalDocument(id) ?? solution.GetAnalyzerConfigDocument(id))?.FilePath is { } f
            && PathUtil.Comparer.Equals(f, full));
}
