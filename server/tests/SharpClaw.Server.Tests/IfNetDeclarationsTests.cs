using SharpClaw.Protocol.Store;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// fixtures/IfNetDeclarations: a netstandard2.0;net8.0;net10.0 library with a core interface in a file wholly under
/// #if NET, #if NET/#else members, an #elif chain and a #if DEBUG member. symbol_search parsed files without
/// preprocessor symbols and never saw what #if NET declares (rg did); it now also parses them under the symbols of the
/// workspace's newest (net10.0) and oldest (netstandard2.0) flavours, read from the project files, and says the
/// condition of each declaration under a branch. No load, no approval.
/// </summary>
public sealed class IfNetDeclarationsTests
{
    [Fact]
    public async Task SymbolSearch_FindsWhatIfNetAndItsElseDeclare_TaggedWithTheirConditions()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("IfNetDeclarations");
        using TempDirectory state = new();
        await using SemanticHost host = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = state.Path });

        async Task<List<string>> Find(string query) =>
            [.. (await host.SymbolSearchAsync(fixture.Root, query)).Items.Select(i => $"{i.Path}:{i.Line} {i.Kind} {i.Name}{(i.Condition is null ? string.Empty : $" [{i.Condition}]")}")];

        Assert.Equal(["Lib/ISpanFormatter.cs:5 interface ISpanFormatter [NET]"], await Find("ISpanFormatter"));
        Assert.Equal(["Lib/ISpanFormatter.cs:7 method ISpanFormatter.TryFormat(System.Span<char>, int) [NET]"], await Find("TryFormat"));
        Assert.Equal(["Lib/Buffers.cs:6 method Buffers.ModernCopy(System.ReadOnlySpan<byte>, System.Span<byte>) [NET]"], await Find("ModernCopy"));
        Assert.Equal(["Lib/Buffers.cs:12 method Buffers.LegacyCopy(byte[], byte[]) [!NET]"], await Find("LegacyCopy"));
        Assert.Equal(["Lib/Buffers.cs:22 method Buffers.OnlyOnNet10() [!(NET8_0_OR_GREATER && !NET10_0_OR_GREATER) && NET10_0_OR_GREATER]"], await Find("OnlyOnNet10"));
        Assert.Equal(["Lib/Buffers.cs:26 method Buffers.DebugOnlyCheck() [DEBUG]"], await Find("DebugOnlyCheck"));
        Assert.Equal(["Lib/Buffers.cs:31 method Buffers.Always()"], await Find("Always"));
        Assert.Equal(["Lib/Buffers.cs:3 class Buffers"], await Find("Buffers"));

        // Only the newest and the oldest flavour are parsed: a branch only net8.0 takes stays unseen (said in the docs).
        Assert.Empty(await Find("OnlyOnNet8"));

        // The frameworks come from the project files: retargeted to netstandard2.0;net472, no flavour defines NET, and the
        // store parses the files again under the new symbols.
        fixture.Edit("Lib/Lib.csproj", text => text.Replace("netstandard2.0;net8.0;net10.0", "netstandard2.0;net472", StringComparison.Ordinal));
        fixture.Write("Lib/Touch.cs", "namespace Lib;\n"); // The project files are re-read when the C# files change.
        SymbolSearchResult legacy = await host.SymbolSearchAsync(fixture.Root, "LegacyCopy");
        Assert.Equal("!NET", Assert.Single(legacy.Items).Condition);
        Assert.True(legacy.ReindexedFiles >= 3, $"{legacy.ReindexedFiles} files parsed again");
        Assert.Empty((await host.SymbolSearchAsync(fixture.Root, "ModernCopy")).Items); // neither net472 nor netstandard2.0 defines NET
    }
}
