using System.Text.RegularExpressions;
using System.Xml;
using System.Xml.Linq;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Fingerprints;

/// <summary>An Import whose path depends on properties or wildcards, so no fingerprint can pin what it resolves to.</summary>
/// <param name="File">The project-authored file that contains the Import.</param>
/// <param name="Expression">The Project attribute as written.</param>
public sealed record DynamicImport(string File, string Expression);

/// <summary>The build files one project's evaluation depends on, as far as they can be known without evaluating.</summary>
/// <param name="Imports">Existing project-authored files in the import closure (not the project itself).</param>
/// <param name="WatchedPaths">Every path whose content or existence matters (imports, candidates of upward
/// searches such as Directory.Build.props in every ancestor folder, the .user file), existing or not.</param>
/// <param name="DynamicImports">Imports that cannot be pinned.</param>
public sealed record ProjectImports(IReadOnlyList<string> Imports, IReadOnlyList<string> WatchedPaths, IReadOnlyList<DynamicImport> DynamicImports);

/// <summary>
/// Follows Import elements of project-authored build files statically, without MSBuild:
/// <list type="bullet">
/// <item>literal paths are followed recursively (also outside the workspace);</item>
/// <item>paths that use only MSBuild's reserved, unchangeable properties ($(MSBuildThisFileDirectory),
/// $(MSBuildProjectDirectory), ...) are literal too, and so is the common
/// $([MSBuild]::GetPathOfFileAbove('name', ...)) / GetDirectoryNameOfFileAbove form when its arguments are;
/// every folder such a search looks in is watched;</item>
/// <item>anything else with $( @( %( or a wildcard is a <see cref="DynamicImport"/>.</item>
/// </list>
/// The SDK's own imports (Sdk attributes, files under the dotnet root or a NuGet packages folder) are
/// not scanned: they do not change while the SDK and package versions stay the same, and those are
/// pinned by global.json, the SDK inventory and the restore assets.
/// </summary>
public sealed partial class ImportScanner(IReadOnlyList<string> trustedRoots)
{
    private static readonly string[] WellKnownAboveProject = ["Directory.Build.props", "Directory.Build.targets", "Directory.Packages.props"];

    private readonly Dictionary<string, List<(string Expression, string Condition)>?> parsed = new(PathUtil.Comparer);

    public ProjectImports Scan(string projectPath)
    {
        string projectDirectory = Path.GetDirectoryName(projectPath)!;
        HashSet<string> watched = new(PathUtil.Comparer);
        List<string> imports = [];
        HashSet<string> visited = new(PathUtil.Comparer);
        List<DynamicImport> dynamic = [];
        Queue<string> queue = new();

        void Enqueue(string file)
        {
            watched.Add(file);
            if (File.Exists(file) && visited.Add(file))
            {
                queue.Enqueue(file);
            }
        }

        Enqueue(projectPath);

        // What the SDK imports by searching upward from the project folder: the first match is
        // imported, and a new file in any folder between would change that, so watch them all.
        foreach (string name in WellKnownAboveProject)
        {
            string? first = null;
            foreach (string directory in SelfAndAncestors(projectDirectory))
            {
                string candidate = Path.Combine(directory, name);
                watched.Add(candidate);
                if (first is null && File.Exists(candidate))
                {
                    first = candidate;
                }
            }

            if (first is not null)
            {
                Enqueue(first);
            }
        }

        Enqueue(projectPath + ".user");

        while (queue.Count > 0)
        {
            string file = queue.Dequeue();
            if (!PathUtil.Comparer.Equals(file, projectPath))
            {
                imports.Add(file);
            }

            if (this.IsTrusted(file))
            {
                continue;
            }

            if (this.ReadImports(file) is not { } fileImports)
            {
                // Not read (a FIFO, device, socket or an oversized file): what it imports is unknown, so
                // like a property-driven import it needs fresh authorization on every call.
                dynamic.Add(new DynamicImport(file, "(not read: a FIFO, device, socket or a file over 1 MiB)"));
                continue;
            }

            foreach ((string expression, _) in fileImports)
            {
                foreach (string part in expression.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
                {
                    if (this.TryResolve(part, file, projectPath, watched) is { } resolved)
                    {
                        if (resolved.Length > 0)
                        {
                            Enqueue(resolved);
                        }
                    }
                    else
                    {
                        dynamic.Add(new DynamicImport(file, part));
                    }
                }
            }
        }

        return new ProjectImports(imports, [.. watched], dynamic);
    }

    /// <summary>Null when dynamic; "" when it resolves to nothing (an upward search that found no file).</summary>
    private string? TryResolve(string expression, string file, string projectPath, HashSet<string> watched)
    {
        string thisDirectory = Path.GetDirectoryName(file)!;
        string substituted = SubstituteReserved(expression, file, projectPath);

        Match above = PathOfFileAboveRegex().Match(substituted);
        if (above.Success)
        {
            string start = above.Groups["start"].Success ? above.Groups["start"].Value : thisDirectory;
            return IsLiteral(start) && IsLiteral(above.Groups["name"].Value)
                ? SearchUpward(above.Groups["name"].Value, Path.Combine(thisDirectory, start), watched)
                : null;
        }

        Match directoryAbove = DirectoryNameOfFileAboveRegex().Match(substituted);
        if (directoryAbove.Success)
        {
            string start = directoryAbove.Groups["start"].Value;
            string name = directoryAbove.Groups["name"].Value;
            string rest = directoryAbove.Groups["rest"].Value;
            if (!IsLiteral(start) || !IsLiteral(name) || !IsLiteral(rest))
            {
                return null;
            }

            string found = SearchUpward(name, Path.Combine(thisDirectory, start), watched);
            return found.Length == 0 ? string.Empty : PathUtil.Normalize(Path.Combine(Path.GetDirectoryName(found)!, rest));
        }

        if (!IsLiteral(substituted))
        {
            return null;
        }

        return PathUtil.Normalize(Path.Combine(thisDirectory, substituted.Replace('\\', Path.DirectorySeparatorChar)));
    }

    private static bool IsLiteral(string value) =>
        !value.Contains("$(", StringComparison.Ordinal)
        && !value.Contains("@(", StringComparison.Ordinal)
        && !value.Contains("%(", StringComparison.Ordinal)
        && value.IndexOfAny(['*', '?']) < 0;

    private static string SearchUpward(string name, string start, HashSet<string> watched)
    {
        string found = string.Empty;
        foreach (string directory in SelfAndAncestors(PathUtil.Normalize(start.Replace('\\', Path.DirectorySeparatorChar))))
        {
            string candidate = Path.Combine(directory, name);
            watched.Add(candidate);
            if (found.Length == 0 && File.Exists(candidate))
            {
                found = candidate;
            }
        }

        return found;
    }

    private static string SubstituteReserved(string expression, string file, string projectPath)
    {
        if (!expression.Contains("$(", StringComparison.Ordinal))
        {
            return expression;
        }

        string thisDirectory = Path.GetDirectoryName(file)! + Path.DirectorySeparatorChar;
        return ReservedPropertyRegex().Replace(expression, match => match.Groups[1].Value.ToUpperInvariant() switch
        {
            "MSBUILDTHISFILEDIRECTORY" => thisDirectory,
            "MSBUILDTHISFILEFULLPATH" => file,
            "MSBUILDTHISFILE" => Path.GetFileName(file),
            "MSBUILDTHISFILENAME" => Path.GetFileNameWithoutExtension(file),
            "MSBUILDTHISFILEEXTENSION" => Path.GetExtension(file),
            "MSBUILDPROJECTDIRECTORY" => Path.GetDirectoryName(projectPath)!,
            "MSBUILDPROJECTFULLPATH" => projectPath,
            "MSBUILDPROJECTFILE" => Path.GetFileName(projectPath),
            "MSBUILDPROJECTNAME" => Path.GetFileNameWithoutExtension(projectPath),
            "MSBUILDPROJECTEXTENSION" => Path.GetExtension(projectPath),
            _ => match.Value,
        });
    }

    /// <summary>The file's imports, or null when it is not a regular file of a bounded size (never opened, see <see cref="BoundedFileRead"/>).</summary>
    private List<(string Expression, string Condition)>? ReadImports(string file)
    {
        if (this.parsed.TryGetValue(file, out List<(string, string)>? cached))
        {
            return cached;
        }

        List<(string, string)>? imports = [];
        byte[]? bytes = BoundedFileRead.ReadBytes(file, BoundedFileRead.MaxProjectFileBytes, out BoundedFileRead.Refusal refusal);
        if (bytes is null)
        {
            // Gone or unreadable: MSBuild reports it and the file stays watched. Anything else is not read.
            imports = refusal == BoundedFileRead.Refusal.Missing ? [] : null;
        }
        else
        {
            try
            {
                XDocument document = XDocument.Load(new MemoryStream(bytes), LoadOptions.None);
                imports = document.Descendants()
                    .Where(e => e.Name.LocalName == "Import" && e.Attribute("Sdk") is null && e.Attribute("Project") is not null)
                    .Select(e => (e.Attribute("Project")!.Value.Trim(), e.Attribute("Condition")?.Value ?? string.Empty))
                    .ToList();
            }
            catch (XmlException)
            {
                // Malformed: MSBuild reports it; the file itself stays watched.
            }
        }

        this.parsed[file] = imports;
        return imports;
    }

    private bool IsTrusted(string file) => trustedRoots.Any(root => PathUtil.IsUnder(file, root));

    private static IEnumerable<string> SelfAndAncestors(string directory)
    {
        for (DirectoryInfo? current = new(directory); current is not null; current = current.Parent)
        {
            yield return current.FullName;
        }
    }

    [GeneratedRegex(@"\$\((MSBuildThisFileDirectory|MSBuildThisFileFullPath|MSBuildThisFileName|MSBuildThisFileExtension|MSBuildThisFile|MSBuildProjectDirectory|MSBuildProjectFullPath|MSBuildProjectFile|MSBuildProjectName|MSBuildProjectExtension)\)", RegexOptions.IgnoreCase)]
    private static partial Regex ReservedPropertyRegex();

    [GeneratedRegex(@"^\$\(\[MSBuild\]::GetPathOfFileAbove\(\s*'?(?<name>[^',()]+?)'?\s*(?:,\s*'?(?<start>[^'()]+?)'?\s*)?\)\)$", RegexOptions.IgnoreCase)]
    private static partial Regex PathOfFileAboveRegex();

    [GeneratedRegex(@"^\$\(\[MSBuild\]::GetDirectoryNameOfFileAbove\(\s*'?(?<start>[^',()]+?)'?\s*,\s*'?(?<name>[^'()]+?)'?\s*\)\)[/\\](?<rest>.+)$", RegexOptions.IgnoreCase)]
    private static partial Regex DirectoryNameOfFileAboveRegex();
}
