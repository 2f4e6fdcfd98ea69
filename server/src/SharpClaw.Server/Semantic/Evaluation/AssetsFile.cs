using System.Text.Json;
using System.Text.Json.Serialization;

namespace SharpClaw.Server.Semantic.Evaluation;

/// <summary>A direct package dependency as restored for one framework.</summary>
public sealed record AssetsPackage(string Id, string? RequestedVersion, string? ResolvedVersion, string TargetFramework);

/// <summary>An analyzer assembly a restored package contributes (files under analyzers/ for C#).</summary>
public sealed record AssetsAnalyzer(string Path, string Package, string TargetFramework);

/// <summary>What SharpClaw reads from a project.assets.json.</summary>
public sealed record AssetsFileInfo(
    IReadOnlyList<string> TargetFrameworks,
    IReadOnlyList<AssetsPackage> Packages,
    IReadOnlyList<string> PackageFolders,
    IReadOnlyList<string> ConfigFilePaths,
    IReadOnlyList<AssetsAnalyzer> Analyzers)
{
    /// <summary>
    /// What the restore could not do, from the file's error logs: "NU1101 Jab" (the code and the package, never the
    /// message, which names package sources that may be folders of the person's machine). Empty when it restored whole.
    /// </summary>
    public IReadOnlyList<string> RestoreErrors { get; init; } = [];
}

/// <summary>
/// Reads NuGet's project.assets.json (format version 3/4) without NuGet's libraries: deserialized straight from
/// the file's bytes into the few sections SharpClaw needs (everything else is skipped by the reader). Not a
/// <see cref="JsonDocument"/>: a document rents buffers the size of the file (megabytes for a test project) from
/// the shared array pool, which keeps them after the parse.
/// </summary>
public static class AssetsFile
{
    /// <summary>Null when the file is missing or unreadable.</summary>
    public static AssetsFileInfo? TryRead(string? path)
    {
        if (path is null || !File.Exists(path))
        {
            return null;
        }

        try
        {
            byte[] bytes = File.ReadAllBytes(path);
            return JsonSerializer.Deserialize(bytes, AssetsJsonContext.Default.AssetsJson) is { } assets ? Read(assets) : null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or JsonException or NotSupportedException)
        {
            return null;
        }
    }

    private static AssetsFileInfo Read(AssetsJson root)
    {
        List<string> packageFolders = root.PackageFolders is { } folders ? [.. folders.Keys] : [];
        List<string> frameworks = [];
        List<AssetsPackage> packages = [];
        List<string> configFiles = [.. root.Project?.Restore?.ConfigFilePaths?.OfType<string>() ?? []];
        List<AssetsAnalyzer> analyzers = [];
        foreach ((string alias, AssetsJson.ProjectFramework? framework) in root.Project?.Frameworks ?? [])
        {
            frameworks.Add(alias);
            Dictionary<string, AssetsJson.TargetLibrary?>? target = FindTarget(root.Targets, alias, framework?.Framework ?? alias);
            foreach ((string id, AssetsJson.Dependency? dependency) in framework?.Dependencies ?? [])
            {
                packages.Add(new AssetsPackage(id, dependency?.Version, FindResolved(target, id), alias));
            }

            analyzers.AddRange(FindAnalyzers(target, root.Libraries, packageFolders, alias));
        }

        List<string> restoreErrors = [.. (root.Logs ?? [])
            .Where(log => string.Equals(log?.Level, "Error", StringComparison.OrdinalIgnoreCase))
            .Select(log => string.IsNullOrEmpty(log!.LibraryId) ? log.Code ?? "error" : $"{log.Code ?? "error"} {log.LibraryId}")
            .Distinct(StringComparer.Ordinal)];
        return new AssetsFileInfo(frameworks, packages, packageFolders, configFiles, analyzers) { RestoreErrors = restoreErrors };
    }

    private static Dictionary<string, AssetsJson.TargetLibrary?>? FindTarget(Dictionary<string, Dictionary<string, AssetsJson.TargetLibrary?>?>? targets, string alias, string frameworkName)
    {
        foreach ((string name, Dictionary<string, AssetsJson.TargetLibrary?>? target) in targets ?? [])
        {
            // Keys are "net10.0" (alias) in current NuGet, ".NETCoreApp,Version=v8.0" in older files; "/rid" for RID-specific graphs.
            if (!name.Contains('/', StringComparison.Ordinal)
                && (name.Equals(alias, StringComparison.OrdinalIgnoreCase) || name.Equals(frameworkName, StringComparison.OrdinalIgnoreCase)))
            {
                return target;
            }
        }

        return null;
    }

    private static bool IsPackage(AssetsJson.TargetLibrary? library) => library?.Type is null or "package";

    private static string? FindResolved(Dictionary<string, AssetsJson.TargetLibrary?>? target, string id)
    {
        foreach ((string name, AssetsJson.TargetLibrary? library) in target ?? [])
        {
            int slash = name.IndexOf('/', StringComparison.Ordinal);
            if (slash > 0 && name.AsSpan(0, slash).Equals(id, StringComparison.OrdinalIgnoreCase) && IsPackage(library))
            {
                return name[(slash + 1)..];
            }
        }

        return null;
    }

    private static IEnumerable<AssetsAnalyzer> FindAnalyzers(
        Dictionary<string, AssetsJson.TargetLibrary?>? target, Dictionary<string, AssetsJson.Library?>? libraries, List<string> packageFolders, string alias)
    {
        if (target is null || libraries is null || packageFolders.Count == 0)
        {
            yield break;
        }

        foreach ((string name, AssetsJson.TargetLibrary? library) in target)
        {
            if (!IsPackage(library) || libraries.GetValueOrDefault(name) is not { Path: { } packagePath, Files: { } files })
            {
                continue;
            }

            foreach (string? entry in files)
            {
                string file = entry ?? string.Empty;
                if (file.StartsWith("analyzers/", StringComparison.OrdinalIgnoreCase)
                    && file.EndsWith(".dll", StringComparison.OrdinalIgnoreCase)
                    && !file.Contains("/vb/", StringComparison.OrdinalIgnoreCase)
                    && !file.Contains("/fs/", StringComparison.OrdinalIgnoreCase)
                    && !file.EndsWith(".resources.dll", StringComparison.OrdinalIgnoreCase))
                {
                    string full = Path.GetFullPath(Path.Combine(packageFolders[0], packagePath, file));
                    yield return new AssetsAnalyzer(full, name, alias);
                }
            }
        }
    }
}

/// <summary>The parts of project.assets.json that <see cref="AssetsFile"/> reads; the reader skips the rest.</summary>
internal sealed class AssetsJson
{
    [JsonPropertyName("packageFolders")]
    public Dictionary<string, Nothing?>? PackageFolders { get; set; }

    [JsonPropertyName("targets")]
    public Dictionary<string, Dictionary<string, TargetLibrary?>?>? Targets { get; set; }

    [JsonPropertyName("libraries")]
    public Dictionary<string, Library?>? Libraries { get; set; }

    [JsonPropertyName("project")]
    public ProjectSection? Project { get; set; }

    /// <summary>NuGet's messages of the restore that wrote the file (errors when it could not restore everything).</summary>
    [JsonPropertyName("logs")]
    public List<LogMessage?>? Logs { get; set; }

    internal sealed class LogMessage
    {
        [JsonPropertyName("code")]
        public string? Code { get; set; }

        [JsonPropertyName("level")]
        public string? Level { get; set; }

        [JsonPropertyName("libraryId")]
        public string? LibraryId { get; set; }
    }

    /// <summary>An object whose content does not matter (a package folder's value).</summary>
    internal sealed class Nothing;

    internal sealed class TargetLibrary
    {
        [JsonPropertyName("type")]
        public string? Type { get; set; }
    }

    internal sealed class Library
    {
        [JsonPropertyName("path")]
        public string? Path { get; set; }

        [JsonPropertyName("files")]
        public List<string?>? Files { get; set; }
    }

    internal sealed class ProjectSection
    {
        [JsonPropertyName("restore")]
        public RestoreSection? Restore { get; set; }

        [JsonPropertyName("frameworks")]
        public Dictionary<string, ProjectFramework?>? Frameworks { get; set; }
    }

    internal sealed class RestoreSection
    {
        [JsonPropertyName("configFilePaths")]
        public List<string?>? ConfigFilePaths { get; set; }
    }

    internal sealed class ProjectFramework
    {
        [JsonPropertyName("framework")]
        public string? Framework { get; set; }

        [JsonPropertyName("dependencies")]
        public Dictionary<string, Dependency?>? Dependencies { get; set; }
    }

    internal sealed class Dependency
    {
        [JsonPropertyName("version")]
        public string? Version { get; set; }
    }
}

[JsonSourceGenerationOptions(AllowTrailingCommas = true, ReadCommentHandling = JsonCommentHandling.Skip)]
[JsonSerializable(typeof(AssetsJson))]
internal sealed partial class AssetsJsonContext : JsonSerializerContext;
