using System.Runtime.InteropServices;

namespace SharpClaw.Server.Infrastructure;

/// <summary>
/// The fields of stat(2) .NET does not expose — owner, group and the inode change time (ctime, which
/// no unprivileged process can set back) — read through the runtime's own System.Native shim. The
/// layout is checked against what .NET reports for size and write time; on a mismatch (or on
/// Windows) nothing is returned and callers fall back to what they can see.
/// <see cref="TryStat"/> is the fingerprints' one stat per file: existence, size, write and change
/// time from a single call, with no allocation, its layout checked once per process.
/// </summary>
internal static class UnixFileStatus
{
    /// <summary>Owner, group and ctime (100 ns ticks since the Unix epoch) of a file.</summary>
    internal readonly record struct Status(uint Uid, uint Gid, long ChangeTicks);

    /// <summary>What one stat(2) of a path says, in .NET's units (UTC ticks, as FileInfo.LastWriteTimeUtc.Ticks).</summary>
    /// <param name="Exists">The path (after following links) exists.</param>
    /// <param name="IsDirectory">It is a folder.</param>
    /// <param name="Length">Size in bytes.</param>
    /// <param name="LastWriteTicks">Write time, as <see cref="FileSystemInfo.LastWriteTimeUtc"/> reports it.</param>
    /// <param name="ChangeTicks">Inode change time (100 ns ticks since the Unix epoch, as <see cref="Status.ChangeTicks"/>).</param>
    internal readonly record struct Snapshot(bool Exists, bool IsDirectory, long Length, long LastWriteTicks, long ChangeTicks)
    {
        public static Snapshot Missing => default;
    }

    // System.Native's FileStatus: int32 Flags, int32 Mode, uint32 Uid, uint32 Gid, int64 Size,
    // int64 ATime, ATimeNsec, MTime, MTimeNsec, CTime, CTimeNsec, ...
    private const int UidOffset = 8;
    private const int GidOffset = 12;
    private const int SizeOffset = 16;
    private const int MTimeOffset = 40;
    private const int CTimeOffset = 56;
    private const int CTimeNsecOffset = 64;

    /// <summary>The leading fields of System.Native's FileStatus (above), with room for the rest.</summary>
    [StructLayout(LayoutKind.Sequential, Size = 512)]
    private struct FileStatus
    {
        public int Flags;
        public int Mode;
        public uint Uid;
        public uint Gid;
        public long Size;
        public long ATime;
        public long ATimeNsec;
        public long MTime;
        public long MTimeNsec;
        public long CTime;
        public long CTimeNsec;
    }

    private const int TypeMask = 0xF000; // S_IFMT
    private const int DirectoryType = 0x4000; // S_IFDIR

    private const int RegularType = 0x8000; // S_IFREG

    /// <summary>
    /// What stat(2) (links followed) says <paramref name="path"/> is: a regular file (true), something else —
    /// a FIFO, a character or block device, a socket, a folder (false) — or null when it is missing or this
    /// cannot be asked here (Windows). Opening a FIFO blocks until a writer comes and a device like
    /// /dev/zero never ends, so readers of workspace files ask this before they open one.
    /// </summary>
    public static bool? IsRegularFile(string path)
    {
        if (OperatingSystem.IsWindows() || !FastStatWorks.Value)
        {
            return null;
        }

        try
        {
            return SystemNativeStatStruct(path, out FileStatus status) != 0 ? null : (status.Mode & TypeMask) == RegularType;
        }
        catch (Exception ex) when (ex is DllNotFoundException or EntryPointNotFoundException or ArgumentException)
        {
            return null;
        }
    }

    /// <summary>True when <see cref="TryStat"/> reads what FileInfo reads (checked once, on this assembly's own file).</summary>
    private static readonly Lazy<bool> FastStatWorks = new(VerifyFastStat);

    /// <summary>
    /// One stat(2) of <paramref name="path"/> (links followed): false when it is unavailable (Windows, an
    /// unknown layout, a path the shim cannot take), and callers use FileInfo. A path that cannot be statted (missing, unreadable) is
    /// <see cref="Snapshot.Missing"/>.
    /// </summary>
    public static bool TryStat(string path, out Snapshot snapshot)
    {
        snapshot = Snapshot.Missing;
        if (OperatingSystem.IsWindows() || !FastStatWorks.Value)
        {
            return false;
        }

        return StatCore(path, out snapshot);
    }

    private static bool StatCore(string path, out Snapshot snapshot)
    {
        snapshot = Snapshot.Missing;
        try
        {
            if (SystemNativeStatStruct(path, out FileStatus status) != 0)
            {
                return true;
            }

            long written = DateTime.UnixEpoch.Ticks + (status.MTime * TimeSpan.TicksPerSecond) + (status.MTimeNsec / 100);
            long changed = (status.CTime * TimeSpan.TicksPerSecond) + (status.CTimeNsec / 100);
            snapshot = new Snapshot(true, (status.Mode & TypeMask) == DirectoryType, status.Size, written, changed);
            return true;
        }
        catch (Exception ex) when (ex is DllNotFoundException or EntryPointNotFoundException or ArgumentException)
        {
            return false;
        }
    }

    private static bool VerifyFastStat()
    {
        if (OperatingSystem.IsWindows())
        {
            return false;
        }

        string? file = typeof(UnixFileStatus).Assembly.Location is { Length: > 0 } location ? location : Environment.ProcessPath;
        if (file is null || !StatCore(file, out Snapshot snapshot))
        {
            return false;
        }

        FileInfo info = new(file);
        return info.Exists && snapshot.Exists && !snapshot.IsDirectory && snapshot.Length == info.Length && snapshot.LastWriteTicks == info.LastWriteTimeUtc.Ticks
            && Read(file, info)?.ChangeTicks == snapshot.ChangeTicks;
    }

    /// <param name="path">The file.</param>
    /// <param name="known">A FileInfo of the same file the caller already read (saves a second stat for the layout check).</param>
    public static Status? Read(string path, FileInfo? known = null)
    {
        if (OperatingSystem.IsWindows())
        {
            return null;
        }

        byte[] buffer = new byte[512];
        try
        {
            if (SystemNativeStat(path, buffer) != 0)
            {
                return null;
            }
        }
        catch (Exception ex) when (ex is DllNotFoundException or EntryPointNotFoundException or ArgumentException)
        {
            return null;
        }

        // Guard the layout: size and write time must agree with what .NET itself reports.
        FileInfo info = known ?? new(path);
        if (!info.Exists
            || BitConverter.ToInt64(buffer, SizeOffset) != info.Length
            || BitConverter.ToInt64(buffer, MTimeOffset) != new DateTimeOffset(info.LastWriteTimeUtc).ToUnixTimeSeconds())
        {
            return null;
        }

        long changeTicks = (BitConverter.ToInt64(buffer, CTimeOffset) * TimeSpan.TicksPerSecond) + (BitConverter.ToInt64(buffer, CTimeNsecOffset) / 100);
        return new Status(BitConverter.ToUInt32(buffer, UidOffset), BitConverter.ToUInt32(buffer, GidOffset), changeTicks);
    }

    [DllImport("libSystem.Native", EntryPoint = "SystemNative_Stat", SetLastError = true, CharSet = CharSet.Ansi, BestFitMapping = false, ThrowOnUnmappableChar = true)]
    private static extern int SystemNativeStat(string path, [Out] byte[] status);

    [DllImport("libSystem.Native", EntryPoint = "SystemNative_Stat", CharSet = CharSet.Ansi, BestFitMapping = false, ThrowOnUnmappableChar = true)]
    private static extern int SystemNativeStatStruct(string path, out FileStatus status);

    /// <summary>The same call on a path already encoded (UTF-8, NUL-terminated): no marshalling per call.</summary>
    [DllImport("libSystem.Native", EntryPoint = "SystemNative_Stat")]
    private static extern int SystemNativeStatEncoded(ref byte path, out FileStatus status);

    /// <summary>Whether <see cref="TryStatEncoded"/> works here (Unix, the layout checked).</summary>
    public static bool FastStatAvailable => !OperatingSystem.IsWindows() && FastStatWorks.Value;

    /// <summary><see cref="TryStat"/> for a path encoded once by the caller (UTF-8 with a trailing NUL); only when <see cref="FastStatAvailable"/>.</summary>
    public static Snapshot StatEncoded(byte[] path)
    {
        if (SystemNativeStatEncoded(ref path[0], out FileStatus status) != 0)
        {
            return Snapshot.Missing;
        }

        long written = DateTime.UnixEpoch.Ticks + (status.MTime * TimeSpan.TicksPerSecond) + (status.MTimeNsec / 100);
        long changed = (status.CTime * TimeSpan.TicksPerSecond) + (status.CTimeNsec / 100);
        return new Snapshot(true, (status.Mode & TypeMask) == DirectoryType, status.Size, written, changed);
    }
}
