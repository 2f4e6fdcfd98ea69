using System.Diagnostics;
using System.Net;
using System.Text;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Edits;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>The host's private state folder (Infrastructure/StateFolder.cs) and the write lock inside it.</summary>
public sealed class StateFolderTests : IDisposable
{
    private readonly TempDirectory temp = new();

    public void Dispose() => this.temp.Dispose();

    [Fact]
    public void WorkspaceKey_MatchesTheClientsRule()
    {
        // The same vector as test/unit/stateFolder.test.ts: client and host name a workspace's folder alike.
        if (OperatingSystem.IsLinux())
        {
            Assert.Equal("94b75cc19ac86f7c", StateFolder.WorkspaceKey("/nonexistent/sharpclaw-key-vector"));
        }
    }

    [Fact]
    public void ForWorkspace_IsPrivate_AndNamesTheWorkspace()
    {
        string workspace = Directory.CreateDirectory(Path.Combine(this.temp.Path, "ws")).FullName;
        string root = StateFolder.Root(Path.Combine(this.temp.Path, "cache", "sharpclaw"));
        string dir = StateFolder.ForWorkspace(workspace, root);

        Assert.Equal(Path.Combine(root, "workspaces", StateFolder.WorkspaceKey(workspace)), dir);
        Assert.Equal(StateFolder.CanonicalWorkspace(workspace) + "\n", File.ReadAllText(Path.Combine(dir, "workspace.txt")));
        if (!OperatingSystem.IsWindows())
        {
            foreach (string folder in new[] { root, Path.Combine(root, "workspaces"), dir })
            {
                Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute, File.GetUnixFileMode(folder));
            }
        }
    }

    [Fact]
    public void ALinkedWorkspace_SharesItsTargetsFolder()
    {
        string workspace = Directory.CreateDirectory(Path.Combine(this.temp.Path, "real")).FullName;
        string link = Path.Combine(this.temp.Path, "link");
        Directory.CreateSymbolicLink(link, workspace);
        Assert.Equal(StateFolder.WorkspaceKey(workspace), StateFolder.WorkspaceKey(link));
    }

    [Fact]
    public void ARootThatIsALink_IsRefused_AndNothingIsWrittenThroughIt()
    {
        string elsewhere = Directory.CreateDirectory(Path.Combine(this.temp.Path, "elsewhere")).FullName;
        string root = Path.Combine(this.temp.Path, "planted");
        Directory.CreateSymbolicLink(root, elsewhere);

        Assert.Throws<StateFolderException>(() => StateFolder.ForWorkspace(this.temp.Path, StateFolder.Root(root)));
        Assert.Empty(Directory.EnumerateFileSystemEntries(elsewhere));
    }

    [Fact]
    public void ARootBelowAFolderEveryoneMayWrite_IsRefused()
    {
        if (OperatingSystem.IsWindows())
        {
            return;
        }

        string shared = Directory.CreateDirectory(Path.Combine(this.temp.Path, "shared")).FullName;
        File.SetUnixFileMode(shared, (UnixFileMode)0b111_111_111);
        StateFolderException refused = Assert.Throws<StateFolderException>(() => StateFolder.Root(Path.Combine(shared, "sharpclaw")));
        Assert.Contains("writable by other users", refused.Message, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine(shared, "sharpclaw")));
    }

    [Fact]
    public void TheWriteLock_LivesInTheWorkspacesStateFolder()
    {
        string workspace = Directory.CreateDirectory(Path.Combine(this.temp.Path, "ws")).FullName;
        string path = WorkspaceLock.LockPathFor(workspace);
        Assert.Equal(StateFolder.ForWorkspace(workspace), Path.GetDirectoryName(path));
        Assert.False(PathUtil.IsUnder(path, Path.GetTempPath()) && !PathUtil.IsUnder(StateFolder.RootPath(), Path.GetTempPath()));
    }

    [Fact]
    public async Task ALockHeldByAnotherLiveProcess_MakesTheWriteWait_UntilThatProcessIsGone()
    {
        // The verifier's side (src/engine/workspaceLock.ts) writes the same lines; a live process of
        // this host that is not us stands in for it, so the host must wait and then take over.
        if (OperatingSystem.IsWindows())
        {
            return;
        }

        string workspace = Directory.CreateDirectory(Path.Combine(this.temp.Path, "ws")).FullName;
        string path = WorkspaceLock.LockPathFor(workspace);
        using Process sleeper = Process.Start(new ProcessStartInfo("sleep", "1.5") { UseShellExecute = false })!;
        File.WriteAllText(path, $"pid {sleeper.Id}\nstart {WorkspaceLock.StartTicks(sleeper.Id)}\nhost {Dns.GetHostName()}\npurpose verify\n");

        SemanticException busy = await Assert.ThrowsAsync<SemanticException>(() => WorkspaceLock.AcquireAsync(workspace, TimeSpan.FromMilliseconds(200), CancellationToken.None));
        Assert.Contains($"a verification (process {sleeper.Id})", busy.Message, StringComparison.Ordinal);

        Stopwatch waited = Stopwatch.StartNew();
        using WorkspaceLock acquired = await WorkspaceLock.AcquireAsync(workspace, TimeSpan.FromSeconds(20), CancellationToken.None);
        Assert.True(sleeper.HasExited);
        Assert.StartsWith($"pid {Environment.ProcessId}\n", File.ReadAllText(path), StringComparison.Ordinal);
        Assert.True(waited.Elapsed > TimeSpan.FromMilliseconds(300), $"waited {waited.Elapsed}");
    }

    [Fact]
    public async Task APlantedLinkAsTheLockFile_IsRefused_WithATypedError()
    {
        string workspace = Directory.CreateDirectory(Path.Combine(this.temp.Path, "ws")).FullName;
        string victim = Path.Combine(this.temp.Path, "victim.txt");
        File.WriteAllText(victim, "precious");
        string path = WorkspaceLock.LockPathFor(workspace);
        File.Delete(path);
        File.CreateSymbolicLink(path, victim);
        try
        {
            SemanticException refused = await Assert.ThrowsAsync<SemanticException>(() => WorkspaceLock.AcquireAsync(workspace, TimeSpan.FromSeconds(1), CancellationToken.None));
            Assert.Equal(SemanticErrorKind.WriteFailed, refused.Kind);
            Assert.Equal("precious", File.ReadAllText(victim, Encoding.UTF8));
        }
        finally
        {
            File.Delete(path);
        }
    }
}
