using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Evaluation;

namespace SharpClaw.Server.Semantic.Snapshots;

/// <summary>
/// Turns a freshly loaded (authorized, analyzer-filtered) context into a <see cref="PersistedContext"/>. Only
/// C# projects with full information are captured; anything else (another language, a context that needs
/// fresh evaluation on every call because of dynamic imports) yields null and is not persisted.
/// </summary>
public static class SnapshotCapture
{
    public static PersistedContext? TryCapture(SemanticContext context, Solution solution)
    {
        if (context.Fingerprint.DynamicImports.Count > 0)
        {
            return null; // Must be re-evaluated on every call: nothing to reuse.
        }

        List<Project> projects = [.. solution.Projects];
        if (projects.Any(p => p.Language != LanguageNames.CSharp || p.ParseOptions is not CSharpParseOptions || p.CompilationOptions is not CSharpCompilationOptions))
        {
            return null;
        }

        Dictionary<ProjectId, int> indexes = projects.Select((p, i) => (p.Id, i)).ToDictionary(p => p.Id, p => p.i);
        List<PersistedProject> persisted = [];
        foreach (Project project in projects)
        {
            EvaluatedProject? evaluated = project.FilePath is { } path ? context.Evaluation.Snapshot.Find(path) : null;
            HashSet<string> compileItems = new(evaluated?.CompileItems ?? [], PathUtil.Comparer);
            persisted.Add(new PersistedProject
            {
                Name = project.Name,
                AssemblyName = project.AssemblyName,
                Language = project.Language,
                FilePath = project.FilePath,
                OutputFilePath = project.OutputFilePath,
                OutputRefFilePath = project.OutputRefFilePath,
                CompilationOutputAssemblyPath = project.CompilationOutputInfo.AssemblyPath,
                GeneratedFilesOutputDirectory = project.CompilationOutputInfo.GeneratedFilesOutputDirectory,
                DefaultNamespace = project.DefaultNamespace,
                Framework = context.Frameworks.GetValueOrDefault(project.Id),
                ParseOptions = Parse((CSharpParseOptions)project.ParseOptions!),
                CompilationOptions = SnapshotCompilationOptions.Capture((CSharpCompilationOptions)project.CompilationOptions!, project)
                    ?? throw new NotSupportedException($"the compilation options of {project.Name} cannot be reproduced"),
                Documents = [.. project.Documents.Select(d => Document(d, compileItems, evaluated is not null))],
                AdditionalDocuments = [.. project.AdditionalDocuments.Select(d => Document(d, compileItems, generatedByRule: false))],
                AnalyzerConfigDocuments = [.. project.AnalyzerConfigDocuments.Select(d => Document(d, compileItems, generatedByRule: false))],
                MetadataReferences = [.. project.MetadataReferences.OfType<PortableExecutableReference>().Select(Reference)],
                ProjectReferences = [.. project.ProjectReferences
                    .Where(r => indexes.ContainsKey(r.ProjectId))
                    .Select(r => new PersistedProjectReference(indexes[r.ProjectId], [.. r.Aliases], r.EmbedInteropTypes))],
                Analyzers = [.. project.AnalyzerReferences.Select(a => a.FullPath).OfType<string>()],
            });

            if (project.MetadataReferences.Any(r => r is not PortableExecutableReference { FilePath: not null })
                || project.AnalyzerReferences.Any(a => a.FullPath is null)
                || project.AllProjectReferences.Count != project.ProjectReferences.Count())
            {
                return null; // Something only the live workspace can express: keep to the authorized load.
            }
        }

        return new PersistedContext
        {
            Format = PersistedContext.CurrentFormat,
            HostVersion = Version(),
            Environment = SnapshotEnvironment.Current(),
            TargetPath = context.Key.TargetPath,
            Configuration = context.Key.Configuration,
            TargetFramework = context.Key.TargetFramework,
            Evaluation = context.Evaluation.Snapshot,
            Imports = new Dictionary<string, Fingerprints.ProjectImports>(context.Evaluation.Imports, PathUtil.Comparer),
            Assets = new Dictionary<string, AssetsFileInfo?>(context.Evaluation.Assets, PathUtil.Comparer),
            Projects = persisted,
            Fingerprint = context.Fingerprint.Export(),
            ExcludedAnalyzers = [.. context.ExcludedAnalyzers],
            SubstitutedAnalyzers = [.. context.SubstitutedAnalyzers],
            PartialLoad = [.. context.PartialLoad],
            LoadWarnings = [.. context.LoadWarnings],
        };
    }

    /// <summary>This host's and Roslyn's versions: a snapshot is rebuilt only by the host that wrote it.</summary>
    public static string Version() => HostInfo.HostVersion + "|" + HostInfo.RoslynVersion;

    private static PersistedParseOptions Parse(CSharpParseOptions options) => new(
        (int)options.SpecifiedLanguageVersion,
        options.DocumentationMode,
        options.Kind,
        [.. options.PreprocessorSymbolNames],
        options.Features.ToDictionary(p => p.Key, p => p.Value, StringComparer.Ordinal));

    /// <summary>
    /// Roslyn's build host marks a document generated when it is not among the project's evaluated Compile items
    /// (targets added it during the design-time build: AssemblyInfo, GlobalUsings); the same rule here.
    /// </summary>
    private static PersistedDocument Document(TextDocument document, HashSet<string> compileItems, bool generatedByRule) => new(
        document.FilePath ?? document.Name,
        document.Name,
        [.. document.Folders],
        generatedByRule && document.FilePath is { } path && !compileItems.Contains(path));

    private static PersistedMetadataReference Reference(PortableExecutableReference reference) => new(
        reference.FilePath!,
        reference.Properties.Kind,
        [.. reference.Properties.Aliases],
        reference.Properties.EmbedInteropTypes);
}
