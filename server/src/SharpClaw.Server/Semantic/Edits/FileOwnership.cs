using System.Runtime.InteropServices;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>
/// What an atomic replace must carry over from the file it replaces — its mode (0600, 0755, 0444 ...)
/// and, on Unix, its owner and group — and the read-only rule: a file is read-only when this user
/// may not write it or (Unix) its mode grants nobody write access, which also holds for root.
/// </summary>
internal static class FileOwnership
{
    /// <summary>Mode, owner and group of an existing file; null when it does not exist.</summary>
    internal sealed record Attributes(UnixFileMode Mode, uint Uid, uint Gid, FileAttributes WindowsAttributes);

    private const int WriteAccess = 2; // W_OK

    public static Attributes? Read(string path)
    {
        if (!File.Exists(path))
        {
            return null;
        }

        if (OperatingSystem.IsWindows())
        {
            return new Attributes(default, 0, 0, File.GetAttributes(path));
        }

        UnixFileStatus.Status status = UnixFileStatus.Read(path) ?? throw new IOException($"Cannot read the owner of {path}; it was not replaced.");
        return new Attributes(File.GetUnixFileMode(path), status.Uid, status.Gid, default);
    }

    public static bool IsReadOnly(string path)
    {
        if (!File.Exists(path))
        {
            return false;
        }

        if (OperatingSystem.IsWindows())
        {
            return File.GetAttributes(path).HasFlag(FileAttributes.ReadOnly);
        }

        const UnixFileMode anyWrite = UnixFileMode.UserWrite | UnixFileMode.GroupWrite | UnixFileMode.OtherWrite;
        return (File.GetUnixFileMode(path) & anyWrite) == 0 || Access(path, WriteAccess) != 0;
    }

    /// <summary>Gives <paramref name="temp"/> the mode and owner of the file it is about to replace.</summary>
    public static void Apply(string temp, Attributes original)
    {
        if (OperatingSystem.IsWindows())
        {
            File.SetAttributes(temp, original.WindowsAttributes & ~FileAttributes.ReadOnly);
            return;
        }

        Attributes current = Read(temp)!;
        if ((current.Uid != original.Uid || current.Gid != original.Gid) && Chown(temp, original.Uid, original.Gid) != 0)
        {
            throw new IOException(
                $"Cannot keep the owner {original.Uid}:{original.Gid} of the file (error {Marshal.GetLastPInvokeError()}); it was not replaced.");
        }

        // After chown, which may clear set-id bits.
        File.SetUnixFileMode(temp, original.Mode);
    }

    [DllImport("libc", EntryPoint = "chown", SetLastError = true, CharSet = CharSet.Ansi, BestFitMapping = false, ThrowOnUnmappableChar = true)]
    private static extern int Chown(string path, uint owner, uint group);

    [DllImport("libc", EntryPoint = "access", SetLastError = true, CharSet = CharSet.Ansi, BestFitMapping = false, ThrowOnUnmappableChar = true)]
    private static extern int Access(string path, int mode);
}
