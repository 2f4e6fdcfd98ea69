using System.Diagnostics;
using System.Text;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Protocol.Store;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// Workspace files a repository can hold to attack the searches that need no approval (issue 36): a FIFO
/// named like a source file or a .gitignore (opening one blocks until a writer comes), a .gitignore of a
/// megabyte of patterns, a source of 5,000 nested classes (it crashed the host's syntax index). Each search
/// answers, from what could be read, and the host keeps serving.
/// </summary>
public sealed class HostileWorkspaceFilesTests
{
    private static readonly TimeSpan Answered = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task AFifoNamedLikeASourceAProjectOrAGitIgnore_IsNeverOpened_AndTheSearchesAnswer()
    {
        if (OperatingSystem.IsWindows())
        {
            return; // No FIFOs in the file system.
        }

        using FixtureWorkspace fixture = FixtureWorkspace.Copy("SyntaxIndexWorkspace");
        MakeFifo(Path.Combine(fixture.Root, "src", "Evil.cs"));
        MakeFifo(Path.Combine(fixture.Root, "src", "Evil.csproj"));
        Directory.CreateDirectory(Path.Combine(fixture.Root, "fifo"));
        MakeFifo(Path.Combine(fixture.Root, "fifo", ".gitignore"));
        fixture.Write("fifo/Beside.cs", "public class BesideTheFifo { }\n");
        using TempDirectory state = new();
        await using SemanticHost host = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = state.Path });

        for (int call = 0; call < 2; call++)
        {
            SymbolSearchResult found = await Poll.WithTimeout(host.SymbolSearchAsync(fixture.Root, "Calculator"), Answered, "symbol search beside a FIFO");
            Assert.Contains(found.Items, i => i.Name == "Calculator");
            Assert.Contains((await Poll.WithTimeout(host.SymbolSearchAsync(fixture.Root, "BesideTheFifo"), Answered, "below a FIFO .gitignore")).Items, i => i.Path == "fifo/Beside.cs");
            WorkspaceSearchResult text = await Poll.WithTimeout(host.WorkspaceSearchAsync(fixture.Root, "class"), Answered, "workspace search beside a FIFO");
            Assert.DoesNotContain(text.Matches, m => m.Path == "src/Evil.cs");
        }
    }

    [Fact]
    public async Task AGitIgnoreOverItsBound_IsATypedErrorNamingIt_ABacktrackingPatternStillAnswers_AndFixingItAnswersAgain()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("SyntaxIndexWorkspace");
        StringBuilder patterns = new();
        for (int i = 0; patterns.Length < 1_200_000; i++)
        {
            patterns.Append("**/").Append('a', 3).Append("*b*c*").Append(i).Append("*/**/*d?e[0-9]*\n");
        }

        fixture.Write("src/.gitignore", patterns.ToString());
        using TempDirectory state = new();
        await using SemanticHost host = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = state.Path });

        SemanticErrorData error = await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => Poll.WithTimeout(host.SymbolSearchAsync(fixture.Root, "Calculator"), Answered, "search"));
        Assert.Contains("src/.gitignore is larger than 1 MiB", error.Message, StringComparison.Ordinal);

        // Under the byte bound but over the pattern bound: named with the line where it was passed.
        fixture.Write("src/.gitignore", string.Join('\n', Enumerable.Range(0, 5_001).Select(i => $"*x{i}*")));
        error = await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => Poll.WithTimeout(host.SymbolSearchAsync(fixture.Root, "Calculator"), Answered, "search"));
        Assert.Contains("src/.gitignore has more than 5000 patterns (line 5001: '*x5000*')", error.Message, StringComparison.Ordinal);

        // Within both bounds, a pattern whose backtracking match runs past the time bound on a long name: that
        // rule moves to the linear-time engine and the search answers as git would, never an error (the bound is
        // wall-clock, so a trivial pattern on a starved machine would pass it too).
        string longName = new('a', 200);
        fixture.Write($"src/{longName}.cs", "class LongName { }\n");
        fixture.Write($"src/{longName}b.cs", "class LongNameIgnored { }\n");
        fixture.Write("src/.gitignore", "# comment\n" + string.Concat(Enumerable.Repeat("*a", 14)) + "*b.cs\n");
        Assert.Contains((await Poll.WithTimeout(host.SymbolSearchAsync(fixture.Root, "LongName"), Answered, "search past a backtracking pattern")).Items, i => i.Path == $"src/{longName}.cs");
        Assert.Empty((await host.SymbolSearchAsync(fixture.Root, "LongNameIgnored")).Items);

        // The longest pattern SharpClaw reads (4,096 characters) backtracking on both names: the linear engine still answers.
        string longest = string.Concat(Enumerable.Repeat("*a", 2045)) + "*b.cs";
        Assert.True(longest.Length <= 4096, $"{longest.Length}");
        fixture.Write("src/.gitignore", longest + "\n");
        Assert.Contains((await Poll.WithTimeout(host.SymbolSearchAsync(fixture.Root, "LongName"), Answered, "search past the longest backtracking pattern")).Items, i => i.Path == $"src/{longName}.cs");
        Assert.Contains((await host.SymbolSearchAsync(fixture.Root, "LongNameIgnored")).Items, i => i.Path == $"src/{longName}b.cs"); // 200 a's: fewer than the pattern's 2,045.

        fixture.Write("src/.gitignore", "Generated/*\n!Generated/Kept.cs\n");
        Assert.Contains((await host.SymbolSearchAsync(fixture.Root, "Calculator")).Items, i => i.Name == "Calculator");
    }

    [Fact]
    public async Task ASourceOf5000NestedClasses_IsIndexed_WithoutOverflowingTheStack()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("SyntaxIndexWorkspace");
        const int depth = 5000;
        StringBuilder source = new("namespace Deep;\n");
        for (int i = 0; i < depth; i++)
        {
            source.Append("public class C").Append(i).Append(" {\n");
        }

        source.Append("public void Innermost() { }\n").Append('}', depth).Append('\n');
        fixture.Write("src/Deep.cs", source.ToString());
        using TempDirectory state = new();
        await using SemanticHost host = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = state.Path });

        SymbolSearchResult outer = await Poll.WithTimeout(host.SymbolSearchAsync(fixture.Root, "C1"), Answered, "search a deep file");
        Assert.Contains(outer.Items, i => i.Path == "src/Deep.cs" && i.Name == "C0.C1");
        Assert.Contains((await host.SymbolSearchAsync(fixture.Root, "Calculator")).Items, i => i.Name == "Calculator");
    }

    /// <summary>
    /// A source replaced by a FIFO after the solution loaded: the edit paths read through BoundedFileRead,
    /// but the refresh of changed documents (and Roslyn's own text loader) opened the FIFO and blocked the
    /// host's call forever. rename_file is refused naming the file, and the host answers the next call.
    /// </summary>
    [Fact]
    public async Task ASourceReplacedByAFifoAfterTheLoad_IsRefusedNamingIt_AndTheHostKeepsAnswering()
    {
        if (OperatingSystem.IsWindows())
        {
            return; // No FIFOs in the file system.
        }

        using FixtureWorkspace fixture = FixtureWorkspace.Restored("RenameFileExcluded", "RenameFileExcluded.slnx");
        using TempDirectory state = new();
        await using SemanticHost host = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = state.Path });
        string fifo = Path.Combine(fixture.Root, "Lib", "Keep.cs");

        Task<EditResult> Rename(string path, string newName) => Poll.WithTimeout(
            host.Host.Client.InvokeWithParameterObjectAsync<EditResult>(
                ProtocolMethods.Edit,
                new EditParams { Workspace = fixture.Root, Tool = "test-tool", Action = "rename_file", Path = path, NewName = newName }),
            Answered,
            $"rename_file {path}");

        try
        {
            Assert.Equal(EditResultKind.Preview, (await Rename("Lib/Keep.cs", "Lib/Kept.cs")).Kind);
            File.Delete(fifo);
            MakeFifo(fifo);

            SemanticErrorData error = await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => Rename("Lib/Keep.cs", "Lib/Kept.cs"));
            Assert.Equal("Lib/Keep.cs is not a regular file (a FIFO, device or socket is never opened); nothing was changed.", error.Message);
            Assert.Equal(EditResultKind.Preview, (await Rename("Lib/Sub/Ok.cs", "Lib/Sub/Fine.cs")).Kind);
        }
        finally
        {
            ReleaseFifo(fifo);
        }
    }

    /// <summary>Opens a writer on the FIFO so a reader blocked on it (a regression) returns, and the host can stop.</summary>
    internal static void ReleaseFifo(string path)
    {
        Thread writer = new(() =>
        {
            try
            {
                using FileStream stream = new(path, FileMode.Open, FileAccess.Write);
            }
            catch (IOException)
            {
                // Gone already.
            }
        }) { IsBackground = true };
        writer.Start();
        writer.Join(TimeSpan.FromSeconds(2));
    }

    internal static void MakeFifo(string path)
    {
        using Process mkfifo = Process.Start(new ProcessStartInfo("mkfifo", [path]) { UseShellExecute = false })!;
        mkfifo.WaitForExit();
        Assert.Equal(0, mkfifo.ExitCode);
    }
}
