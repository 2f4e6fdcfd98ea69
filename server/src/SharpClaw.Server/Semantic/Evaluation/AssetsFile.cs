using System.Text.Json;

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
    IReadOnlyList<AssetsAnalyzer> Analyzers);

/// <summary>Reads NuGet's project.assets.json (format version 3/4) without NuGet's libraries.</summary>
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
            using FileStream stream = new(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
            using JsonDocument document = JsonDocument.Parse(stream);
            return Read(document.RootElement);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or JsonException)
        {
            return null;
        }
    }

    internal static AssetsFileInfo Read(JsonElement root)
    {
        List<string> packageFolders = [];
        if (root.TryGetProperty("packageFolders", out JsonElement folders) && folders.ValueKind == JsonValueKind.Object)
        {
            packageFolders.AddRange(folders.EnumerateObject().Select(f => f.Name));
        }

        List<string> frameworks = [];
        List<AssetsPackage> packages = [];
        List<string> configFiles = [];
        JsonElement targets = root.TryGetProperty("targets", out JsonElement t) && t.ValueKind == JsonValueKind.Object ? t : default;
        JsonElement libraries = root.TryGetProperty("libraries", out JsonElement l) && l.ValueKind == JsonValueKind.Object ? l : default;
        List<AssetsAnalyzer> analyzers = [];

        if (root.TryGetProperty("project", out JsonElement project) && project.ValueKind == JsonValueKind.Object)
        {
            if (project.TryGetProperty("restore", out JsonElement restore)
                && restore.TryGetProperty("configFilePaths", out JsonElement configs)
                && configs.ValueKind == JsonValueKind.Array)
            {
                configFiles.AddRange(configs.EnumerateArray().Where(c => c.ValueKind == JsonValueKind.String).Select(c => c.GetString()!));
            }

            if (project.TryGetProperty("frameworks", out JsonElement projectFrameworks) && projectFrameworks.ValueKind == JsonValueKind.Object)
            {
                foreach (JsonProperty framework in projectFrameworks.EnumerateObject())
                {
                    string alias = framework.Name;
                    frameworks.Add(alias);
                    string frameworkName = framework.Value.TryGetProperty("framework", out JsonElement fw) && fw.ValueKind == JsonValueKind.String
                        ? fw.GetString()!
                        : alias;
                    JsonElement target = FindTarget(targets, alias, frameworkName);
                    if (framework.Value.TryGetProperty("dependencies", out JsonElement dependencies) && dependencies.ValueKind == JsonValueKind.Object)
                    {
                        foreach (JsonProperty dependency in dependencies.EnumerateObject())
                        {
                            string? requested = dependency.Value.TryGetProperty("version", out JsonElement v) && v.ValueKind == JsonValueKind.String ? v.GetString() : null;
                            packages.Add(new AssetsPackage(dependency.Name, requested, FindResolved(target, dependency.Name), alias));
                        }
                    }

                    analyzers.AddRange(FindAnalyzers(target, libraries, packageFolders, alias));
                }
            }
        }

        return new AssetsFileInfo(frameworks, packages, packageFolders, configFiles, analyzers);
    }

    private static JsonElement FindTarget(JsonElement targets, string alias, string frameworkName)
    {
        if (targets.ValueKind != JsonValueKind.Object)
        {
            return default;
        }

        foreach (JsonProperty target in targets.EnumerateObject())
        {
            // Keys are "net10.0" (alias) in current NuGet, ".NETCoreApp,Version=v8.0" in older files; "/rid" for RID-specific graphs.
            if (!target.Name.Contains('/', StringComparison.Ordinal)
                && (target.Name.Equals(alias, StringComparison.OrdinalIgnoreCase) || target.Name.Equals(frameworkName, StringComparison.OrdinalIgnoreCase)))
            {
                return target.Value;
            }
        }

        return default;
    }

    private static string? FindResolved(JsonElement target, string id)
    {
        if (target.ValueKind != JsonValueKind.Object)
        {
            return null;
        }

        foreach (JsonProperty library in target.EnumerateObject())
        {
            int slash = library.Name.IndexOf('/', StringComparison.Ordinal);
            if (slash > 0 && library.Name.AsSpan(0, slash).Equals(id, StringComparison.OrdinalIgnoreCase)
                && (!library.Value.TryGetProperty("type", out JsonElement type) || type.GetString() == "package"))
            {
                return library.Name[(slash + 1)..];
            }
        }

        return null;
    }

    private static IEnumerable<AssetsAnalyzer> FindAnalyzers(JsonElement target, JsonElement libraries, List<string> packageFolders, string alias)
    {
        if (target.ValueKind != JsonValueKind.Object || libraries.ValueKind != JsonValueKind.Object || packageFolders.Count == 0)
        {
            yield break;
        }

        foreach (JsonProperty library in target.EnumerateObject())
        {
            if (library.Value.TryGetProperty("type", out JsonElement type) && type.GetString() != "package")
            {
                continue;
            }

            if (!libraries.TryGetProperty(library.Name, out JsonElement info)
                || !info.TryGetProperty("path", out JsonElement pathElement)
                || !info.TryGetProperty("files", out JsonElement files)
                || files.ValueKind != JsonValueKind.Array)
            {
                continue;
            }

            string packagePath = pathElement.GetString() ?? string.Empty;
            foreach (JsonElement file in files.EnumerateArray())
            {
                string name = file.GetString() ?? string.Empty;
                if (name.StartsWith("analyzers/", StringComparison.OrdinalIgnoreCase)
                    && name.EndsWith(".dll", StringComparison.OrdinalIgnoreCase)
                    && !name.Contains("/vb/", StringComparison.OrdinalIgnoreCase)
                    && !name.Contains("/fs/", StringComparison.OrdinalIgnoreCase)
                    && !name.EndsWith(".resources.dll", StringComparison.OrdinalIgnoreCase))
                {
                    string full = Path.GetFullPath(Path.Combine(packageFolders[0], packagePath, name));
                    yield return new AssetsAnalyzer(full, library.Name, alias);
                }
            }
        }
    }
}
