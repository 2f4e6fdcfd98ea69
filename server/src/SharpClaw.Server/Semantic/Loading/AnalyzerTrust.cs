using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Toolchain;

namespace SharpClaw.Server.Semantic.Loading;

/// <summary>An analyzer/generator removed from one project compilation (full paths).</summary>
public sealed record AnalyzerExclusion(string ProjectPath, string? TargetFramework, string AnalyzerPath, AnalyzerOrigin Origin, string? Package);

/// <summary>A package-supplied analyzer/generator replaced by the installed SDK's copy of the same assembly (full paths).</summary>
public sealed record AnalyzerSubstitution(string ProjectPath, string? TargetFramework, string PackagePath, string SdkPath, string? Package);

/// <summary>The analyzer-filtered solution: what was removed and what was replaced by the SDK's own copy.</summary>
public sealed record AnalyzerFilterResult(Solution Solution, List<AnalyzerExclusion> Excluded, List<AnalyzerSubstitution> Substituted)
{
    public void Deconstruct(out Solution solution, out List<AnalyzerExclusion> excluded)
    {
        solution = this.Solution;
        excluded = this.Excluded;
    }
}

/// <summary>
/// Decides which analyzers and source generators may run inside the host. Trusted are only assemblies
/// under the installed .NET SDK inventory: &lt;dotnet root&gt;/sdk/&lt;version&gt;/ of an installed SDK and
/// &lt;dotnet root&gt;/packs/ (the reference packs that carry System.Text.Json, GeneratedRegex, LoggerMessage
/// (ASP.NET Core pack), interop generators, ...). The roots come from the host's own view of the
/// installation, never from project properties. A package-supplied assembly the SDK also ships (the
/// reference packs' analyzers/dotnet/cs folders: LoggerMessage, Options validation, configuration binder,
/// System.Text.Json, Regex, LibraryImport, ...) is replaced by the SDK's copy, matched by assembly file
/// name, so the trust root stays the SDK inventory. Everything else — other NuGet packages, project
/// outputs, arbitrary paths — is removed from the loaded solution and reported.
/// </summary>
public sealed class AnalyzerTrust
{
    public AnalyzerTrust(IReadOnlyList<string> trustedRoots, IReadOnlyList<string> packageFolders)
    {
        this.TrustedRoots = trustedRoots.Select(r => PathUtil.ResolveLinks(r)).Distinct(PathUtil.Comparer).ToList();
        this.PackageFolders = packageFolders.Select(PathUtil.Normalize).Distinct(PathUtil.Comparer).ToList();
        this.sdkAnalyzers = new Lazy<Dictionary<string, string>>(this.FindSdkAnalyzers);
    }

    public IReadOnlyList<string> TrustedRoots { get; }

    public IReadOnlyList<string> PackageFolders { get; }

    private readonly Lazy<Dictionary<string, string>> sdkAnalyzers;

    /// <summary>
    /// The analyzer assemblies the trusted roots ship in reference packs (&lt;pack&gt;/&lt;version&gt;/analyzers/dotnet[/cs]),
    /// by file name; the highest pack version wins.
    /// </summary>
    public IReadOnlyDictionary<string, string> SdkAnalyzers => this.sdkAnalyzers.Value;

    /// <summary>The SDK's own copy of a package-supplied analyzer assembly, or null when the SDK does not ship one.</summary>
    public string? SdkCopyOf(string? path, AnalyzerOrigin origin) =>
        origin == AnalyzerOrigin.Package && path is { Length: > 0 } && this.SdkAnalyzers.TryGetValue(Path.GetFileName(path), out string? copy) ? copy : null;

    private Dictionary<string, string> FindSdkAnalyzers()
    {
        Dictionary<string, (Version Version, string Path)> found = new(PathUtil.Comparer);
        foreach (string root in this.TrustedRoots.Where(Directory.Exists))
        {
            try
            {
                foreach (string pack in Directory.EnumerateDirectories(root))
                {
                    foreach (string versionFolder in Directory.EnumerateDirectories(pack))
                    {
                        Version version = Version.TryParse(Path.GetFileName(versionFolder).Split('-')[0], out Version? parsed) ? parsed : new Version(0, 0);
                        foreach (string folder in new[] { Path.Combine(versionFolder, "analyzers", "dotnet", "cs"), Path.Combine(versionFolder, "analyzers", "dotnet") }.Where(Directory.Exists))
                        {
                            foreach (string file in Directory.EnumerateFiles(folder, "*.dll"))
                            {
                                string name = Path.GetFileName(file);
                                if (!found.TryGetValue(name, out (Version Version, string Path) known) || known.Version < version)
                                {
                                    found[name] = (version, file);
                                }
                            }
                        }
                    }
                }
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // An unreadable root ships nothing we can use.
            }
        }

        return found.ToDictionary(p => p.Key, p => p.Value.Path, PathUtil.Comparer);
    }

    /// <summary>Trust roots from the SDK inventory; package folders from NUGET_PACKAGES and the default location.</summary>
    public static AnalyzerTrust FromInstalledSdks()
    {
        string? root = SdkInventory.FindDotnetRoot();
        List<string> roots = [];
        if (root is not null)
        {
            roots.AddRange(SdkInventory.FindSdks(root).Select(s => s.Path));
            roots.Add(Path.Combine(root, "packs"));
        }

        return new AnalyzerTrust(roots, DefaultPackageFolders());
    }

    /// <summary>Where NuGet puts packages by default (for reporting origins, never for trust).</summary>
    public static List<string> DefaultPackageFolders()
    {
        List<string> folders = [];
        if (Environment.GetEnvironmentVariable("NUGET_PACKAGES") is { Length: > 0 } configured)
        {
            folders.Add(configured);
        }

        string home = Environment.GetFolderPath(Environment.SpecialFolder.UserProfile);
        if (home.Length > 0)
        {
            folders.Add(Path.Combine(home, ".nuget", "packages"));
        }

        return folders;
    }

    public bool IsTrusted(string? path)
    {
        if (string.IsNullOrEmpty(path) || !Path.IsPathFullyQualified(path))
        {
            return false;
        }

        string resolved = PathUtil.ResolveLinks(path);
        return this.TrustedRoots.Any(root => PathUtil.IsUnder(resolved, root));
    }

    /// <summary>Origin (and "id/version" for packages) of an untrusted analyzer path.</summary>
    public (AnalyzerOrigin Origin, string? Package) Classify(string path, string workspace, IEnumerable<string>? extraPackageFolders = null)
    {
        string full = Path.GetFullPath(path);
        foreach (string folder in this.PackageFolders.Concat(extraPackageFolders ?? []).Select(PathUtil.Normalize))
        {
            if (PathUtil.IsUnder(full, folder))
            {
                string[] parts = Path.GetRelativePath(folder, full).Split(Path.DirectorySeparatorChar);
                return (AnalyzerOrigin.Package, parts.Length >= 2 ? $"{parts[0]}/{parts[1]}" : null);
            }
        }

        return PathUtil.IsUnder(full, workspace) ? (AnalyzerOrigin.Project, null) : (AnalyzerOrigin.Other, null);
    }

    /// <summary>
    /// Removes every untrusted analyzer reference from every project of <paramref name="solution"/>; a
    /// package-supplied one the SDK also ships is replaced by the SDK's copy (or dropped when the project
    /// already has that copy).
    /// </summary>
    public AnalyzerFilterResult Filter(
        Solution solution,
        string workspace,
        Func<Project, string?> frameworkOf,
        IEnumerable<string>? extraPackageFolders = null)
    {
        List<AnalyzerExclusion> excluded = [];
        List<AnalyzerSubstitution> substituted = [];
        List<string> extra = extraPackageFolders?.ToList() ?? [];
        foreach (ProjectId projectId in solution.ProjectIds)
        {
            Project project = solution.GetProject(projectId)!;
            HashSet<string> present = new(project.AnalyzerReferences.Where(r => this.IsTrusted(r.FullPath)).Select(r => Path.GetFileName(r.FullPath!)), PathUtil.Comparer);
            foreach (AnalyzerReference reference in project.AnalyzerReferences)
            {
                if (this.IsTrusted(reference.FullPath))
                {
                    continue;
                }

                string path = reference.FullPath ?? reference.Display ?? "(unnamed analyzer)";
                (AnalyzerOrigin origin, string? package) = reference.FullPath is null ? (AnalyzerOrigin.Other, null) : this.Classify(path, workspace, extra);
                solution = solution.RemoveAnalyzerReference(projectId, reference);
                if (this.SdkCopyOf(reference.FullPath, origin) is { } copy && reference is AnalyzerFileReference file)
                {
                    if (present.Add(Path.GetFileName(copy)))
                    {
                        solution = solution.AddAnalyzerReference(projectId, new AnalyzerFileReference(copy, file.AssemblyLoader));
                    }

                    substituted.Add(new AnalyzerSubstitution(project.FilePath ?? project.Name, frameworkOf(project), path, copy, package));
                    continue;
                }

                excluded.Add(new AnalyzerExclusion(project.FilePath ?? project.Name, frameworkOf(project), path, origin, package));
            }
        }

        // Solution-level analyzer references (none from MSBuildWorkspace today) get the same rule.
        foreach (AnalyzerReference reference in solution.AnalyzerReferences.ToList())
        {
            if (!this.IsTrusted(reference.FullPath))
            {
                string path = reference.FullPath ?? reference.Display ?? "(unnamed analyzer)";
                (AnalyzerOrigin origin, string? package) = this.Classify(path, workspace, extra);
                excluded.Add(new AnalyzerExclusion(solution.FilePath ?? string.Empty, null, path, origin, package));
                solution = solution.RemoveAnalyzerReference(reference);
            }
        }

        return new AnalyzerFilterResult(solution, excluded, substituted);
    }
}
