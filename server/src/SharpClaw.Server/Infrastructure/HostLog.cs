using System.Globalization;
using System.Text;

namespace SharpClaw.Server.Infrastructure;

/// <summary>Debug is the ordinary traffic (each request, the handshake): the output channel hides it at its default level.</summary>
public enum HostLogLevel
{
    Debug,
    Info,
    Warning,
    Error,
}

/// <summary>
/// A tiny logger: timestamped lines to stderr (VS Code shows them in the output channel) and to
/// sharpclaw-host-&lt;pid&gt;.log. Never to stdout, which carries the protocol.
/// </summary>
/// <remarks>
/// Lines logged before the log file is known (it may only arrive with <c>initialize</c>) are kept
/// in memory and written to the file when it is opened, so the file tells the whole story.
/// </remarks>
public sealed class HostLog : IDisposable
{
    private const int MaxPendingLines = 1000;

    private readonly Lock gate = new();
    private readonly TextWriter? console;
    private List<string>? pending = [];
    private StreamWriter? file;
    private bool disposed;

    /// <param name="console">Where lines are echoed (stderr in the real host); null for none.</param>
    public HostLog(TextWriter? console)
    {
        this.console = console;
    }

    /// <summary>The log file's full path, once one is open.</summary>
    public string? FilePath { get; private set; }

    public static string FileNameFor(int processId) => $"sharpclaw-host-{processId}.log";

    /// <summary>
    /// Opens sharpclaw-host-&lt;pid&gt;.log in <paramref name="directory"/>, creating the folder.
    /// Returns false (and logs why) when that fails; logging then continues on stderr only.
    /// </summary>
    public bool TryOpenFile(string directory)
    {
        string path;
        StreamWriter writer;
        try
        {
            string fullDirectory = Path.GetFullPath(directory);
            Directory.CreateDirectory(fullDirectory);
            path = Path.Combine(fullDirectory, FileNameFor(Environment.ProcessId));

            // Share read/write/delete so the extension (and people) can tail or clean up the file.
            FileStream stream = new(path, FileMode.Append, FileAccess.Write, FileShare.ReadWrite | FileShare.Delete);
            writer = new StreamWriter(stream, new UTF8Encoding(encoderShouldEmitUTF8Identifier: false)) { AutoFlush = true };
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            this.Warn($"Cannot open a log file in '{directory}': {ex.Message}");
            return false;
        }

        lock (this.gate)
        {
            if (this.disposed || this.file is not null)
            {
                writer.Dispose();
                return this.file is not null;
            }

            if (this.pending is not null)
            {
                foreach (string line in this.pending)
                {
                    writer.WriteLine(line);
                }

                this.pending = null;
            }

            this.file = writer;
            this.FilePath = path;
        }

        this.Info($"Logging to {path}");
        return true;
    }

    public void Debug(string message) => this.Write(HostLogLevel.Debug, message);

    public void Info(string message) => this.Write(HostLogLevel.Info, message);

    public void Warn(string message) => this.Write(HostLogLevel.Warning, message);

    public void Error(string message, Exception? exception = null) =>
        this.Write(HostLogLevel.Error, exception is null ? message : $"{message}{Environment.NewLine}{exception}");

    public void Write(HostLogLevel level, string message)
    {
        string levelText = level switch
        {
            HostLogLevel.Debug => "debug",
            HostLogLevel.Warning => "warn ",
            HostLogLevel.Error => "error",
            _ => "info ",
        };
        string line = string.Create(
            CultureInfo.InvariantCulture,
            $"{DateTime.UtcNow:yyyy-MM-ddTHH:mm:ss.fffZ} [{levelText}] {message}");

        lock (this.gate)
        {
            if (this.disposed)
            {
                return;
            }

            try
            {
                this.console?.WriteLine(line);
            }
            catch (IOException)
            {
                // stderr is gone (the client closed it); the file may still work.
            }

            if (this.file is not null)
            {
                try
                {
                    this.file.WriteLine(line);
                }
                catch (IOException)
                {
                    // Disk full or similar: logging must never take the host down.
                }
            }
            else if (this.pending is not null && this.pending.Count < MaxPendingLines)
            {
                this.pending.Add(line);
            }
        }
    }

    public void Dispose()
    {
        lock (this.gate)
        {
            this.disposed = true;
            this.file?.Dispose();
            this.file = null;
            this.pending = null;
        }
    }
}
