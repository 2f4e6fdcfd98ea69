using System.Runtime.InteropServices;

namespace SharpClaw.Server.Semantic;

/// <summary>
/// The fields of stat(2) .NET does not expose — owner, group and the inode change time (ctime, which
/// no unprivileged process can set back) — read through the runtime's own System.Native shim. The
/// layout is checked against what .NET reports for size and write time; on a mismatch (or on
/// Windows) nothing is returned and callers fall back to what they can see.
/// </summary>
internal static class UnixFileStatus
{
    /// <summary>Owner, group and ctime (100 ns ticks since the Unix epoch) of a file.</summary>
    internal readonly record struct Status(uint Uid, uint Gid, long ChangeTicks);

    // System.Native's FileStatus: int32 Flags, int32 Mode, uint32 Uid, uint32 Gid, int64 Size,
    // int64 ATime, ATimeNsec, MTime, MTimeNsec, CTime, CTimeNsec, ...
    private const int UidOffset = 8;
    private const int GidOffset = 12;
    private const int SizeOffset = 16;
    private const int MTimeOffset = 40;
    private const int CTimeOffset = 56;
    private const int CTimeNsecOffset = 64;

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
}
