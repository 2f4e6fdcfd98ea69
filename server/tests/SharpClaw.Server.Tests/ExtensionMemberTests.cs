using SharpClaw.Protocol.Semantic;
using SharpClaw.Protocol.Store;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// fixtures/ExtensionMembers: C# 14 extension blocks (instance, static, generic) beside a classic extension method.
/// Roslyn displays a block's member with the block as a segment (<c>TextExtensions.extension(string).Shout()</c>);
/// before, the resolver took that segment's parentheses for the parameter list, so no extension member resolved by
/// any name, and symbol_search listed them as <c>TextExtensions..Shout()</c>.
/// </summary>
[Collection(ExtensionMembersCollection.Name)]
public sealed class ExtensionMemberTests(LoadedFixture.ExtensionMembers fx)
{
    [Fact]
    public async Task ExtensionMembers_ResolveByEveryNameTheToolsShow_AndSymbolSearchNamesThemSo()
    {
        FixtureWorkspace fixture = fx.Workspace;
        SemanticHost host = fx.Host;

        // The syntax-only store: the block is a segment of the name, its members stay in the declaring class.
        SymbolSearchResult shout = await host.SymbolSearchAsync(fixture.Root, "Shout");
        Assert.Equal(
            ["TextExtensions.cs:11:23 method TextExtensions.extension(string).Shout()", "TextExtensions.cs:13:23 method TextExtensions.extension(string).Shout(int)"],
            shout.Items.Select(i => $"{i.Path}:{i.Line}:{i.Character} {i.Kind} {i.Name}"));
        Assert.Equal("Shapes.TextExtensions", shout.Items[0].Container);
        Assert.Equal(["TextExtensions.extension<T>(IEnumerable<T>).CountOf(T)"], (await host.SymbolSearchAsync(fixture.Root, "CountOf")).Items.Select(i => i.Name));
        Assert.Equal(
            ["type TextExtensions.extension(string)", "type TextExtensions.extension(string)", "type TextExtensions.extension<T>(IEnumerable<T>)"],
            (await host.SymbolSearchAsync(fixture.Root, "extension", kind: null)).Items.Where(i => i.Kind == "type").Select(i => $"{i.Kind} {i.Name}"));
        Assert.Equal(2, (await host.SymbolSearchAsync(fixture.Root, "Shout", container: "TextExtensions")).Items.Count);

        // Every name the tools show resolves to the member: the compiler's, symbol_search's, and the block left out.
        string[] usages = ["TextExtensions.cs:13:80", "Usages.cs:7:31", "Usages.cs:13:52"];
        foreach (string name in new[] { "Shapes.TextExtensions.extension(string).Shout()", shout.Items[0].Name, "TextExtensions.Shout()", "Shout()" })
        {
            NavigateResult references = await host.NavigateAsync(fixture.Root, new NavigateParams { Action = "references", Name = name });
            Assert.Equal("Shapes.TextExtensions.extension(string).Shout()", references.Symbol.Name);
            Assert.Equal(usages, references.Locations!.Select(l => $"{l.Path}:{l.Line}:{l.Character}"));
        }

        Assert.Equal(["Usages.cs:8:27"], (await host.NavigateAsync(fixture.Root, new NavigateParams { Action = "references", Name = "TextExtensions.IsBlank" })).Locations!.Select(l => $"{l.Path}:{l.Line}:{l.Character}"));
        Assert.Equal(["Usages.cs:10:23"], (await host.NavigateAsync(fixture.Root, new NavigateParams { Action = "references", Name = "Join3" })).Locations!.Select(l => $"{l.Path}:{l.Line}:{l.Character}"));
        foreach (string name in new[] { "CountOf", "TextExtensions.extension<T>(IEnumerable<T>).CountOf(T)", "Shapes.TextExtensions.extension<T>(System.Collections.Generic.IEnumerable<T>).CountOf(T)" })
        {
            Assert.Equal(["Usages.cs:9:39"], (await host.NavigateAsync(fixture.Root, new NavigateParams { Action = "references", Name = name })).Locations!.Select(l => $"{l.Path}:{l.Line}:{l.Character}"));
        }

        Assert.StartsWith("(property) public bool Shapes.TextExtensions.extension(string).IsBlank", (await host.NavigateAsync(fixture.Root, new NavigateParams { Action = "hover", Name = "IsBlank" })).Hover, StringComparison.Ordinal);
        Assert.Equal(3, (await host.NavigateAsync(fixture.Root, new NavigateParams { Action = "references", Name = "Shout", Container = "TextExtensions", Kind = "method", Line = 11 })).Total);

        // The class's members include its blocks' members, named so they resolve.
        NavigateResult members = await host.NavigateAsync(fixture.Root, new NavigateParams { Action = "members", Name = "Shapes.TextExtensions" });
        Assert.Equal(
            ["6:5 type extension(string)", "9:21 property extension(string).IsBlank", "11:23 method extension(string).Shout()", "13:23 method extension(string).Shout(int)",
                "16:5 type extension(string)", "18:30 method extension(string).Join3(string, string, string)",
                "21:5 type extension<T>(System.Collections.Generic.IEnumerable<T>)", "23:20 method extension<T>(System.Collections.Generic.IEnumerable<T>).CountOf(T)",
                "26:26 method Whisper(string)"],
            members.Members!.Select(m => $"{m.Line}:{m.Character} {m.Kind} {m.Name}"));
        Assert.Equal("Shapes.TextExtensions.extension(string).Join3(string, string, string)", (await host.NavigateAsync(fixture.Root, new NavigateParams { Action = "definition", Name = "TextExtensions." + members.Members![5].Name })).Symbol.Name);

        // A call of the implementation method by name (TextExtensions.Shout("direct")) runs the member: a caller.
        NavigateResult callers = await host.NavigateAsync(fixture.Root, new NavigateParams { Action = "callers", Name = "TextExtensions.Shout()" });
        Assert.Equal(
            ["Shapes.TextExtensions.extension(string).Shout(int)", "Shapes.Usages.Run()", "Shapes.Usages.Again()"],
            callers.Related!.Select(r => r.Name));

        // Several members: each candidate is the shortest name that resolves to it alone, and does so unchanged.
        SemanticErrorData ambiguous = await SemanticErrors.ExpectAsync(SemanticErrorKind.AmbiguousSymbol, () => host.NavigateAsync(fixture.Root, new NavigateParams { Action = "definition", Name = "Shout" }));
        Assert.Equal(["TextExtensions.Shout()", "TextExtensions.Shout(int)"], ambiguous.Candidates);
        foreach (string candidate in ambiguous.Candidates!)
        {
            Assert.StartsWith("Shapes.TextExtensions.extension(string).Shout(", (await host.NavigateAsync(fixture.Root, new NavigateParams { Action = "definition", Name = candidate })).Symbol.Name, StringComparison.Ordinal);
        }

        // A block named with another receiver is no container of the member; the blocks are the similar types.
        SemanticErrorData wrongReceiver = await SemanticErrors.ExpectAsync(SemanticErrorKind.SymbolNotFound, () => host.NavigateAsync(fixture.Root, new NavigateParams { Action = "definition", Name = "TextExtensions.extension(int).Shout()" }));
        Assert.Contains("No type matches the container 'TextExtensions.extension(int)'", wrongReceiver.Message, StringComparison.Ordinal);

        // A name nothing declares lists no block (Roslyn names blocks with an empty string, which every name contains).
        SemanticErrorData missing = await SemanticErrors.ExpectAsync(SemanticErrorKind.SymbolNotFound, () => host.NavigateAsync(fixture.Root, new NavigateParams { Action = "definition", Name = "Whisperr" }));
        Assert.Equal(["TextExtensions.Whisper(string)"], missing.Candidates);
    }

}
