using System.Diagnostics;
using System.Globalization;

namespace SharpClaw.Server.Handlers;

/// <summary>
/// Polls a process (the VS Code extension host) about once a second and reports when it is gone,
/// so an orphaned host never lingers after the editor crashed or was killed.
/// </summary>
public sealed class ParentProcessWatcher : IDisposable
{
    private readonly CancellationTokenSource stop = new();

    private ParentProcessWatcher(int processId) => this.ProcessId = processId;

    public int ProcessId { get; }

    /// <summary>Starts watching. <paramref name="onExited"/> runs at most once, on a pool thread.</summary>
    public static ParentProcessWatcher Start(int processId, Action<string> onExited, TimeSpan? interval = null)
    {
        ParentProcessWatcher watcher = new(processId);
        _ = watcher.RunAsync(onExited, interval ?? TimeSpan.FromSeconds(1));
        return watcher;
    }

    public void Dispose() => this.stop.Cancel();

    private async Task RunAsync(Action<string> onExited, TimeSpan interval)
    {
        IProcessProbe probe = OperatingSystem.IsLinux() ? new ProcFsProbe(this.ProcessId) : new ProcessObjectProbe(this.ProcessId);
        using PeriodicTimer timer = new(interval);
        try
        {
            do
            {
                if (probe.HasExited(out string reason))
                {
                    onExited(reason);
                    return;
                }
            }
            while (await timer.WaitForNextTickAsync(this.stop.Token).ConfigureAwait(false));
        }
        catch (OperationCanceledException)
        {
            // Disposed.
        }
    }

    private interface IProcessProbe
    {
        bool HasExited(out string reason);
    }

    /// <summary>
    /// Linux: one small read of /proc/&lt;pid&gt;/stat. Unlike kill(pid, 0) it also sees zombies
    /// (a dead client not yet reaped by its parent) and pid reuse (a different start time).
    /// </summary>
    private sealed class ProcFsProbe(int processId) : IProcessProbe
    {
        private readonly string statPath = $"/proc/{processId.ToString(CultureInfo.InvariantCulture)}/stat";
        private string? startTime;

        public bool HasExited(out string reason)
        {
            string stat;
            try
            {
                stat = File.ReadAllText(this.statPath);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                reason = $"client process {processId} no longer exists";
                return true;
            }

            // Format: "pid (comm) state ppid ... starttime(22nd field) ..."; comm may contain spaces and ')'.
            string[] fields = stat[(stat.LastIndexOf(')') + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
            string state = fields.Length > 0 ? fields[0] : "?";
            string start = fields.Length > 19 ? fields[19] : string.Empty;
            if (state is "Z" or "X" or "x")
            {
                reason = $"client process {processId} has exited (state {state})";
                return true;
            }

            this.startTime ??= start;
            if (this.startTime != start)
            {
                reason = $"client process {processId} has exited (pid reused)";
                return true;
            }

            reason = string.Empty;
            return false;
        }
    }

    /// <summary>Windows/macOS: a Process handle, which on Windows is also immune to pid reuse.</summary>
    private sealed class ProcessObjectProbe(int processId) : IProcessProbe
    {
        private Process? process;

        public bool HasExited(out string reason)
        {
            reason = $"client process {processId} has exited";
            try
            {
                this.process ??= Process.GetProcessById(processId);
                return this.process.HasExited;
            }
            catch (ArgumentException)
            {
                // GetProcessById: no such process.
                return true;
            }
            catch (Exception ex) when (ex is InvalidOperationException or System.ComponentModel.Win32Exception or NotSupportedException)
            {
                // No access to the handle: fall back to "does the pid still exist".
                try
                {
                    using Process _ = Process.GetProcessById(processId);
                    return false;
                }
                catch (ArgumentException)
                {
                    return true;
                }
            }
        }
    }
}
