using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Snapshots;

/// <summary>
/// The round trip of a project's CSharpCompilationOptions through <see cref="PersistedCompilationOptions"/>.
/// <see cref="Rebuild"/> makes what Roslyn's MSBuild loader makes from the design-time command line (the
/// command line's options plus the workspace's XML/source resolvers, strong name provider and identity
/// comparer; the solution adds the .editorconfig-based syntax tree options itself). A few options are internal to Roslyn (the command line's /debug+ sets DebugPlusMode), so
/// <see cref="Capture"/> proves the round trip with CompilationOptions.Equals, which compares internal
/// fields too, and gives up (null: the context is not persisted) when it cannot reproduce the options.
/// </summary>
public static class SnapshotCompilationOptions
{
    /// <summary>Options as the command line parser makes them for /debug+ (the only public way to DebugPlusMode).</summary>
    private static readonly Lazy<CSharpCompilationOptions> DebugPlusSeed = new(() =>
        CSharpCommandLineParser.Default.Parse(["/debug+", "/nologo"], baseDirectory: Path.GetTempPath(), sdkDirectory: null).CompilationOptions);

    public static PersistedCompilationOptions? Capture(CSharpCompilationOptions options, Project project)
    {
        List<string> searchPaths = [];
        if (project.FilePath is { } file)
        {
            searchPaths.Add(Path.GetDirectoryName(file)!);
        }

        if ((project.CompilationOutputInfo.AssemblyPath ?? project.OutputFilePath) is { } output && Path.GetDirectoryName(output) is { } outputFolder
            && !searchPaths.Contains(outputFolder, PathUtil.Comparer))
        {
            searchPaths.Add(outputFolder);
        }

        PersistedCompilationOptions persisted = new()
        {
            OutputKind = options.OutputKind,
            ModuleName = options.ModuleName,
            MainTypeName = options.MainTypeName,
            ScriptClassName = options.ScriptClassName,
            Usings = [.. options.Usings],
            OptimizationLevel = options.OptimizationLevel,
            CheckOverflow = options.CheckOverflow,
            AllowUnsafe = options.AllowUnsafe,
            CryptoKeyContainer = options.CryptoKeyContainer,
            CryptoKeyFile = options.CryptoKeyFile,
            CryptoPublicKey = options.CryptoPublicKey.IsDefaultOrEmpty ? null : Convert.ToBase64String([.. options.CryptoPublicKey]),
            DelaySign = options.DelaySign,
            PublicSign = options.PublicSign,
            Platform = options.Platform,
            GeneralDiagnosticOption = options.GeneralDiagnosticOption,
            WarningLevel = options.WarningLevel,
            SpecificDiagnosticOptions = options.SpecificDiagnosticOptions.ToDictionary(p => p.Key, p => p.Value, StringComparer.Ordinal),
            ReportSuppressedDiagnostics = options.ReportSuppressedDiagnostics,
            ConcurrentBuild = options.ConcurrentBuild,
            Deterministic = options.Deterministic,
            MetadataImportOptions = options.MetadataImportOptions,
            NullableContextOptions = options.NullableContextOptions,
            KeyFileSearchPaths = searchPaths,
        };

        string directory = project.FilePath is { } path ? Path.GetDirectoryName(path)! : Path.GetTempPath();
        CSharpCompilationOptions expected = WithoutResolvers(options);
        foreach (bool debugPlus in new[] { false, true })
        {
            PersistedCompilationOptions candidate = persisted with { DebugPlusMode = debugPlus };
            if (WithoutResolvers(Rebuild(candidate, directory)).Equals(expected))
            {
                return candidate;
            }
        }

        return null;
    }

    /// <summary>The command line's options plus the behaviour overrides Roslyn's MSBuild loader adds.</summary>
    public static CSharpCompilationOptions Rebuild(PersistedCompilationOptions options, string projectDirectory)
    {
        CSharpCompilationOptions seed = options.DebugPlusMode ? DebugPlusSeed.Value : new CSharpCompilationOptions(options.OutputKind);
        return seed
            .WithOutputKind(options.OutputKind)
            .WithModuleName(options.ModuleName)
            .WithMainTypeName(options.MainTypeName)
            .WithScriptClassName(options.ScriptClassName ?? WellKnownMemberNames.DefaultScriptClassName)
            .WithUsings(options.Usings)
            .WithOptimizationLevel(options.OptimizationLevel)
            .WithOverflowChecks(options.CheckOverflow)
            .WithAllowUnsafe(options.AllowUnsafe)
            .WithCryptoKeyContainer(options.CryptoKeyContainer)
            .WithCryptoKeyFile(options.CryptoKeyFile)
            .WithCryptoPublicKey(options.CryptoPublicKey is null ? default : [.. Convert.FromBase64String(options.CryptoPublicKey)])
            .WithDelaySign(options.DelaySign)
            .WithPublicSign(options.PublicSign)
            .WithPlatform(options.Platform)
            .WithGeneralDiagnosticOption(options.GeneralDiagnosticOption)
            .WithWarningLevel(options.WarningLevel)
            .WithSpecificDiagnosticOptions(options.SpecificDiagnosticOptions)
            .WithReportSuppressedDiagnostics(options.ReportSuppressedDiagnostics)
            .WithConcurrentBuild(options.ConcurrentBuild)
            .WithDeterministic(options.Deterministic)
            .WithMetadataImportOptions(options.MetadataImportOptions)
            .WithNullableContextOptions(options.NullableContextOptions)
            .WithXmlReferenceResolver(new XmlFileResolver(projectDirectory))
            .WithSourceReferenceResolver(new SourceFileResolver([], projectDirectory))
            .WithMetadataReferenceResolver(null)
            .WithStrongNameProvider(new DesktopStrongNameProvider([.. options.KeyFileSearchPaths], Path.GetTempPath()))
            .WithAssemblyIdentityComparer(DesktopAssemblyIdentityComparer.Default);
    }

    private static CSharpCompilationOptions WithoutResolvers(CSharpCompilationOptions options) =>
        options.WithXmlReferenceResolver(null).WithSourceReferenceResolver(null).WithMetadataReferenceResolver(null).WithStrongNameProvider(null).WithSyntaxTreeOptionsProvider(null);
}
