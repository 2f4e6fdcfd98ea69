using System.Diagnostics;
using System.Globalization;
using SharpClaw.Server.Semantic.Fingerprints;

namespace SharpClaw.Bench;

/// <summary>
/// <c>fingerprint [--projects 50] [--iterations 200]</c>: the cost of one context fingerprint check
/// (the per-request "did anything change?" decision) on a restored synthetic solution: every build
/// input (project files, Directory.Build.props, restore outputs) stamped by size, write time and
/// inode change time, every .cs file by size and write time. Goal (issue 12, item 11): under 5 ms.
/// Prints the wall-clock median and p95, the process CPU time per check (what the check costs, whatever
/// else runs on the machine) and the load average.
/// </summary>
internal static class FingerprintBenchmark
{
    public static int Run(string solution, int iterations)
    {
        string root = Path.GetDirectoryName(solution)!;
        File.WriteAllText(Path.Combine(root, "Directory.Build.props"), "<Project>\n  <PropertyGroup>\n    <Deterministic>true</Deterministic>\n  </PropertyGroup>\n</Project>\n");
        Process restore = Process.Start("dotnet", ["restore", solution, "-nologo", "-v:q"])!;
        restore.WaitForExit();

        List<string> projects = [.. Directory.EnumerateFiles(root, "*.csproj", SearchOption.AllDirectories)];
        List<string> structural = [solution, Path.Combine(root, "Directory.Build.props"), .. projects];
        foreach (string project in projects)
        {
            string obj = Path.Combine(Path.GetDirectoryName(project)!, "obj");
            if (Directory.Exists(obj))
            {
                structural.AddRange(Directory.EnumerateFiles(obj).Where(f => f.EndsWith(".json", StringComparison.Ordinal) || f.EndsWith(".props", StringComparison.Ordinal) || f.EndsWith(".targets", StringComparison.Ordinal)));
            }
        }

        Thread.Sleep(2500); // A context is taken after its files were written, outside the racy window.
        List<string> sources = [.. Directory.EnumerateFiles(root, "*.cs", SearchOption.AllDirectories).Where(f => !f.Contains("/obj/", StringComparison.Ordinal))];
        ContextFingerprint fingerprint = ContextFingerprint.Create(new FingerprintInputs
        {
            StructuralFiles = structural,
            SourceCones = projects.Select(p => Path.GetDirectoryName(p)!),
            ExcludedFolders = projects.SelectMany(p => new[] { Path.Combine(Path.GetDirectoryName(p)!, "obj"), Path.Combine(Path.GetDirectoryName(p)!, "bin") }),
            SourceFolders = [],
            ProjectExtensionFolders = projects.Select(p => (Path.Combine(Path.GetDirectoryName(p)!, "obj"), Path.GetFileName(p))),
            ContentFiles = sources,
            ExistenceFiles = [],
            DynamicImports = [],
            EvaluationStartedUtc = DateTime.UtcNow,
        });

        fingerprint.Check();
        List<double> times = [];
        TimeSpan cpuBefore = Process.GetCurrentProcess().TotalProcessorTime;
        for (int i = 0; i < iterations; i++)
        {
            FingerprintCheck check = fingerprint.Check();
            times.Add(check.Elapsed.TotalMilliseconds);
            if (check.IsStructural || check.ContentChanges.Count > 0)
            {
                Console.Error.WriteLine($"unexpected change: {string.Join(", ", check.StructuralChanges.Concat(check.ContentChanges).Take(5))}");
                return 1;
            }
        }

        double cpuPerCheck = (Process.GetCurrentProcess().TotalProcessorTime - cpuBefore).TotalMilliseconds / iterations;
        times.Sort();
        Console.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"fingerprint check, {projects.Count} projects, {structural.Count} build inputs, {sources.Count} sources, {fingerprint.DirectoryCount} folders: median {times[times.Count / 2]:0.00} ms, p95 {times[(int)(times.Count * 0.95)]:0.00} ms over {iterations} checks, {cpuPerCheck:0.00} ms CPU per check (goal < 5 ms; load average {LoadAverage()})"));
        return 0;
    }

    /// <summary>The 1-minute load average (Linux), or "n/a": how busy the machine was.</summary>
    private static string LoadAverage()
    {
        try
        {
            return File.ReadAllText("/proc/loadavg").Split(' ')[0];
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return "n/a";
        }
    }
}
