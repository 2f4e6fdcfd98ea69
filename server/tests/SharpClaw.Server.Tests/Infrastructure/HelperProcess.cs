using System.Diagnostics;

namespace SharpClaw.Server.Tests.Infrastructure;

/// <summary>
/// A throw-away long-running process whose pid plays "the VS Code extension host", ended when disposed (a
/// `sleep` a test only disposed ran on for its ten minutes after the run, in the layer's state folder's environment).
/// </summary>
internal sealed class HelperProcess : IDisposable
{
    private readonly Process process;

    private HelperProcess(Process process) => this.process = process;

    public int Id => this.process.Id;

    public bool HasExited => this.process.HasExited;

    /// <param name="seconds">How long it lives if nothing ends it first: longer than the test that follows it.</param>
    public static HelperProcess Start(int seconds = 60)
    {
        string duration = seconds.ToString(System.Globalization.CultureInfo.InvariantCulture);
        ProcessStartInfo startInfo = OperatingSystem.IsWindows()
            ? new ProcessStartInfo("powershell", $"-NoProfile -Command Start-Sleep -Seconds {duration}")
            : new ProcessStartInfo("sleep", duration);
        startInfo.UseShellExecute = false;
        startInfo.RedirectStandardInput = true;
        startInfo.RedirectStandardOutput = true;
        return new HelperProcess(Process.Start(startInfo) ?? throw new InvalidOperationException("Could not start the helper process."));
    }

    public void Kill()
    {
        this.process.Kill(entireProcessTree: true);
        this.process.WaitForExit(10_000);
    }

    public void Dispose()
    {
        try
        {
            if (!this.process.HasExited)
            {
                this.Kill();
            }
        }
        catch (InvalidOperationException)
        {
            // Already gone.
        }

        this.process.Dispose();
    }
}
