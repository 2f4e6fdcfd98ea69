using System.Text.Json.Serialization;
using Microsoft.CodeAnalysis;
using SharpClaw.Server.Semantic.Evaluation;
using SharpClaw.Server.Semantic.Fingerprints;
using SharpClaw.Server.Semantic.Loading;

namespace SharpClaw.Server.Semantic.Snapshots;

/// <summary>
/// The approved snapshot of one loaded context as the store keeps it: what Roslyn needs to rebuild the
/// analyzer-filtered solution without MSBuild, the evaluation results answers report, and the fingerprint
/// that decides whether it is still valid. Never an approval: a later host uses it only when every
/// fingerprint input is unchanged (the same rule that keeps a live context valid). All paths are full paths.
/// </summary>
public sealed record PersistedContext : PersistedEvaluation
{
    /// <summary>Bumped whenever this shape or its meaning changes: an older row is ignored and replaced.</summary>
    public new const int CurrentFormat = 3; // 3: the assets files' restore errors (AssetsFileInfo.RestoreErrors).

    /// <summary>Roslyn projects in solution order.</summary>
    public required List<PersistedProject> Projects { get; init; }

    public required List<AnalyzerExclusion> ExcludedAnalyzers { get; init; }

    public required List<AnalyzerSubstitution> SubstitutedAnalyzers { get; init; }

    public required List<EvaluationFailure> PartialLoad { get; init; }

    public required List<EvaluationFailure> LoadWarnings { get; init; }
}

/// <summary>One Roslyn project (one project file × target framework flavour).</summary>
public sealed record PersistedProject
{
    public required string Name { get; init; }

    public required string AssemblyName { get; init; }

    public required string Language { get; init; }

    public string? FilePath { get; init; }

    public string? OutputFilePath { get; init; }

    public string? OutputRefFilePath { get; init; }

    public string? CompilationOutputAssemblyPath { get; init; }

    public string? GeneratedFilesOutputDirectory { get; init; }

    public string? DefaultNamespace { get; init; }

    /// <summary>The framework this compilation was evaluated for (null when unknown).</summary>
    public string? Framework { get; init; }

    public required PersistedParseOptions ParseOptions { get; init; }

    public required PersistedCompilationOptions CompilationOptions { get; init; }

    public required List<PersistedDocument> Documents { get; init; }

    public required List<PersistedDocument> AdditionalDocuments { get; init; }

    public required List<PersistedDocument> AnalyzerConfigDocuments { get; init; }

    public required List<PersistedMetadataReference> MetadataReferences { get; init; }

    public required List<PersistedProjectReference> ProjectReferences { get; init; }

    /// <summary>The trusted analyzer/generator assemblies that survived filtering (SDK copies included).</summary>
    public required List<string> Analyzers { get; init; }
}

/// <param name="Path">Full path.</param>
/// <param name="Name">The document name (file name or the last segment of its Link).</param>
/// <param name="Folders">Logical folders (from the Link or the project-relative path).</param>
/// <param name="IsGenerated">A side effect of the build (not an evaluated Compile item), as Roslyn's build host decides.</param>
public sealed record PersistedDocument(string Path, string Name, List<string> Folders, bool IsGenerated);

/// <param name="Path">Full path of the referenced assembly or module.</param>
public sealed record PersistedMetadataReference(string Path, MetadataImageKind Kind, List<string> Aliases, bool EmbedInteropTypes);

/// <param name="Project">Index into <see cref="PersistedContext.Projects"/>.</param>
public sealed record PersistedProjectReference(int Project, List<string> Aliases, bool EmbedInteropTypes);

/// <summary>CSharpParseOptions as the command line produced them.</summary>
public sealed record PersistedParseOptions(
    int LanguageVersion,
    DocumentationMode DocumentationMode,
    SourceCodeKind Kind,
    List<string> PreprocessorSymbols,
    Dictionary<string, string> Features);

/// <summary>CSharpCompilationOptions as the command line produced them (the workspace's resolvers are rebuilt).</summary>
public sealed record PersistedCompilationOptions
{
    public required OutputKind OutputKind { get; init; }

    public string? ModuleName { get; init; }

    public string? MainTypeName { get; init; }

    public string? ScriptClassName { get; init; }

    public required List<string> Usings { get; init; }

    public required OptimizationLevel OptimizationLevel { get; init; }

    public required bool CheckOverflow { get; init; }

    public required bool AllowUnsafe { get; init; }

    public string? CryptoKeyContainer { get; init; }

    public string? CryptoKeyFile { get; init; }

    /// <summary>Base64.</summary>
    public string? CryptoPublicKey { get; init; }

    public bool? DelaySign { get; init; }

    public required bool PublicSign { get; init; }

    public required Platform Platform { get; init; }

    public required ReportDiagnostic GeneralDiagnosticOption { get; init; }

    public required int WarningLevel { get; init; }

    public required Dictionary<string, ReportDiagnostic> SpecificDiagnosticOptions { get; init; }

    public required bool ReportSuppressedDiagnostics { get; init; }

    public required bool ConcurrentBuild { get; init; }

    public required bool Deterministic { get; init; }

    public required MetadataImportOptions MetadataImportOptions { get; init; }

    public required NullableContextOptions NullableContextOptions { get; init; }

    /// <summary>The command line's /debug+ (an internal option of Roslyn's, proven by round trip at capture).</summary>
    public bool DebugPlusMode { get; init; }

    /// <summary>Where a relative key file is looked for (the project folder, then the output folder).</summary>
    public required List<string> KeyFileSearchPaths { get; init; }
}

/// <summary>System.Text.Json metadata for <see cref="PersistedContext"/> and <see cref="PersistedEvaluation"/> (no reflection).</summary>
[JsonSourceGenerationOptions(UseStringEnumConverter = true, DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull)]
[JsonSerializable(typeof(PersistedContext))]
[JsonSerializable(typeof(PersistedEvaluation))]
internal sealed partial class SnapshotJsonContext : JsonSerializerContext;
