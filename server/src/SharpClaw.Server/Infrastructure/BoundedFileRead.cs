namespace SharpClaw.Server.Infrastructure;

/// <summary>
/// The one way the host reads a file a workspace supplies (sources for the syntax index, .gitignore,
/// project and props files scanned without evaluation, a loose file's text): only a regular file is
/// opened — never a FIFO (opening one blocks until a writer comes), a device (/dev/zero never ends) or a
/// socket — and never more than a bound, checked before the read and again while reading (a file may
/// grow). A refusal says why, so the caller can skip the file or name it in a typed error.
/// </summary>
internal static class BoundedFileRead
{
    /// <summary>The largest C# source the host reads from disk (Roslyn's own editor limits are far below).</summary>
    public const long MaxSourceBytes = 16L * 1024 * 1024;

    /// <summary>The largest project or props file the host reads itself (MSBuild's own evaluation reads it otherwise).</summary>
    public const long MaxProjectFileBytes = 1024 * 1024;

    /// <summary>Why a file was not read.</summary>
    public enum Refusal
    {
        None,
        Missing,
        NotARegularFile,
        TooLarge,
    }

    /// <summary>The file's bytes, or null with the <paramref name="refusal"/>; IO errors are <see cref="Refusal.Missing"/> (gone or unreadable).</summary>
    public static byte[]? ReadBytes(string path, long maxBytes, out Refusal refusal)
    {
        refusal = Check(path);
        if (refusal != Refusal.None)
        {
            return null;
        }

        try
        {
            using FileStream stream = new(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, bufferSize: 1, FileOptions.SequentialScan);
            if (stream.Length > maxBytes)
            {
                refusal = Refusal.TooLarge;
                return null;
            }

            // Read at most one byte past the bound: a file that grew since its length was read is refused too.
            using MemoryStream buffer = new((int)Math.Min(stream.Length, maxBytes) + 1);
            byte[] chunk = new byte[81920];
            int read;
            while ((read = stream.Read(chunk, 0, (int)Math.Min(chunk.Length, maxBytes + 1 - buffer.Length))) > 0)
            {
                buffer.Write(chunk, 0, read);
                if (buffer.Length > maxBytes)
                {
                    refusal = Refusal.TooLarge;
                    return null;
                }
            }

            return buffer.ToArray();
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            refusal = Refusal.Missing;
            return null;
        }
    }

    /// <summary><see cref="ReadBytes"/> as UTF-8 text (a byte order mark is dropped).</summary>
    public static string? ReadText(string path, long maxBytes, out Refusal refusal)
    {
        byte[]? bytes = ReadBytes(path, maxBytes, out refusal);
        if (bytes is null)
        {
            return null;
        }

        using StreamReader reader = new(new MemoryStream(bytes), System.Text.Encoding.UTF8, detectEncodingFromByteOrderMarks: true);
        return reader.ReadToEnd();
    }

    /// <summary>
    /// The bytes of a workspace file an edit reads (the file it renames, rewrites or checks), or an
    /// <c>invalid_request</c> naming the file as <paramref name="shown"/> and why it was not read.
    /// </summary>
    public static byte[] ReadForEdit(string path, string shown, long maxBytes) =>
        ReadBytes(path, maxBytes, out Refusal refusal)
            ?? throw SemanticException.InvalidRequest($"{shown} {Describe(refusal, maxBytes)}; nothing was changed.");

    /// <summary>Whether the path may be opened: it exists and is a regular file (where that can be asked).</summary>
    public static Refusal Check(string path)
    {
        if (UnixFileStatus.IsRegularFile(path) is bool regular)
        {
            return regular ? Refusal.None : Refusal.NotARegularFile;
        }

        return File.Exists(path) ? Refusal.None : Refusal.Missing;
    }

    /// <summary>How a refusal reads in a message: "is not a regular file (a FIFO, device or socket)", "is larger than 1 MiB".</summary>
    public static string Describe(Refusal refusal, long maxBytes) => refusal switch
    {
        Refusal.NotARegularFile => "is not a regular file (a FIFO, device or socket is never opened)",
        Refusal.TooLarge => $"is larger than {Size(maxBytes)}, the most SharpClaw reads of it",
        Refusal.Missing => "is missing or unreadable",
        _ => "was read",
    };

    private static string Size(long bytes) => bytes % (1024 * 1024) == 0 ? $"{bytes / (1024 * 1024)} MiB" : $"{bytes / 1024} KiB";
}
