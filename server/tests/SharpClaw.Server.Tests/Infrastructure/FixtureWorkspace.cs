using System.Diagnostics;

namespace SharpClaw.Server.Tests.Infrastructure;

/// <summary>
/// A copy of one fixture workspace in a fresh private temporary folder (the repository's fixtures are
/// never touched). Restoring is the test's provisioning step (the host itself never restores):
/// <see cref="Restored"/> copies it restored from <see cref="FixtureCache"/>, which restores each fixture
/// version once; <see cref="Restore"/> restores in place, for a test that changes the fixture first.
/// </summary>
internal sealed class FixtureWorkspace : IDisposable
{
    /// <summary>The folder this copy owns and removes (null: a folder someone else removes).</summary>
    private readonly TempDirectory? temp;

    private FixtureWorkspace(TempDirectory? temp, string root)
    {
        this.temp = temp;
        this.Root = root;
    }

    /// <summary>The workspace folder (the copied fixture).</summary>
    public string Root { get; }

    /// <summary>The temporary folder that contains <see cref="Root"/> (for files "outside the workspace").</summary>
    public string Parent => this.temp?.Path ?? System.IO.Path.GetDirectoryName(this.Root)!;

    /// <summary>A copy of fixtures/<paramref name="fixture"/> without build output, not restored.</summary>
    public static FixtureWorkspace Copy(string fixture)
    {
        TempDirectory temp = new();
        string root = System.IO.Path.Combine(temp.Path, fixture);
        FixtureCache.CopySource(fixture, root);
        return new FixtureWorkspace(temp, root);
    }

    /// <summary>A copy of fixtures/<paramref name="fixture"/> as <c>dotnet restore</c> of <paramref name="targets"/> (in order) leaves it.</summary>
    public static FixtureWorkspace Restored(string fixture, params string[] targets)
    {
        TempDirectory temp = new();
        string root = System.IO.Path.Combine(temp.Path, fixture);
        FixtureCache.CopyRestored(fixture, targets, root);
        return new FixtureWorkspace(temp, root);
    }

    /// <summary>
    /// The workspace <paramref name="prepare"/> makes from a copy of fixtures/<paramref name="fixture"/> (or from an
    /// empty folder when null), as <c>dotnet restore</c> of <paramref name="targets"/> leaves it: restored once per
    /// version in <see cref="FixtureCache"/> under <paramref name="variant"/>, as <see cref="Restored(string, string[])"/> is.
    /// </summary>
    public static FixtureWorkspace Restored(string? fixture, string variant, Action<FixtureWorkspace> prepare, params string[] targets)
    {
        TempDirectory temp = new();
        string root = System.IO.Path.Combine(temp.Path, variant);
        FixtureCache.CopyRestoredVariant(fixture, variant, folder => prepare(new FixtureWorkspace(null, folder)), targets, root);
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

    /// <summary>Runs <c>dotnet restore</c> on a target in this copy (for a fixture the test changed; else <see cref="Restored"/>).</summary>
    public void Restore(string target, params string[] extraArguments)
    {
        (int exitCode, string output) = Dotnet(this.Root, ["restore", target, "-nologo", "--tl:off", "-v:q", .. extraArguments]);
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

    public void Dispose() => this.temp?.Dispose();
}
