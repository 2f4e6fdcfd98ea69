using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Toolchain;

namespace SharpClaw.Server.Semantic.Loading;

/// <summary>An analyzer/generator removed from one project compilation (full paths).</summary>
public sealed record AnalyzerExclusion(string ProjectPath, string? TargetFramework, string AnalyzerPath, AnalyzerOrigin Origin, string? Package);

/// <summary>
/// Decides which analyzers and source generators may run inside the host. Trusted are only assemblies
/// under the installed .NET SDK inventory: &lt;dotnet root&gt;/sdk/&lt;version&gt;/ of an installed SDK and
/// &lt;dotnet root&gt;/packs/ (the reference packs that carry System.Text.Json, GeneratedRegex, LoggerMessage
/// (ASP.NET Core pack), interop generators, ...). The roots come from the host's own view of the
/// installation, never from project properties. Everything else — NuGet packages, project outputs,
/// arbitrary paths — is removed from the loaded solution and reported.
/// </summary>
public sealed class AnalyzerTrust
{
    public AnalyzerTrust(IReadOnlyList<string> trustedRoots, IReadOnlyList<string> packageFolders)
    {
        this.TrustedRoots = trustedRoots.Select(r => PathUtil.ResolveLinks(r)).Distinct(PathUtil.Comparer).ToList();
        this.PackageFolders = packageFolders.Select(PathUtil.Normalize).Distinct(PathUtil.Comparer).ToList();
    }

    public IReadOnlyList<string> TrustedRoots { get; }

    public IReadOnlyList<string> PackageFolders { get; }

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

    /// <summary>Removes every untrusted analyzer reference from every project of <paramref name="solution"/>.</summary>
    public (Solution Solution, List<AnalyzerExclusion> Excluded) Filter(
        Solution solution,
        string workspace,
        Func<Project, string?> frameworkOf,
        IEnumerable<string>? extraPackageFolders = null)
    {
        List<AnalyzerExclusion> excluded = [];
        List<string> extra = extraPackageFolders?.ToList() ?? [];
        foreach (ProjectId projectId in solution.ProjectIds)
        {
            Project project = solution.GetProject(projectId)!;
            foreach (AnalyzerReference reference in project.AnalyzerReferences)
            {
                if (this.IsTrusted(reference.FullPath))
                {
                    continue;
                }

                string path = reference.FullPath ?? reference.Display ?? "(unnamed analyzer)";
                (AnalyzerOrigin origin, string? package) = reference.FullPath is null ? (AnalyzerOrigin.Other, null) : this.Classify(path, workspace, extra);
                excluded.Add(new AnalyzerExclusion(project.FilePath ?? project.Name, frameworkOf(project), path, origin, package));
                solution = solution.RemoveAnalyzerReference(projectId, reference);
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

        return (solution, excluded);
    }
}
