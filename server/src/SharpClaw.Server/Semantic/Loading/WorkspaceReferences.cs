using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Host;

namespace SharpClaw.Server.Semantic.Loading;

/// <summary>
/// The metadata and analyzer references of one solution built without MSBuildWorkspace (the parallel
/// design-time load, the warm restart from a snapshot), made as the workspace's own services make them:
/// one reference object per (file, properties) with the XML documentation file beside it, so every project
/// shares one copy of each assembly's metadata; analyzers through the workspace's analyzer loader, with
/// each one's folder registered as a dependency location first, and — as MSBuildWorkspace does — a
/// reference of its own per project (the loader still loads each assembly once): projects analyzed in
/// parallel then run separate analyzer instances instead of contending for shared ones.
/// </summary>
public sealed class WorkspaceReferences(Workspace workspace)
{
    private readonly IAnalyzerAssemblyLoader loader = workspace.Services.GetRequiredService<IAnalyzerService>().GetLoader();
    private readonly Dictionary<(string, MetadataImageKind, string, bool), PortableExecutableReference> metadata = [];

    public PortableExecutableReference Metadata(string path, MetadataReferenceProperties properties)
    {
        (string, MetadataImageKind, string, bool) key = (path, properties.Kind, string.Join(",", properties.Aliases), properties.EmbedInteropTypes);
        if (!this.metadata.TryGetValue(key, out PortableExecutableReference? created))
        {
            created = MetadataReference.CreateFromFile(path, properties, XmlDocumentationProvider.CreateFromFile(Path.ChangeExtension(path, "xml")));
            this.metadata[key] = created;
        }

        return created;
    }

    /// <summary>Registers every path's folder with the loader before any analyzer is created from it.</summary>
    public void AddDependencyLocations(IEnumerable<string> paths)
    {
        foreach (string path in paths)
        {
            this.loader.AddDependencyLocation(path);
        }
    }

    public AnalyzerFileReference Analyzer(string path) => new(path, this.loader);

    /// <summary>A document read from disk on demand (bounded, never a FIFO), as the MSBuild loader adds it.</summary>
    public static DocumentInfo Document(ProjectId project, string path, string name, IEnumerable<string> folders, System.Text.Encoding? encoding, bool isGenerated) =>
        DocumentInfo.Create(
            DocumentId.CreateNewId(project, debugName: path),
            name,
            folders,
            SourceCodeKind.Regular,
            new BoundedTextLoader(path, encoding),
            path,
            isGenerated);
}
