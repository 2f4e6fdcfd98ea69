using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>
/// The one workspace lock, shared with the verifier (src/engine/workspaceLock.ts, which documents the
/// primitive; both sides must keep it identical): semantic writes and verifications of one workspace run
/// one after the other, across processes. The lock is <c>workspace.lock</c> in the workspace's private state
/// folder (<see cref="StateFolder.ForWorkspace(string)"/>), created exclusively (never through a link) with
/// "pid, start ticks, host, purpose" lines; it is stale once its holder process is gone (same host, no such
/// pid, or on Linux another start time) and then taken over under <c>workspace.lock.takeover</c>; a link in
/// its place is refused.
/// </summary>
public sealed class WorkspaceLock : IDisposable
{
    private static readonly TimeSpan UnreadableStale = TimeSpan.FromSeconds(5);
    private readonly Holder me;
    private bool disposed;

    private WorkspaceLock(string path, Holder me)
    {
        this.Path = path;
        this.me = me;
    }

    public string Path { get; }

    public static string LockPathFor(string workspace) => System.IO.Path.Combine(StateFolder.ForWorkspace(workspace), "workspace.lock");

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

        return await AcquireAtAsync(path, timeout, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>The same, on an explicit lock file path (tests).</summary>
    public static async Task<WorkspaceLock> AcquireAtAsync(string path, TimeSpan timeout, CancellationToken cancellationToken)
    {
        Stopwatch waited = Stopwatch.StartNew();
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            Holder? mine = TryCreate(path);
            if (mine is not null)
            {
                return new WorkspaceLock(path, mine);
            }

            Holder? holder = ReadHolder(path);
            if (IsStale(path, holder))
            {
                TakeOver(path, holder);
                continue;
            }

            if (waited.Elapsed >= timeout)
            {
                throw SemanticException.Edit(
                    SemanticErrorKind.WriteFailed,
                    $"The workspace lock is held by {Describe(holder)} ({path}) and was not free within {timeout.TotalSeconds:0} s; nothing was written. Try again when it finishes.");
            }

            await Task.Delay(50, cancellationToken).ConfigureAwait(false);
        }
    }

    public void Dispose()
    {
        if (this.disposed)
        {
            return;
        }

        this.disposed = true;
        if (ReadHolder(this.Path) is { } holder && holder.Same(this.me))
        {
            File.Delete(this.Path);
        }
    }

    internal static string Describe(Holder? holder)
    {
        if (holder is null)
        {
            return "another process";
        }

        string what = holder.Purpose switch
        {
            "write" => "a semantic write",
            "verify" => "a verification",
            _ => $"'{holder.Purpose}'",
        };
        return $"{what} (process {holder.Pid}{(holder.Host == Dns.GetHostName() ? string.Empty : $" on {holder.Host}")})";
    }

    private static Holder? TryCreate(string path)
    {
        Holder me = new(Environment.ProcessId, StartTicks(Environment.ProcessId), Dns.GetHostName(), "write");
        FileStreamOptions options = new() { Mode = FileMode.CreateNew, Access = FileAccess.Write, Share = FileShare.None };
        if (!OperatingSystem.IsWindows())
        {
            options.UnixCreateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite;
        }

        FileStream stream;
        try
        {
            stream = new FileStream(path, options);
        }
        catch (IOException) when (File.Exists(path) || new FileInfo(path).LinkTarget is not null)
        {
            if (new FileInfo(path).LinkTarget is not null)
            {
                throw SemanticException.Edit(SemanticErrorKind.WriteFailed, $"{path} is a link; SharpClaw never opens its workspace lock through one, so nothing was written. Remove it to go on.");
            }

            return null;
        }

        using (stream)
        {
            stream.Write(Encoding.UTF8.GetBytes(me.Format()));
        }

        return me;
    }

    private static Holder? ReadHolder(string path)
    {
        string text;
        try
        {
            if (new FileInfo(path).LinkTarget is not null)
            {
                return null;
            }

            text = File.ReadAllText(path);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }

        Dictionary<string, string> fields = [];
        foreach (string line in text.Split('\n'))
        {
            int space = line.IndexOf(' ', StringComparison.Ordinal);
            if (space > 0)
            {
                fields[line[..space]] = line[(space + 1)..];
            }
        }

        if (!fields.TryGetValue("pid", out string? pidText) || !int.TryParse(pidText, NumberStyles.None, CultureInfo.InvariantCulture, out int pid) || pid <= 0
            || !fields.TryGetValue("purpose", out string? purpose))
        {
            return null;
        }

        return new Holder(pid, fields.GetValueOrDefault("start", "-"), fields.GetValueOrDefault("host", string.Empty), purpose);
    }

    private static bool IsStale(string path, Holder? holder)
    {
        if (holder is null)
        {
            FileInfo info = new(path);
            return info.Exists && info.LinkTarget is null && DateTime.UtcNow - info.LastWriteTimeUtc > UnreadableStale;
        }

        if (holder.Host != Dns.GetHostName())
        {
            return false;
        }

        if (!IsAlive(holder.Pid))
        {
            return true;
        }

        string now = holder.Start == "-" ? "-" : StartTicks(holder.Pid);
        return now != "-" && now != holder.Start;
    }

    private static void TakeOver(string path, Holder? stale)
    {
        string guard = path + ".takeover";
        FileInfo guardInfo = new(guard);
        if (guardInfo.Exists && DateTime.UtcNow - guardInfo.LastWriteTimeUtc > UnreadableStale)
        {
            File.Delete(guard);
        }

        FileStream guardStream;
        try
        {
            guardStream = new FileStream(guard, FileMode.CreateNew, FileAccess.Write, FileShare.None);
        }
        catch (IOException)
        {
            return; // Another waiter is taking it over; try again.
        }

        using (guardStream)
        {
            Holder? now = ReadHolder(path);
            bool unchanged = stale is null ? now is null : now is not null && now.Same(stale);
            if (unchanged && IsStale(path, now))
            {
                File.Delete(path);
            }
        }

        File.Delete(guard);
    }

    private static bool IsAlive(int pid)
    {
        try
        {
            using Process process = Process.GetProcessById(pid);
            return !process.HasExited;
        }
        catch (Exception ex) when (ex is ArgumentException or InvalidOperationException)
        {
            return false;
        }
    }

    /// <summary>Field 22 of /proc/&lt;pid&gt;/stat (Linux), "-" elsewhere or when unreadable.</summary>
    public static string StartTicks(int pid)
    {
        if (!OperatingSystem.IsLinux())
        {
            return "-";
        }

        try
        {
            string stat = File.ReadAllText($"/proc/{pid}/stat");
            string[] fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            return fields.Length > 19 ? fields[19] : "-";
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return "-";
        }
    }

    internal sealed record Holder(int Pid, string Start, string Host, string Purpose)
    {
        public string Format() => $"pid {this.Pid}\nstart {this.Start}\nhost {this.Host}\npurpose {this.Purpose}\n";

        public bool Same(Holder other) => this.Pid == other.Pid && this.Start == other.Start && this.Host == other.Host;
    }
}
