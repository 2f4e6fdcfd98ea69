using System.Reflection;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.Diagnostics;
using SharpClaw.Server.Toolchain;

namespace SharpClaw.Server.Tests.Infrastructure;

/// <summary>
/// The host's own source (server/src/SharpClaw.Server) compiled in memory with Roslyn as its build compiles it: the
/// SDK's implicit usings, nullable on, the framework and package assemblies this test runs with, and the SDK's JSON and
/// regex source generators. <see cref="AssertCompiles"/> fails when a file does not compile, so that every name in
/// the source binds to the symbol the real build binds it to, and a test can ask which.
/// </summary>
internal static class HostCompilation
{
    /// <summary>Microsoft.NET.Sdk's implicit usings (ImplicitUsings=enable in server/Directory.Build.props).</summary>
    private const string ImplicitUsings =
        "global using System; global using System.Collections.Generic; global using System.IO; global using System.Linq; "
        + "global using System.Net.Http; global using System.Threading; global using System.Threading.Tasks;";

    /// <summary>The generators of the SDK's reference pack the host uses ([JsonSerializable], [GeneratedRegex]).</summary>
    private static readonly string[] Generators = ["System.Text.Json.SourceGeneration.dll", "System.Text.RegularExpressions.Generator.dll"];

    public static readonly CSharpParseOptions ParseOptions = new(LanguageVersion.Latest, DocumentationMode.Parse);

    /// <summary>The host's source files, each parsed with its path.</summary>
    public static IReadOnlyList<SyntaxTree> ParseSource(string sourceFolder) =>
        Directory.EnumerateFiles(sourceFolder, "*.cs", SearchOption.AllDirectories)
            .Where(path => !IsBuildOutput(sourceFolder, path))
            .Order(StringComparer.Ordinal)
            .Select(path => CSharpSyntaxTree.ParseText(File.ReadAllText(path), ParseOptions, path))
            .ToList();

    /// <summary>
    /// Compiles <paramref name="source"/> (the host's trees) and runs the source generators. Whether it compiles is
    /// asked per tree (<see cref="AssertCompiles"/>), on the semantic model a test binds the tree's names with anyway.
    /// </summary>
    public static Compilation Create(IEnumerable<SyntaxTree> source)
    {
        CSharpCompilation compilation = CSharpCompilation.Create(
            "SharpClaw.Server",
            [.. source, CSharpSyntaxTree.ParseText(ImplicitUsings, ParseOptions, "ImplicitUsings.g.cs")],
            References(),
            new CSharpCompilationOptions(OutputKind.ConsoleApplication, nullableContextOptions: NullableContextOptions.Enable));
        CSharpGeneratorDriver.Create(SourceGenerators(), parseOptions: ParseOptions)
            .RunGeneratorsAndUpdateCompilation(compilation, out Compilation generated, out _);
        return generated;
    }

    /// <summary>Fails the test with the first errors of <paramref name="model"/>'s tree: a name that does not bind cannot be checked.</summary>
    public static void AssertCompiles(SemanticModel model)
    {
        List<Diagnostic> errors = model.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error).ToList();
        Assert.True(errors.Count == 0, $"The host's source does not compile in memory ({errors.Count} errors in {model.SyntaxTree.FilePath}), so its names cannot be checked:\n{string.Join('\n', errors.Take(10))}");
    }

    private static bool IsBuildOutput(string sourceFolder, string path)
    {
        string first = Path.GetRelativePath(sourceFolder, path).Split(Path.DirectorySeparatorChar)[0];
        return first is "obj" or "bin";
    }

    /// <summary>The running framework's assemblies, then every other assembly beside this test (the host's packages), never the host's own build.</summary>
    private static List<MetadataReference> References()
    {
        Dictionary<string, string> byName = new(StringComparer.OrdinalIgnoreCase);
        foreach (string path in ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!).Split(Path.PathSeparator))
        {
            byName.TryAdd(Path.GetFileNameWithoutExtension(path), path);
        }

        foreach (string path in Directory.EnumerateFiles(AppContext.BaseDirectory, "*.dll"))
        {
            string name = Path.GetFileNameWithoutExtension(path);
            if (!name.StartsWith("SharpClaw.Server", StringComparison.Ordinal))
            {
                byName.TryAdd(name, path);
            }
        }

        return byName.Values.Select(path => (MetadataReference)MetadataReference.CreateFromFile(path)).ToList();
    }

    /// <summary>The generators from packs/Microsoft.NETCore.App.Ref/&lt;newest version of this runtime's major&gt;/analyzers/dotnet/cs.</summary>
    private static IEnumerable<ISourceGenerator> SourceGenerators()
    {
        string? dotnetRoot = SdkInventory.FindDotnetRoot();
        string packs = Path.Combine(dotnetRoot ?? string.Empty, "packs", "Microsoft.NETCore.App.Ref");
        string? folder = Directory.Exists(packs)
            ? Directory.EnumerateDirectories(packs)
                .Select(path => (Path: path, Version: Version.TryParse(Path.GetFileName(path).Split('-')[0], out Version? version) ? version : null))
                .Where(v => v.Version?.Major == Environment.Version.Major)
                .OrderByDescending(v => v.Version)
                .Select(v => Path.Combine(v.Path, "analyzers", "dotnet", "cs"))
                .FirstOrDefault(Directory.Exists)
            : null;
        Assert.True(folder is not null, $"No reference pack of .NET {Environment.Version.Major} under {packs}: the host's source generators are needed to compile it.");
        AnalyzerAssemblyLoader loader = new();
        return Generators.SelectMany(file => new AnalyzerFileReference(Path.Combine(folder!, file), loader).GetGenerators(LanguageNames.CSharp));
    }

    private sealed class AnalyzerAssemblyLoader : IAnalyzerAssemblyLoader
    {
        public void AddDependencyLocation(string fullPath)
        {
        }

        public Assembly LoadFromPath(string fullPath) => Assembly.LoadFrom(fullPath);
    }
}
