using System.Diagnostics;
using System.Text;
using SharpClaw.Server.Toolchain;

namespace SharpClaw.Server.Semantic.Evaluation;

/// <summary>The result of one dotnet CLI run.</summary>
public sealed record ProcessResult(int ExitCode, string Stdout, string Stderr, TimeSpan Duration);

/// <summary>
/// Runs the dotnet CLI for evaluation: quiet, no telemetry or first-run banner, no MSBuild node reuse,
/// English messages (the host parses a few of them), and without MSBuild variables inherited from
/// whatever started the host (e.g. MSBuildExtensionsPath set by "dotnet test").
/// </summary>
public static class DotnetCli
{
    /// <summary>The dotnet muxer of the installation the host runs on, else "dotnet" from PATH.</summary>
    public static string FindDotnet()
    {
        string executable = OperatingSystem.IsWindows() ? "dotnet.exe" : "dotnet";
        string? hostPath = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH");
        if (!string.IsNullOrEmpty(hostPath) && File.Exists(hostPath))
        {
            return hostPath;
        }

        if (SdkInventory.FindDotnetRoot() is { } root && File.Exists(Path.Combine(root, executable)))
        {
            return Path.Combine(root, executable);
        }

        return "dotnet";
    }

    /// <summary>Environment variables every evaluation child gets.</summary>
    public static IReadOnlyDictionary<string, string> QuietEnvironment { get; } = new Dictionary<string, string>
    {
        ["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1",
        ["DOTNET_NOLOGO"] = "1",
        ["DOTNET_SKIP_FIRST_TIME_EXPERIENCE"] = "1",
        ["DOTNET_GENERATE_ASPNET_CERTIFICATE"] = "false",
        ["MSBUILDDISABLENODEREUSE"] = "1",
        ["DOTNET_CLI_UI_LANGUAGE"] = "en",
    };

    public static async Task<ProcessResult> RunAsync(
        IReadOnlyList<string> arguments,
        string workingDirectory,
        CancellationToken cancellationToken)
    {
        ProcessStartInfo startInfo = new(FindDotnet())
        {
            WorkingDirectory = workingDirectory,
            UseShellExecute = false,
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            StandardOutputEncoding = Encoding.UTF8,
            StandardErrorEncoding = Encoding.UTF8,
        };
        foreach (string argument in arguments)
        {
            startInfo.ArgumentList.Add(argument);
        }

        foreach (string name in startInfo.Environment.Keys.ToList())
        {
            if (name.StartsWith("MSBUILD", StringComparison.OrdinalIgnoreCase) || name.Equals("MSBuildExtensionsPath", StringComparison.OrdinalIgnoreCase))
            {
                startInfo.Environment.Remove(name);
            }
        }

        foreach ((string name, string value) in QuietEnvironment)
        {
            startInfo.Environment[name] = value;
        }

        long started = Stopwatch.GetTimestamp();
        using Process process = Process.Start(startInfo) ?? throw new InvalidOperationException("Could not start dotnet.");
        process.StandardInput.Close();
        Task<string> stdout = process.StandardOutput.ReadToEndAsync(CancellationToken.None);
        Task<string> stderr = process.StandardError.ReadToEndAsync(CancellationToken.None);
        try
        {
            await process.WaitForExitAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            try
            {
                process.Kill(entireProcessTree: true);
            }
            catch (InvalidOperationException)
            {
                // Already gone.
            }

            await process.WaitForExitAsync(CancellationToken.None).ConfigureAwait(false);
            throw;
        }

        return new ProcessResult(process.ExitCode, await stdout.ConfigureAwait(false), await stderr.ConfigureAwait(false), Stopwatch.GetElapsedTime(started));
    }

    /// <summary>MSBuild escaping for item specs and property values (%, $, @, ', ;, ?, *).</summary>
    public static string MSBuildEscape(string value)
    {
        StringBuilder builder = new(value.Length);
        foreach (char c in value)
        {
            _ = c switch
            {
                '%' => builder.Append("%25"),
                '$' => builder.Append("%24"),
                '@' => builder.Append("%40"),
                '\'' => builder.Append("%27"),
                ';' => builder.Append("%3B"),
                '?' => builder.Append("%3F"),
                '*' => builder.Append("%2A"),
                _ => builder.Append(c),
            };
        }

        return builder.ToString();
    }
}
