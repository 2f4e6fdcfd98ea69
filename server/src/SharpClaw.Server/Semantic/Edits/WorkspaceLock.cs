using System.Diagnostics;
using System.Text;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Hosting;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>
/// Serializes semantic writes to one workspace across processes: an exclusively opened lock file
/// <c>write.lock</c> in the workspace's private state folder (<see cref="StateFolder.ForWorkspace"/>, outside
/// the workspace, 0700 and this user's, so nobody else can plant a link there). The operating system releases the lock when its holder exits or crashes, so a leftover file from a
/// dead process is recovered by simply opening it again (the pid inside is only for messages).
/// </summary>
public sealed class WorkspaceLock : IDisposable
{
    private readonly FileStream stream;

    private WorkspaceLock(FileStream stream, string path)
    {
        this.stream = stream;
        this.Path = path;
    }

    public string Path { get; }

    public static string LockPathFor(string workspace) => System.IO.Path.Combine(StateFolder.ForWorkspace(workspace), "write.lock");

    /// <summary>Waits up to <paramref name="timeout"/> for the lock (typed error naming the holder otherwise).</summary>
    public static async Task<WorkspaceLock> AcquireAsync(string workspace, TimeSpan timeout, CancellationToken cancellationToken)
    {
        string path;
        try
        {
            path = LockPathFor(workspace);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw SemanticException.Edit(SemanticErrorKind.WriteFailed, $"SharpClaw's private state folder is unusable, so nothing was written: {ex.Message}", inner: ex);
        }

        Stopwatch waited = Stopwatch.StartNew();
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            try
            {
                RefuseLink(path);
                FileStream stream = new(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None, 4096, FileOptions.DeleteOnClose);
                // Who holds it, for the message of a waiting writer (the locked file itself cannot be read):
                // removed and created anew, so a link left in its place is never followed.
                string owner = path + ".owner";
                File.Delete(owner);
                using (FileStream ownerStream = new(owner, FileMode.CreateNew, FileAccess.Write))
                {
                    ownerStream.Write(Encoding.UTF8.GetBytes($"{Environment.ProcessId}\n{workspace}\n"));
                }

                return new WorkspaceLock(stream, path);
            }
            catch (IOException) when (waited.Elapsed < timeout)
            {
                await Task.Delay(50, cancellationToken).ConfigureAwait(false);
            }
            catch (IOException ex)
            {
                string holder;
                try
                {
                    holder = $"process {File.ReadLines(path + ".owner").First()}";
                }
                catch (Exception inner) when (inner is IOException or UnauthorizedAccessException or InvalidOperationException)
                {
                    holder = "another process";
                }

                throw SemanticException.Edit(
                    SemanticErrorKind.WriteFailed,
                    $"Another semantic write to this workspace is in progress ({holder} holds {path}); nothing was written. Try again when it finishes.",
                    inner: ex);
            }
        }
    }

    public void Dispose() => this.stream.Dispose();

    private static void RefuseLink(string path)
    {
        if (new FileInfo(path).LinkTarget is not null)
        {
            throw SemanticException.Edit(SemanticErrorKind.WriteFailed, $"{path} is a link; the workspace lock is never opened through one, so nothing was written.");
        }
    }
}
