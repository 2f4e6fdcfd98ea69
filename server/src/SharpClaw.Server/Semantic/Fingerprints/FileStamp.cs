using System.Security.Cryptography;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Fingerprints;

/// <summary>
/// Size + last-write time + (Unix) inode change time (+ SHA-256 of the content when asked for) of a
/// file, or its absence. The change time catches an edit whose size and restored write time look
/// the same (touch -d, or tar/rsync): no unprivileged process can set it back, so a file whose size
/// and both times match is unchanged, and any other file is compared by content.
/// A stamp whose file was written shortly before it was taken is "racy": on coarse-timestamp file
/// systems a second edit in the same tick could keep size and time, so racy stamps are re-verified
/// by content on every check. A stamp is taken and checked with one stat(2) per file on Unix
/// (<see cref="UnixFileStatus.TryStat"/>), since a warm request's freshness check stats every build
/// input and document of its context.
/// </summary>
public readonly record struct FileStamp(bool Exists, long Length, long LastWriteTicks, byte[]? Hash, bool Racy, long ChangeTicks = 0)
{
    private static readonly long RacyWindowTicks = TimeSpan.FromSeconds(2).Ticks;

    public static FileStamp Missing => new(false, 0, 0, null, false);

    /// <param name="path">The file.</param>
    /// <param name="withHash">Hash the content (structural files: touch without change is no change).</param>
    /// <param name="notAfterUtc">Files written at or after this moment get no hash and are racy (they may have
    /// changed after the load read them), so the next check reports them changed.</param>
    public static FileStamp Take(string path, bool withHash, DateTime? notAfterUtc = null)
    {
        UnixFileStatus.Snapshot file = Probe(path);
        if (!file.Exists)
        {
            return Missing;
        }

        long now = DateTime.UtcNow.Ticks;
        bool suspect = notAfterUtc is { } limit && file.LastWriteTicks >= limit.Ticks;
        bool racy = suspect || now - file.LastWriteTicks < RacyWindowTicks;
        byte[]? hash = withHash && !suspect ? HashFile(path) : null;
        return new FileStamp(true, file.Length, file.LastWriteTicks, hash, racy, file.ChangeTicks);
    }

    /// <summary>True when the file still looks the same (content compared when needed and possible).</summary>
    public bool IsUnchanged(string path, out FileStamp current) => this.IsUnchanged(path, Probe(path), out current);

    /// <summary><see cref="IsUnchanged(string, out FileStamp)"/> with the file's stat already taken (a folder counts as missing).</summary>
    internal bool IsUnchanged(string path, UnixFileStatus.Snapshot statted, out FileStamp current)
    {
        current = this;
        UnixFileStatus.Snapshot file = statted.IsDirectory ? UnixFileStatus.Snapshot.Missing : statted;
        if (file.Exists != this.Exists)
        {
            current = file.Exists ? Take(path, this.Hash is not null) : Missing;
            return false;
        }

        if (!file.Exists
            || (!this.Racy && file.Length == this.Length && file.LastWriteTicks == this.LastWriteTicks && file.ChangeTicks == this.ChangeTicks))
        {
            return true;
        }

        // Size/time differ, or the stamp was racy: decide by content where a hash exists.
        current = Take(path, withHash: true);
        return this.Hash is not null && current.Hash is not null && this.Hash.AsSpan().SequenceEqual(current.Hash);
    }

    /// <summary>
    /// Existence (a file, not a folder), size, write time and (Unix) change time: one stat(2) on Unix, FileInfo
    /// elsewhere (change time 0). Unreadable counts as missing, so that becoming readable counts as a change.
    /// </summary>
    private static UnixFileStatus.Snapshot Probe(string path)
    {
        if (UnixFileStatus.TryStat(path, out UnixFileStatus.Snapshot snapshot))
        {
            return snapshot.IsDirectory ? UnixFileStatus.Snapshot.Missing : snapshot;
        }

        try
        {
            FileInfo info = new(path);
            return info.Exists
                ? new UnixFileStatus.Snapshot(true, false, info.Length, info.LastWriteTimeUtc.Ticks, UnixFileStatus.Read(path, info)?.ChangeTicks ?? 0)
                : UnixFileStatus.Snapshot.Missing;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException)
        {
            return UnixFileStatus.Snapshot.Missing;
        }
    }

    /// <summary>The SHA-256 of the content, or null when unreadable or not a regular file (a FIFO, device or socket is never opened: a FIFO blocks until a writer comes).</summary>
    public static byte[]? HashFile(string path)
    {
        if (BoundedFileRead.Check(path) != BoundedFileRead.Refusal.None)
        {
            return null;
        }

        try
        {
            using FileStream stream = new(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
            return SHA256.HashData(stream);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
