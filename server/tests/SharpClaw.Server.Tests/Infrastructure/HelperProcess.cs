using System.Diagnostics;

namespace SharpClaw.Server.Tests.Infrastructure;

/// <summary>A throw-away long-running process whose pid plays "the VS Code extension host".</summary>
internal sealed class HelperProcess : IDisposable
{
    private readonly Process process;

    private HelperProcess(Process process) => this.process = process;

    public int Id => this.process.Id;

    public bool HasExited => this.process.HasExited;

    public static HelperProcess Start()
    {
        ProcessStartInfo startInfo = OperatingSystem.IsWindows()
            ? new ProcessStartInfo("powershell", "-NoProfile -Command Start-Sleep -Seconds 60")
            : new ProcessStartInfo("sleep", "60");
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
