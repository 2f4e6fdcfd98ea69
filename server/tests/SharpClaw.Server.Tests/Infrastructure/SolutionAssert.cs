using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace SharpClaw.Server.Tests.Infrastructure;

/// <summary>
/// Asserts that two loads of one project are the same to every consumer: options, documents, references,
/// analyzers, generator output and compiler diagnostics ("cold" is the reference load, "warm" the one tested).
/// </summary>
internal static class SolutionAssert
{
    public static async Task SameProjectAsync(Project cold, Project warm)
    {
        string name = cold.Name;
        Assert.Equal(cold.AssemblyName, warm.AssemblyName);
        Assert.Equal(cold.FilePath, warm.FilePath);
        Assert.Equal(cold.OutputFilePath, warm.OutputFilePath);
        Assert.Equal(cold.OutputRefFilePath, warm.OutputRefFilePath);
        Assert.Equal(cold.CompilationOutputInfo, warm.CompilationOutputInfo);
        Assert.Equal(cold.DefaultNamespace, warm.DefaultNamespace);
        Assert.True(cold.ParseOptions!.Equals(warm.ParseOptions), $"{name}: parse options differ");
        CSharpCompilationOptions coldOptions = (CSharpCompilationOptions)cold.CompilationOptions!;
        CSharpCompilationOptions warmOptions = (CSharpCompilationOptions)warm.CompilationOptions!;
        Assert.True(WithoutResolvers(coldOptions).Equals(WithoutResolvers(warmOptions)), $"{name}: compilation options differ: {Differences(WithoutResolvers(coldOptions), WithoutResolvers(warmOptions))}");
        Assert.Equal(coldOptions.XmlReferenceResolver, warmOptions.XmlReferenceResolver);
        Assert.Equal(coldOptions.SourceReferenceResolver, warmOptions.SourceReferenceResolver);
        Assert.Equal(coldOptions.StrongNameProvider, warmOptions.StrongNameProvider);
        Assert.Equal(Documents(cold.Documents), Documents(warm.Documents));
        Assert.Equal(Documents(cold.AdditionalDocuments), Documents(warm.AdditionalDocuments));
        Assert.Equal(Documents(cold.AnalyzerConfigDocuments), Documents(warm.AnalyzerConfigDocuments));
        Assert.Equal(
            cold.MetadataReferences.OfType<PortableExecutableReference>().Select(r => (r.FilePath, r.Properties)),
            warm.MetadataReferences.OfType<PortableExecutableReference>().Select(r => (r.FilePath, r.Properties)));
        Assert.Equal(cold.MetadataReferences.Count, warm.MetadataReferences.Count);
        // Roslyn keeps a project's references in a hash set: their order means nothing.
        Assert.Equal(
            cold.ProjectReferences.Select(r => (cold.Solution.GetProject(r.ProjectId)!.Name, string.Join(",", r.Aliases), r.EmbedInteropTypes)).Order(),
            warm.ProjectReferences.Select(r => (warm.Solution.GetProject(r.ProjectId)!.Name, string.Join(",", r.Aliases), r.EmbedInteropTypes)).Order());
        Assert.Equal(cold.AnalyzerReferences.Select(a => a.FullPath), warm.AnalyzerReferences.Select(a => a.FullPath));

        List<(string, string)> coldGenerated = [];
        foreach (SourceGeneratedDocument document in await cold.GetSourceGeneratedDocumentsAsync())
        {
            coldGenerated.Add((document.HintName, (await document.GetTextAsync()).ToString()));
        }

        List<(string, string)> warmGenerated = [];
        foreach (SourceGeneratedDocument document in await warm.GetSourceGeneratedDocumentsAsync())
        {
            warmGenerated.Add((document.HintName, (await document.GetTextAsync()).ToString()));
        }

        // GetSourceGeneratedDocumentsAsync's order varies from run to run even on one load: compare by hint name.
        Assert.Equal(coldGenerated.Order(), warmGenerated.Order());
        Compilation coldCompilation = (await cold.GetCompilationAsync())!;
        Compilation warmCompilation = (await warm.GetCompilationAsync())!;
        Assert.Equal(Diagnostics(coldCompilation), Diagnostics(warmCompilation));
        Assert.Equal(coldCompilation.AssemblyName, warmCompilation.AssemblyName);
    }

    /// <summary>Which properties differ (public and internal: CompilationOptions.Equals compares both), for the failure message.</summary>
    private static string Differences(CompilationOptions cold, CompilationOptions warm) =>
        string.Join("; ", cold.GetType()
            .GetProperties(System.Reflection.BindingFlags.Instance | System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.NonPublic)
            .Where(p => p.GetIndexParameters().Length == 0)
            .Select(p => (p.Name, Cold: Read(p, cold), Warm: Read(p, warm)))
            .Where(p => p.Cold != p.Warm)
            .Select(p => $"{p.Name}: {p.Cold} vs {p.Warm}"));

    private static string Read(System.Reflection.PropertyInfo property, object target)
    {
        try
        {
            return Describe(property.GetValue(target));
        }
        catch (System.Reflection.TargetInvocationException)
        {
            return "(throws)";
        }
    }

    private static string Describe(object? value) =>
        value is System.Collections.IEnumerable sequence and not string ? string.Join(",", sequence.Cast<object?>().Select(v => v?.ToString())) : value?.ToString() ?? "null";

    private static CSharpCompilationOptions WithoutResolvers(CSharpCompilationOptions options) =>
        options.WithXmlReferenceResolver(null).WithSourceReferenceResolver(null).WithMetadataReferenceResolver(null).WithStrongNameProvider(null).WithSyntaxTreeOptionsProvider(null);

    private static List<string> Documents(IEnumerable<TextDocument> documents) =>
        [.. documents.Select(d => $"{d.FilePath}|{d.Name}|{string.Join("/", d.Folders)}")];

    private static List<string> Diagnostics(Compilation compilation) =>
        [.. compilation.GetDiagnostics().Select(d => $"{d.Id} {d.Severity} {d.Location.GetLineSpan()} {d.GetMessage(System.Globalization.CultureInfo.InvariantCulture)}").Order(StringComparer.Ordinal)];
}
