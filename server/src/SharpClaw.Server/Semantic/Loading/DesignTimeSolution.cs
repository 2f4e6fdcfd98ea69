using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Host.Mef;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Discovery;

namespace SharpClaw.Server.Semantic.Loading;

/// <summary>
/// Builds the solution of a parallel design-time pass in an <see cref="AdhocWorkspace"/> by the rules of
/// Roslyn's MSBuild loader (MSBuildProjectLoader.Worker): the compiler command line parsed into options and
/// references, documents named by their Link or project-relative path, a multi-targeted project's flavours
/// named "Name(framework)", each project reference swapped for the metadata reference to the flavour whose
/// output the command line references, and unresolved metadata references removed with a warning — so the
/// result equals an MSBuildWorkspace load of the same solution (the parallel-load tests compare them).
/// Projects are visited in Roslyn's order — the listed ones in turn, each referenced project depth-first when
/// first met — because the order decides how a reference picks a flavour: the first project to meet a
/// multi-targeted reference matches the flavour by its output and its reference assembly together, later
/// ones by either (a netstandard flavour has no reference assembly, so the two rules can differ).
/// </summary>
public static class DesignTimeSolution
{
    /// <param name="target">The solution or project loaded.</param>
    /// <param name="requested">The projects the target lists, in order (the others were found through references).</param>
    /// <param name="projects">The pass's flavours.</param>
    public static LoadedWorkspace Build(TargetSelection target, IReadOnlyList<string> requested, IReadOnlyList<DesignTimeProject> projects)
    {
        AdhocWorkspace workspace = new(RoslynHostServices.Default, WorkspaceKind.MSBuild);
        try
        {
            Builder builder = new(new WorkspaceReferences(workspace), [.. projects.Select(p => new Flavour(p, ProjectId.CreateNewId(debugName: p.Path), Parse(p)))]);
            foreach (string path in requested)
            {
                builder.Visit(path);
            }

            // MSBuildWorkspace lists the requested projects in order, then the ones it found, as it finished them.
            HashSet<string> listed = new(requested, PathUtil.Comparer);
            List<ProjectInfo> infos = [.. requested.Concat(builder.Completed.Where(p => !listed.Contains(p))).SelectMany(builder.InfosOf)];

            // MSBuildWorkspace names the solution file when it opened one, nothing when it opened a project.
            string? solutionFile = target.Kind == TargetKind.Solution ? target.TargetPath : null;
            Solution solution = workspace.AddSolution(SolutionInfo.Create(SolutionId.CreateNewId(solutionFile), VersionStamp.Create(), solutionFile, infos));
            return new LoadedWorkspace(workspace, solution, builder.Diagnostics);
        }
        catch
        {
            workspace.Dispose();
            throw;
        }
    }

    /// <summary>The load's state as Roslyn's worker keeps it: which project files it has met, each flavour's info and references.</summary>
    private sealed class Builder(WorkspaceReferences references, List<Flavour> flavours)
    {
        private readonly ILookup<string, Flavour> byPath = flavours.ToLookup(f => f.Project.Path, PathUtil.Comparer);
        private readonly HashSet<string> met = new(PathUtil.Comparer);
        private readonly Dictionary<ProjectId, ProjectInfo> infos = [];
        private readonly Dictionary<ProjectId, List<ProjectReference>> referencesFrom = [];

        public List<WorkspaceDiagnostic> Diagnostics { get; } = [];

        /// <summary>Project files whose flavours are all built, in the order they finished.</summary>
        public List<string> Completed { get; } = [];

        public IEnumerable<ProjectInfo> InfosOf(string path) => this.byPath[path].Select(f => this.infos[f.Id]);

        public bool Met(string path) => this.met.Contains(path);

        public void Visit(string path)
        {
            if (!this.met.Add(path))
            {
                return;
            }

            List<Flavour> flavoursOfPath = [.. this.byPath[path]];
            foreach (Flavour flavour in flavoursOfPath)
            {
                this.infos[flavour.Id] = CreateProjectInfo(flavour, flavoursOfPath.Count > 1, this, references);
            }

            this.Completed.Add(path);
        }

        public List<Flavour> FlavoursOf(string path) => [.. this.byPath[path]];

        public ProjectInfo? InfoOf(ProjectId id) => this.infos.GetValueOrDefault(id);

        public bool References(ProjectId from, ProjectId to) =>
            this.referencesFrom.TryGetValue(from, out List<ProjectReference>? list) && list.Exists(r => r.ProjectId == to);

        public ProjectReference AddReference(ProjectId from, ProjectId to, IReadOnlyList<string> aliases)
        {
            ProjectReference created = new(to, [.. aliases]);
            if (!this.referencesFrom.TryGetValue(from, out List<ProjectReference>? list))
            {
                this.referencesFrom[from] = list = [];
            }

            list.Add(created);
            return created;
        }
    }

    private sealed record Flavour(DesignTimeProject Project, ProjectId Id, CSharpCommandLineArguments Arguments)
    {
        public string Directory => System.IO.Path.GetDirectoryName(this.Project.Path)!;

        public string? OutputFilePath => Absolute(this.Project.TargetPath, this.Directory);

        public string? OutputRefFilePath => Absolute(this.Project.TargetRefPath, this.Directory);
    }

    private static CSharpCommandLineArguments Parse(DesignTimeProject project) =>
        CSharpCommandLineParser.Default.Parse(
            project.CommandLineArgs,
            Path.GetDirectoryName(project.Path)!,
            sdkDirectory: System.Runtime.InteropServices.RuntimeEnvironment.GetRuntimeDirectory());

    private static ProjectInfo CreateProjectInfo(Flavour flavour, bool multiTargeted, Builder builder, WorkspaceReferences references)
    {
        DesignTimeProject project = flavour.Project;
        CSharpCommandLineArguments arguments = flavour.Arguments;
        string directory = flavour.Directory;
        string fileName = Path.GetFileNameWithoutExtension(project.Path);
        string name = multiTargeted && project.TargetFramework is { } framework ? $"{fileName}({framework})" : fileName;
        string assemblyName = string.IsNullOrWhiteSpace(arguments.CompilationName) ? (string.IsNullOrWhiteSpace(fileName) ? "assembly" : fileName) : arguments.CompilationName;

        CSharpParseOptions parseOptions = arguments.ParseOptions.DocumentationMode == DocumentationMode.None
            ? arguments.ParseOptions.WithDocumentationMode(DocumentationMode.Parse)
            : arguments.ParseOptions;
        CSharpCompilationOptions compilationOptions = arguments.CompilationOptions
            .WithXmlReferenceResolver(new XmlFileResolver(directory))
            .WithSourceReferenceResolver(new SourceFileResolver([], directory))
            .WithMetadataReferenceResolver(null)
            .WithStrongNameProvider(new DesktopStrongNameProvider(arguments.KeyFileSearchPaths, Path.GetTempPath()))
            .WithAssemblyIdentityComparer(DesktopAssemblyIdentityComparer.Default);

        List<DocumentInfo> documents = Documents(flavour.Id, project.Documents.Where(d => !Path.GetFileName(d.ItemSpec).StartsWith("TemporaryGeneratedFile_", StringComparison.Ordinal)), directory, arguments.Encoding);
        List<DocumentInfo> additional = Documents(flavour.Id, project.AdditionalFiles, directory, arguments.Encoding);
        List<DocumentInfo> analyzerConfigs = Documents(flavour.Id, project.EditorConfigFiles, directory, arguments.Encoding);
        WarnAboutDuplicates(documents.Concat(additional).Concat(analyzerConfigs), project.Path, flavour.Id, builder.Diagnostics);

        (List<ProjectReference> projectReferences, List<MetadataReference> metadataReferences) = ResolveReferences(flavour, builder, references);
        return ProjectInfo.Create(
                flavour.Id,
                VersionStamp.Create(File.GetLastWriteTimeUtc(project.Path)),
                name,
                assemblyName,
                LanguageNames.CSharp,
                project.Path,
                flavour.OutputFilePath,
                compilationOptions,
                parseOptions,
                documents,
                projectReferences,
                metadataReferences,
                AnalyzerReferences(arguments, references),
                additional,
                isSubmission: false,
                hostObjectType: null,
                outputRefFilePath: flavour.OutputRefFilePath)
            .WithCompilationOutputInfo(new CompilationOutputInfo()
                .WithAssemblyPath(Absolute(project.IntermediateAssembly, directory))
                .WithGeneratedFilesOutputDirectory(Absolute(project.GeneratedFilesOutputPath, directory)))
            .WithDefaultNamespace(project.RootNamespace ?? string.Empty)
            .WithAnalyzerConfigDocuments(analyzerConfigs);
    }

    /// <summary>
    /// The command line's metadata references with each project reference swapped in for the reference to
    /// its output (Roslyn's ResolveReferencesAsync). A referenced project met before is matched by the output or
    /// the reference assembly of any flavour; one met now is built first (depth-first) and matched by a flavour
    /// whose output and reference assembly are both known and one of them referenced, else its first flavour,
    /// with a warning. A reference that would close a cycle is left out; a reference with
    /// ReferenceOutputAssembly=false builds the project but references nothing; unresolved metadata
    /// references are removed with a warning.
    /// </summary>
    private static (List<ProjectReference>, List<MetadataReference>) ResolveReferences(Flavour flavour, Builder builder, WorkspaceReferences references)
    {
        List<(string Path, MetadataReference? Reference, bool Removed)> metadata = [.. flavour.Arguments.MetadataReferences.Select(r =>
        {
            string? resolved = ResolveMetadataPath(r.Reference, flavour.Arguments);
            return (resolved ?? r.Reference, resolved is null ? null : (MetadataReference)references.Metadata(resolved, r.Properties), false);
        })];
        bool Contains(string? path) => path is not null && metadata.Exists(m => !m.Removed && PathUtil.Comparer.Equals(m.Path, path));
        void Remove(string? path)
        {
            for (int i = 0; i < metadata.Count; i++)
            {
                if (path is not null && PathUtil.Comparer.Equals(metadata[i].Path, path))
                {
                    metadata[i] = metadata[i] with { Removed = true };
                }
            }
        }

        List<ProjectReference> projectReferences = [];
        void Swap(Flavour target, IReadOnlyList<string> aliases)
        {
            ProjectReference created = builder.AddReference(flavour.Id, target.Id, aliases);
            if (!projectReferences.Contains(created))
            {
                projectReferences.Add(created);
            }

            Remove(target.OutputRefFilePath);
            Remove(target.OutputFilePath);
        }

        foreach (DesignTimeReference reference in flavour.Project.ProjectReferences)
        {
            List<Flavour> candidates = builder.FlavoursOf(reference.Path);
            if (builder.Met(reference.Path) && !candidates.Exists(c => builder.References(c.Id, flavour.Id))
                && candidates.Find(c => Contains(c.OutputRefFilePath) || Contains(c.OutputFilePath)) is { } known)
            {
                Swap(known, reference.Aliases);
                continue;
            }

            builder.Visit(reference.Path);
            if (!reference.ReferenceOutputAssembly || candidates.Count == 0)
            {
                continue; // Built, as Roslyn loads it, but not referenced (the pass built every referenced project).
            }

            Flavour? target = candidates.Find(c => c.OutputFilePath is not null && c.OutputRefFilePath is not null && (Contains(c.OutputFilePath) || Contains(c.OutputRefFilePath)));
            if (target is null)
            {
                target = candidates[0];
                builder.Diagnostics.Add(new ProjectDiagnostic(WorkspaceDiagnosticKind.Warning, $"Found project reference without a matching metadata reference: {reference.Path}", flavour.Id));
            }

            if (builder.InfoOf(target.Id) is { } built && built.ProjectReferences.Any(r => r.ProjectId == flavour.Id))
            {
                // A reference back would close a cycle: leave it out, and drop outputs that do not exist.
                Remove(target.OutputRefFilePath is { } refPath && !File.Exists(refPath) ? refPath : null);
                Remove(target.OutputFilePath is { } outPath && !File.Exists(outPath) ? outPath : null);
                continue;
            }

            Swap(target, reference.Aliases);
        }

        foreach ((string path, MetadataReference? reference, bool removed) in metadata)
        {
            if (reference is null && !removed)
            {
                builder.Diagnostics.Add(new ProjectDiagnostic(WorkspaceDiagnosticKind.Warning, $"Unresolved metadata reference removed from project: {path}", flavour.Id));
            }
        }

        List<MetadataReference> kept = [];
        foreach ((_, MetadataReference? reference, bool removed) in metadata)
        {
            if (!removed && reference is not null && !kept.Contains(reference))
            {
                kept.Add(reference);
            }
        }

        return (projectReferences, kept);
    }

    /// <summary>An absolute reference as it is; a relative one in the project folder, then along /lib (the compiler's search).</summary>
    private static string? ResolveMetadataPath(string reference, CSharpCommandLineArguments arguments)
    {
        IEnumerable<string> candidates = Path.IsPathRooted(reference)
            ? [reference]
            : [Path.Combine(arguments.BaseDirectory ?? string.Empty, reference), .. arguments.ReferencePaths.Select(folder => Path.Combine(folder, reference))];
        return candidates.Select(Path.GetFullPath).FirstOrDefault(File.Exists);
    }

    /// <summary>The command line's analyzers (each folder registered with the loader first), one reference per path; a missing file stays an unresolved reference.</summary>
    private static List<AnalyzerReference> AnalyzerReferences(CSharpCommandLineArguments arguments, WorkspaceReferences references)
    {
        List<string> paths = [.. arguments.AnalyzerReferences.Select(a => Path.GetFullPath(Path.Combine(arguments.BaseDirectory ?? string.Empty, a.FilePath))).Distinct(PathUtil.Comparer)];
        references.AddDependencyLocations(paths.Where(File.Exists));
        return [.. paths.Select(path => File.Exists(path) ? (AnalyzerReference)references.Analyzer(path) : new UnresolvedAnalyzerReference(path))];
    }

    /// <summary>Documents named by their logical path: the Link, else the path under the project folder, else the file name.</summary>
    private static List<DocumentInfo> Documents(ProjectId project, IEnumerable<DesignTimeItem> items, string directory, System.Text.Encoding? encoding) =>
        [.. items.Select(item =>
        {
            string path = Path.GetFullPath(Path.Combine(directory, item.ItemSpec));
            // At the platform's separators only, as Roslyn splits it: off Windows a Link of "Utils\\Guard.cs" is one name.
            string[] segments = LogicalPath(item, path, directory).Split([Path.DirectorySeparatorChar, Path.AltDirectorySeparatorChar], StringSplitOptions.RemoveEmptyEntries);
            string name = segments.Length > 0 ? segments[^1] : item.ItemSpec;
            return WorkspaceReferences.Document(project, path, name, segments.Length > 1 ? segments[..^1] : [], encoding, isGenerated: false);
        })];

    private static string LogicalPath(DesignTimeItem item, string path, string directory)
    {
        if (item.Link is { Length: > 0 } link)
        {
            return link;
        }

        if (!Path.IsPathRooted(item.ItemSpec))
        {
            return item.ItemSpec;
        }

        string prefix = directory.EndsWith(Path.DirectorySeparatorChar) ? directory : directory + Path.DirectorySeparatorChar;
        return path.StartsWith(prefix, StringComparison.OrdinalIgnoreCase) ? path[prefix.Length..] : Path.GetFileName(path);
    }

    private static void WarnAboutDuplicates(IEnumerable<DocumentInfo> documents, string projectPath, ProjectId id, List<WorkspaceDiagnostic> diagnostics)
    {
        HashSet<string> seen = new(PathUtil.Comparer);
        foreach (string path in documents.Select(d => d.FilePath).OfType<string>())
        {
            if (!seen.Add(path))
            {
                diagnostics.Add(new ProjectDiagnostic(WorkspaceDiagnosticKind.Warning, $"Duplicate source file '{path}' in project '{projectPath}'", id));
            }
        }
    }

    private static string? Absolute(string? value, string directory) =>
        value is null ? null : Path.GetFullPath(Path.Combine(directory, value));
}
