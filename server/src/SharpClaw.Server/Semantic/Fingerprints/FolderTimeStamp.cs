using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Fingerprints;

/// <summary>
/// A folder's existence, write time and (Unix) change time when a fingerprint was taken. Adding, removing or
/// renaming an entry moves a folder's write and change times (and no unprivileged process can set the change time
/// back), so an unchanged stamp says no file appeared in it — unless the folder was written within
/// <see cref="RacyWindow"/> of the stamp ("racy": a second change in the same timestamp tick could keep the
/// times), and racy stamps are never trusted.
/// </summary>
public readonly record struct FolderTimeStamp(bool Exists, long LastWriteTicks, bool Racy, long ChangeTicks = 0)
{
    private static readonly long RacyWindow = TimeSpan.FromSeconds(2).Ticks;

    public static FolderTimeStamp Take(string folder)
    {
        long now = DateTime.UtcNow.Ticks;
        UnixFileStatus.Snapshot stat = UnixFileStatus.TryStat(folder, out UnixFileStatus.Snapshot fast)
            ? fast
            : Directory.Exists(folder) ? new UnixFileStatus.Snapshot(true, true, 0, Directory.GetLastWriteTimeUtc(folder).Ticks, 0) : UnixFileStatus.Snapshot.Missing;
        bool exists = stat.Exists && stat.IsDirectory;
        return new FolderTimeStamp(exists, exists ? stat.LastWriteTicks : 0, exists && now - stat.LastWriteTicks < RacyWindow, exists ? stat.ChangeTicks : 0);
    }

    /// <summary>The folder as statted now is the one stamped (same existence, write and change time).</summary>
    internal bool Matches(UnixFileStatus.Snapshot now) =>
        (now.Exists && now.IsDirectory) == this.Exists && (!this.Exists || (now.LastWriteTicks == this.LastWriteTicks && now.ChangeTicks == this.ChangeTicks));
}
