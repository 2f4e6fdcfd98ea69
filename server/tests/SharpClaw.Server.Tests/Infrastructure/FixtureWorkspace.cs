using System.Diagnostics;

namespace SharpClaw.Server.Tests.Infrastructure;

/// <summary>
/// A copy of one fixture workspace in a fresh temporary folder (the repository's fixtures are never
/// touched). Restoring is the test's provisioning step: the host itself never restores.
/// </summary>
internal sealed class FixtureWorkspace : IDisposable
{
    private readonly TempDirectory temp;

    private FixtureWorkspace(TempDirectory temp, string root)
    {
        this.temp = temp;
        this.Root = root;
    }

    /// <summary>The workspace folder (the copied fixture).</summary>
    public string Root { get; }

    /// <summary>The temporary folder that contains <see cref="Root"/> (for files "outside the workspace").</summary>
    public string Parent => this.temp.Path;

    public static FixtureWorkspace Copy(string fixture)
    {
        TempDirectory temp = new();
        string root = System.IO.Path.Combine(temp.Path, fixture);
        CopyDirectory(System.IO.Path.Combine(TestPaths.Fixtures, fixture), root);
        return new FixtureWorkspace(temp, root);
    }

    public string Path(string relative) => System.IO.Path.Combine(this.Root, relative.Replace('/', System.IO.Path.DirectorySeparatorChar));

    public string Read(string relative) => File.ReadAllText(this.Path(relative));

    public void Write(string relative, string content)
    {
        string path = this.Path(relative);
        Directory.CreateDirectory(System.IO.Path.GetDirectoryName(path)!);
        File.WriteAllText(path, content);
    }

    /// <summary>Rewrites a file and moves its write time forward, so even coarse timestamps see the change.</summary>
    public void Edit(string relative, Func<string, string> change)
    {
        string path = this.Path(relative);
        DateTime before = File.GetLastWriteTimeUtc(path);
        File.WriteAllText(path, change(File.ReadAllText(path)));
        if (File.GetLastWriteTimeUtc(path) <= before)
        {
            File.SetLastWriteTimeUtc(path, before.AddSeconds(1));
        }
    }

    /// <summary>Lines in a marker file the fixture's MSBuild code appends to (0 when absent).</summary>
    public int MarkerLines(string relative) =>
        File.Exists(this.Path(relative)) ? File.ReadAllLines(this.Path(relative)).Count(l => l.Trim().Length > 0) : 0;

    public void DeleteFile(string relative)
    {
        if (File.Exists(this.Path(relative)))
        {
            File.Delete(this.Path(relative));
        }
    }

    /// <summary>Runs <c>dotnet restore</c> on a target (the test's provisioning step).</summary>
    public void Restore(string target, params string[] extraArguments)
    {
        (int exitCode, string output) = Dotnet(this.Root, ["restore", target, "-nologo", "-v:q", .. extraArguments]);
        Assert.True(exitCode == 0, $"dotnet restore {target} failed:\n{output}");
    }

    public static (int ExitCode, string Output) Dotnet(string workingDirectory, IEnumerable<string> arguments)
    {
        ProcessStartInfo startInfo = new(TestPaths.DotnetHost)
        {
            WorkingDirectory = workingDirectory,
            UseShellExecute = false,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (string argument in arguments)
        {
            startInfo.ArgumentList.Add(argument);
        }

        foreach (string name in startInfo.Environment.Keys.Where(k => k.StartsWith("MSBuild", StringComparison.OrdinalIgnoreCase)).ToList())
        {
            startInfo.Environment.Remove(name);
        }

        startInfo.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        startInfo.Environment["DOTNET_NOLOGO"] = "1";
        startInfo.Environment["MSBUILDDISABLENODEREUSE"] = "1";
        using Process process = Process.Start(startInfo)!;
        Task<string> stdout = process.StandardOutput.ReadToEndAsync();
        Task<string> stderr = process.StandardError.ReadToEndAsync();
        // Generous: a fixture with a generator project builds in about a minute on an idle 2-core machine, and in
        // several minutes when other builds share the cores.
        if (!process.WaitForExit(TimeSpan.FromMinutes(10)))
        {
            process.Kill(entireProcessTree: true);
            Assert.Fail($"dotnet {string.Join(' ', arguments)} timed out.");
        }

        return (process.ExitCode, stdout.Result + stderr.Result);
    }

    public void Dispose() => this.temp.Dispose();

    private static void CopyDirectory(string source, string destination)
    {
        Directory.CreateDirectory(destination);
        foreach (string file in Directory.EnumerateFiles(source))
        {
            File.Copy(file, System.IO.Path.Combine(destination, System.IO.Path.GetFileName(file)));
        }

        foreach (string directory in Directory.EnumerateDirectories(source))
        {
            string name = System.IO.Path.GetFileName(directory);
            if (name is "bin" or "obj" or "artifacts")
            {
                continue; // A developer's local build output never travels with a fixture.
            }

            CopyDirectory(directory, System.IO.Path.Combine(destination, name));
        }
    }
}
