using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Protocol.Store;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// A search whose index build would pass the time the caller must answer by (<c>answerBy</c>, an MCP call's load
/// wait; issue 39): it answers from the chunks committed so far and counts the files still pending, the build goes on
/// in the background without another call, and a later search sees every file without parsing any. Before, the
/// search waited for the whole build (and the MCP wait answered <c>error loading</c> instead).
/// </summary>
public sealed class PartialIndexAnswerTests
{
    /// <summary>The files the host parses and commits at a time (ChunkFiles).</summary>
    private const int ChunkFiles = 256;

    /// <summary>Three chunks and a part, beside the fixture's four files.</summary>
    private const int Files = (3 * ChunkFiles) + 100;

    [Fact]
    public async Task SearchPastItsAnswerTime_AnswersFromTheIndexedChunks_AndTheBuildFinishesInTheBackground()
    {
        using FixtureWorkspace fixture = WithManyFiles(i => $"public class Many{i:D4} {{ public string Tag() => \"tag{i:D4}\"; }}");
        using TempDirectory state = new();
        await using SemanticHost host = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = state.Path });
        long due = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds(); // Already due: the build stops after its first chunk.
        SymbolSearchResult first = await host.SymbolSearchAsync(fixture.Root, "Many", kind: "class", limit: 1, answerBy: due);
        Assert.Equal((ChunkFiles, ChunkFiles, Files + 4 - ChunkFiles), (first.IndexedFiles, first.ReindexedFiles, first.PendingFiles));
        Assert.InRange(first.Total, 1, ChunkFiles);

        // No other call: the background build parses the rest and logs it.
        Assert.True(
            await Poll.UntilAsync(() => host.Host.LogText.Contains($"{Files + 4 - ChunkFiles} of {Files + 4} C# files parsed", StringComparison.Ordinal), SemanticHost.Timeout),
            $"no background build in the log:\n{host.Host.LogText}");
        SymbolSearchResult later = await host.SymbolSearchAsync(fixture.Root, "Many", kind: "class", limit: 1, answerBy: DateTimeOffset.UtcNow.ToUnixTimeMilliseconds());
        Assert.Equal((Files + 4, 0, (int?)null, Files), (later.IndexedFiles, later.ReindexedFiles, later.PendingFiles, later.Total));
        WorkspaceSearchResult text = await host.WorkspaceSearchAsync(fixture.Root, "\"tag0", answerBy: DateTimeOffset.UtcNow.ToUnixTimeMilliseconds());
        Assert.Equal((Files, (int?)null), (text.Total, text.PendingFiles));
    }

    [Fact]
    public async Task WorkspaceSearchPastItsAnswerTime_SearchesOnlyTheCommittedFiles_AndSaysHowManyArePending()
    {
        using FixtureWorkspace fixture = WithManyFiles(i => $"public class Many{i:D4} {{ }}");
        using TempDirectory state = new();
        await using SemanticHost host = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = state.Path });
        WorkspaceSearchResult first = await host.WorkspaceSearchAsync(fixture.Root, "public class Many", answerBy: DateTimeOffset.UtcNow.ToUnixTimeMilliseconds());
        Assert.Equal((ChunkFiles, Files + 4 - ChunkFiles), (first.IndexedFiles, first.PendingFiles));
        Assert.InRange(first.Files, 1, ChunkFiles);

        // A due time of 0 or less is no time: a typed error naming what is valid.
        SemanticErrorData error = await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => host.SymbolSearchAsync(fixture.Root, "Many", answerBy: 0));
        Assert.Equal("'answerBy' is a time in Unix milliseconds, greater than 0: 0.", error.Message);
    }

    [Fact]
    public async Task ClearingTheStoreDuringTheBackgroundBuild_EndsIt_WithoutWritingANewStore()
    {
        using FixtureWorkspace fixture = WithManyFiles(i => $"public class Many{i:D4} {{ }}");
        using TempDirectory state = new();
        await using SemanticHost host = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = state.Path });
        Assert.NotNull((await host.SymbolSearchAsync(fixture.Root, "Many", answerBy: DateTimeOffset.UtcNow.ToUnixTimeMilliseconds())).PendingFiles);
        ClearStoreResult cleared = await host.Host.Client.InvokeWithParameterObjectAsync<ClearStoreResult>(ProtocolMethods.ClearStore, new ClearStoreParams { Workspace = fixture.Root });
        Assert.True(cleared.Deleted);

        // The build either ended before the clear, or meets the cleared store and ends: either way no store comes back.
        bool endedFirst = host.Host.LogText.Contains($"{Files + 4 - ChunkFiles} of {Files + 4} C# files parsed", StringComparison.Ordinal);
        Assert.True(endedFirst || await Poll.UntilAsync(() => host.Host.LogText.Contains("cleared; the background build ends", StringComparison.Ordinal), SemanticHost.Timeout), $"the background build went on:\n{host.Host.LogText}");
        Assert.False(File.Exists(cleared.Path), "the background build wrote a new store after the clear");
        SymbolSearchResult rebuilt = await host.SymbolSearchAsync(fixture.Root, "Many", kind: "class");
        Assert.Equal((Files + 4, Files + 4, Files), (rebuilt.IndexedFiles, rebuilt.ReindexedFiles, rebuilt.Total));
    }

    /// <summary>fixtures/SyntaxIndexWorkspace with <see cref="Files"/> more files, file i declaring <paramref name="declaration"/>(i) in namespace Many.</summary>
    private static FixtureWorkspace WithManyFiles(Func<int, string> declaration)
    {
        FixtureWorkspace fixture = FixtureWorkspace.Copy("SyntaxIndexWorkspace");
        for (int i = 0; i < Files; i++)
        {
            fixture.Write($"src/Many/Part{i / 100}/Many{i:D4}.cs", $"namespace Many;\n\n{declaration(i)}\n");
        }

        return fixture;
    }
}
