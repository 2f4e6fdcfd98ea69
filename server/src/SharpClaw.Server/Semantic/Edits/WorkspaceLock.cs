using System.Diagnostics;
using System.Security.Cryptography;
using System.Text;
using SharpClaw.Protocol.Semantic;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>
/// Serializes semantic writes to one workspace across processes: an exclusively opened lock file in
/// <c>&lt;temp&gt;/sharpclaw-locks/</c> (outside the workspace) named after a hash of the canonical workspace
/// path. The operating system releases the lock when its holder exits or crashes, so a leftover file from a
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

    public static string LockPathFor(string workspace)
    {
        string canonical = PathUtil.ResolveLinks(workspace);
        string key = Convert.ToHexString(SHA256.HashData(Encoding.UTF8.GetBytes(OperatingSystem.IsLinux() ? canonical : canonical.ToUpperInvariant())))[..24];
        return System.IO.Path.Combine(System.IO.Path.GetTempPath(), "sharpclaw-locks", $"write-{key}.lock");
    }

    /// <summary>Waits up to <paramref name="timeout"/> for the lock (typed error naming the holder otherwise).</summary>
    public static async Task<WorkspaceLock> AcquireAsync(string workspace, TimeSpan timeout, CancellationToken cancellationToken)
    {
        string path = LockPathFor(workspace);
        Directory.CreateDirectory(System.IO.Path.GetDirectoryName(path)!);
        Stopwatch waited = Stopwatch.StartNew();
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            try
            {
                FileStream stream = new(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None, 4096, FileOptions.DeleteOnClose);
                // Who holds it, for the message of a waiting writer (the locked file itself cannot be read).
                File.WriteAllText(path + ".owner", $"{Environment.ProcessId}\n{workspace}\n");
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
}
