using Microsoft.CodeAnalysis;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Symbols;

/// <summary>A file argument resolved to one workspace file.</summary>
/// <param name="Relative">Workspace-relative path (forward slashes; absolute outside the workspace).</param>
/// <param name="FullPath">Absolute path.</param>
/// <param name="BySuffix">True when the argument was a file name or path suffix rather than the path itself.</param>
internal sealed record ResolvedFile(string Relative, string FullPath, bool BySuffix)
{
    /// <summary>The <c>resolvedFile</c> a result carries: the path when a suffix was used, else null.</summary>
    public string? Reported => this.BySuffix ? this.Relative : null;
}

/// <summary>
/// The one file-argument rule of every read tool: the exact workspace-relative (or absolute, inside the
/// workspace) path, else a unique whole-path-segment suffix (<c>Calculator.cs</c>, <c>Math/Calculator.cs</c>)
/// among the workspace's files (project documents and C# files on disk). Several matches give
/// <c>ambiguous_file</c> with up to 20 paths; none gives <c>InvalidRequest</c>.
/// </summary>
internal static class FileResolver
{
    public const int MaxAmbiguous = 20;

    public static ResolvedFile Resolve(Solution solution, string workspace, string path)
    {
        string wanted = path.Trim().Replace('\\', '/');
        if (wanted.Length == 0)
        {
            throw SemanticException.InvalidRequest("The file argument is empty.");
        }

        string full = Path.GetFullPath(Path.IsPathRooted(wanted) ? wanted : Path.Combine(workspace, wanted));
        if (HoldsExactly(solution, full) || (PathUtil.IsUnder(full, workspace) && File.Exists(full)))
        {
            return new ResolvedFile(PathUtil.ToWorkspaceRelative(workspace, full), full, false);
        }

        if (Path.IsPathRooted(wanted))
        {
            throw SemanticException.InvalidRequest($"No workspace file is at '{path}'.");
        }

        string suffix = "/" + wanted.TrimStart('/');
        IEnumerable<string> documents = solution.Projects.SelectMany(p => p.Documents).Select(d => d.FilePath).OfType<string>();
        List<string> matches = [.. documents.Concat(DiskFiles(workspace))
            .Distinct(PathUtil.Comparer)
            .Select(f => PathUtil.ToWorkspaceRelative(workspace, f))
            .Where(relative => ("/" + relative).EndsWith(suffix, PathUtil.Comparison))
            .Distinct(PathUtil.Comparer)
            .Order(StringComparer.Ordinal)];
        if (matches.Count == 1)
        {
            return new ResolvedFile(matches[0], Path.GetFullPath(Path.Combine(workspace, matches[0])), true);
        }

        if (matches.Count > 1)
        {
            throw Ambiguous(path, matches);
        }

        throw SemanticException.InvalidRequest($"No workspace file matches '{path}'. Give a workspace-relative path, a file name or a path suffix of whole segments such as Core/Calculator.cs.");
    }

    public static SemanticException Ambiguous(string path, IReadOnlyList<string> matches) =>
        new(new SemanticErrorData(
            SemanticErrorKind.AmbiguousFile,
            $"'{path}' matches {matches.Count} files. Send one of these paths as the file argument.",
            [.. matches.Take(MaxAmbiguous)],
            null,
            null));

    /// <summary>The documents of <paramref name="resolved"/> in the given projects (one per compilation), possibly none.</summary>
    public static List<Document> Documents(IEnumerable<Project> projects, ResolvedFile resolved)
    {
        List<Project> candidates = [.. projects];
        if (candidates.Count > 0 && candidates[0].Solution.GetDocumentIdsWithFilePath(resolved.FullPath) is { IsEmpty: false } ids)
        {
            // Roslyn's path index names the projects that hold the file, so only their documents are listed (a
            // warm query on 200 projects no longer walks every document of the solution).
            HashSet<ProjectId> holding = [.. ids.Select(id => id.ProjectId)];
            candidates = candidates.FindAll(p => holding.Contains(p.Id));
        }

        return [.. candidates.SelectMany(p => p.Documents).Where(d => d.FilePath is { } f && PathUtil.Comparer.Equals(f, resolved.FullPath))];
    }

    /// <summary>
    /// True when a document of the solution has exactly this path: Roslyn's path index (case-insensitive, so it finds
    /// every candidate) narrowed by the path rule, with no walk over every document.
    /// </summary>
    private static bool HoldsExactly(Solution solution, string full) => SolutionPaths.DocumentIdsAt(solution, full).Any(id => solution.GetDocument(id) is not null);


    /// <summary>
    /// .cs/.csx files under the workspace (bin, obj, artifacts, node_modules and dot folders skipped;
    /// unreadable folders skipped), stopping after <paramref name="maxFilesSeen"/> files of any kind.
    /// </summary>
    internal static IEnumerable<string> DiskFiles(string workspace, int maxFilesSeen = 100_000)
    {
        Stack<string> folders = new([workspace]);
        int seen = 0;
        while (folders.Count > 0 && seen < maxFilesSeen)
        {
            string folder = folders.Pop();
            List<string> files = [];
            try
            {
                foreach (string directory in Directory.EnumerateDirectories(folder))
                {
                    string name = Path.GetFileName(directory);
                    if (name is not ("bin" or "obj" or "artifacts" or "node_modules") && !name.StartsWith('.'))
                    {
                        folders.Push(directory);
                    }
                }

                foreach (string file in Directory.EnumerateFiles(folder))
                {
                    seen++;
                    if (file.EndsWith(".cs", StringComparison.OrdinalIgnoreCase) || file.EndsWith(".csx", StringComparison.OrdinalIgnoreCase))
                    {
                        files.Add(file);
                    }
                }
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // Unreadable folder: skipped.
            }

            foreach (string file in files)
            {
                yield return file;
            }
        }
    }
}
