using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// fixtures/GeneratorDeclaredTypes: the project generator Providers.Gen declares Providers.IProvider&lt;T&gt; and
/// [Container] itself (post-initialization output, as Jab declares Jab.IServiceProvider&lt;T&gt;); App implements
/// IProvider&lt;T&gt; by hand (Numbers, Words), names it in a typeof and marks Box [Container]. SharpClaw never runs the generator, so in App
/// those names bind to nothing: implementations of IProvider&lt;T&gt; were "no symbol" (by position in a base list),
/// "No symbol named" (by name) and, for the hand-written Contracts.IProvider&lt;T&gt; of the same name, a confident list
/// of one. Each answer now names the generator that may declare the type and where its uses bind to nothing.
/// Contracts also declares a ContainerAttribute by hand, whose lists count App's [Container].
/// </summary>
public sealed class GeneratorDeclaredTypesTests(LoadedFixture.GeneratorDeclaredTypes fx) : IClassFixture<LoadedFixture.GeneratorDeclaredTypes>
{
    private const string Explained = "No compiled code declares {0}: Providers.Gen (project generator, not run) may declare it: {1} in App/App.csproj name it and bind to nothing, so what implements or uses it there cannot be listed.";

    [Fact]
    public async Task Implementation_ByName_OfATypeOnlyTheGeneratorDeclares_NamesTheGenerator()
    {
        Assert.Contains(" 0 Error(s)", fx.BuildOutput, StringComparison.Ordinal);
        SemanticErrorData error = await SemanticErrors.ExpectAsync(SemanticErrorKind.SymbolNotFound, () => Navigate(new NavigateParams { Action = "implementation", Name = "Providers.IProvider<T>" }));
        Assert.StartsWith(string.Format(Explained, "Providers.IProvider<T>", "3 uses (base types, attributes, typeof)"), error.Message, StringComparison.Ordinal);
        Assert.Contains("IProvider<T>", error.Symbols!.Select(s => s.Name)); // the candidates stay (Contracts.IProvider<T>)
    }

    [Fact]
    public async Task Implementation_AtAnUnresolvedBaseType_OrAttribute_NamesTheGenerator()
    {
        (int line, int character) = Position(fx.Workspace.Read("App/Numbers.cs"), ": IProvider<int>", "IProvider");
        SemanticErrorData baseType = await SemanticErrors.ExpectAsync(SemanticErrorKind.SymbolNotFound, () => Navigate(new NavigateParams { Action = "implementation", Path = "App/Numbers.cs", Line = line, Character = character + 1 }));
        Assert.StartsWith(string.Format(Explained, "IProvider<int>", "3 uses (base types, attributes, typeof)"), baseType.Message, StringComparison.Ordinal);

        (line, character) = Position(fx.Workspace.Read("App/Words.cs"), "Providers.IProvider<string>", "IProvider");
        SemanticErrorData qualified = await SemanticErrors.ExpectAsync(SemanticErrorKind.SymbolNotFound, () => Navigate(new NavigateParams { Action = "references", Path = "App/Words.cs", Line = line, Character = character }));
        Assert.StartsWith(string.Format(Explained, "Providers.IProvider<string>", "3 uses (base types, attributes, typeof)"), qualified.Message, StringComparison.Ordinal);

        (line, character) = Position(fx.Workspace.Read("App/Box.cs"), "[Container]", "Container");
        SemanticErrorData attribute = await SemanticErrors.ExpectAsync(SemanticErrorKind.SymbolNotFound, () => Navigate(new NavigateParams { Action = "references", Path = "App/Box.cs", Line = line, Character = character }));
        Assert.StartsWith(string.Format(Explained, "Container", "1 use (base type, attribute or typeof)"), attribute.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ListsOfAHandWrittenTypeOfTheSameName_SayWhereTheGeneratorsVersionBindsToNothing()
    {
        // Contracts.IProvider<T> (no generator in reach) has one implementation; App's two implement the generator's own.
        NavigateResult implementations = await Navigate(new NavigateParams { Action = "implementation", Name = "Contracts.IProvider<T>" });
        Assert.Equal(1, implementations.Total);
        GeneratorGap gap = Assert.Single(implementations.GeneratorGaps!);
        Assert.Equal(("Providers.Gen", "project generator", "IProvider<T>", 3, 1), (gap.Generator, gap.Origin, gap.Declares, gap.UnresolvedUses, gap.ProjectCount));
        Assert.Equal(["App/App.csproj"], gap.Projects);

        TypeHierarchyResult hierarchy = await fx.Invoke<TypeHierarchyResult>(ProtocolMethods.TypeHierarchy, new TypeHierarchyParams { Workspace = fx.Workspace.Root, Name = "Contracts.IProvider<T>", Tool = "test-tool" });
        Assert.Equal("IProvider<T>", Assert.Single(hierarchy.GeneratorGaps!).Declares);

        FindReferencesResult references = await fx.Host.FindReferencesAsync(fx.Workspace.Root, new FindReferencesParams { Name = "Contracts.IProvider<T>.Get" });
        Assert.Equal("IProvider<T>", Assert.Single(references.GeneratorGaps!).Declares);

        // A name that binds in App is no generator's: Numbers has no such caveat.
        Assert.Null((await Navigate(new NavigateParams { Action = "references", Name = "App.Numbers" })).GeneratorGaps?.Where(g => g.Declares is not null).FirstOrDefault());
    }

    [Fact]
    public async Task ListsOfAHandWrittenAttribute_CountTheUsesWrittenWithoutItsSuffix()
    {
        // Box's [Container] names ContainerAttribute (the generator's, which binds to nothing in App): the scan for the
        // asked name alone must still see an attribute written without "Attribute".
        NavigateResult references = await Navigate(new NavigateParams { Action = "references", Name = "Contracts.ContainerAttribute" });
        Assert.Equal(0, references.Total);
        GeneratorGap gap = Assert.Single(references.GeneratorGaps!, g => g.Declares is not null);
        Assert.Equal(("Providers.Gen", "ContainerAttribute", 1), (gap.Generator, gap.Declares, gap.UnresolvedUses));
        Assert.Equal(["App/App.csproj"], gap.Projects);
    }

    private Task<NavigateResult> Navigate(NavigateParams parameters) => fx.Host.NavigateAsync(fx.Workspace.Root, parameters);

    /// <summary>The 1-based line and character of <paramref name="word"/> inside the first <paramref name="context"/> of a text.</summary>
    private static (int Line, int Character) Position(string text, string context, string word)
    {
        int offset = text.IndexOf(context, StringComparison.Ordinal) + context.IndexOf(word, StringComparison.Ordinal);
        int lineStart = text.LastIndexOf('\n', offset - 1) + 1;
        return (text[..offset].Count(c => c == '\n') + 1, offset - lineStart + 1);
    }
}
