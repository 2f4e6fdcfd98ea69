using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Discovery;

/// <summary>Solution or project.</summary>
public enum TargetKind
{
    Solution,
    Project,
}

/// <summary>A resolved target: the workspace (normalized, as given) and the full path of the target file.</summary>
public sealed record TargetSelection(string Workspace, string TargetPath, TargetKind Kind)
{
    /// <summary>Workspace-relative target path with forward slashes.</summary>
    public string RelativeTarget => PathUtil.ToWorkspaceRelative(this.Workspace, this.TargetPath);
}

/// <summary>Lists folders; replaceable so tests can simulate folders that cannot be read.</summary>
public interface IDirectoryLister
{
    IEnumerable<string> EnumerateFiles(string directory);

    IEnumerable<string> EnumerateDirectories(string directory);
}

/// <summary>The real file system.</summary>
public sealed class FileSystemDirectoryLister : IDirectoryLister
{
    public static FileSystemDirectoryLister Instance { get; } = new();

    public IEnumerable<string> EnumerateFiles(string directory) => Directory.EnumerateFiles(directory);

    public IEnumerable<string> EnumerateDirectories(string directory) => Directory.EnumerateDirectories(directory);
}

/// <summary>
/// Chooses what to load without executing anything: an explicit target (which must lie inside the
/// workspace), else the one top-level .sln/.slnx, else the one top-level .csproj.
/// </summary>
public static class TargetDiscovery
{
    private const int NestedSearchDepth = 4;
    private const int MaxNestedCandidates = 20;

    private static readonly HashSet<string> SkippedFolders = new(StringComparer.OrdinalIgnoreCase)
    {
        "bin", "obj", "node_modules", "artifacts", "packages", "TestResults",
    };

    public static bool IsSolutionFile(string path) =>
        path.EndsWith(".sln", StringComparison.OrdinalIgnoreCase) || path.EndsWith(".slnx", StringComparison.OrdinalIgnoreCase);

    public static bool IsProjectFile(string path) => path.EndsWith(".csproj", StringComparison.OrdinalIgnoreCase);

    /// <summary>Validates the workspace folder and returns it normalized.</summary>
    public static string ValidateWorkspace(string? workspace)
    {
        if (string.IsNullOrWhiteSpace(workspace))
        {
            throw SemanticException.InvalidRequest("'workspace' is required: the absolute path of the workspace folder.");
        }

        if (!Path.IsPathFullyQualified(workspace))
        {
            throw SemanticException.InvalidRequest($"'workspace' must be an absolute path, not '{workspace}'.");
        }

        string normalized = PathUtil.Normalize(workspace);
        if (!Directory.Exists(normalized))
        {
            throw SemanticException.InvalidRequest($"The workspace folder '{normalized}' does not exist.");
        }

        return normalized;
    }

    public static TargetSelection Resolve(string? workspace, string? target, IDirectoryLister? lister = null)
    {
        lister ??= FileSystemDirectoryLister.Instance;
        string root = ValidateWorkspace(workspace);
        if (string.IsNullOrWhiteSpace(target))
        {
            return DiscoverIn(root, root, lister);
        }

        string full = PathUtil.Normalize(Path.IsPathFullyQualified(target) ? target : Path.Combine(root, target));
        if (!PathUtil.IsUnder(full, root) || !PathUtil.IsUnder(PathUtil.ResolveLinks(full), PathUtil.ResolveLinks(root)))
        {
            throw SemanticException.InvalidRequest(
                $"The target '{target}' is outside the workspace '{root}'. Pass a .sln, .slnx or .csproj inside the workspace.");
        }

        if (Directory.Exists(full))
        {
            return DiscoverIn(root, full, lister);
        }

        if (!IsSolutionFile(full) && !IsProjectFile(full))
        {
            throw SemanticException.InvalidRequest(
                $"The target '{PathUtil.ToWorkspaceRelative(root, full)}' is not a .sln, .slnx or .csproj file.");
        }

        if (!File.Exists(full))
        {
            throw SemanticException.InvalidRequest($"The target '{PathUtil.ToWorkspaceRelative(root, full)}' does not exist.");
        }

        return new TargetSelection(root, full, IsSolutionFile(full) ? TargetKind.Solution : TargetKind.Project);
    }

    private static TargetSelection DiscoverIn(string root, string folder, IDirectoryLister lister)
    {
        List<string> files;
        try
        {
            files = [.. lister.EnumerateFiles(folder)];
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw SemanticException.InvalidRequest($"Cannot read the folder '{folder}': {ex.Message}");
        }

        string where = PathUtil.ToWorkspaceRelative(root, folder);
        where = where == "." ? "the top of the workspace" : $"'{where}'";
        List<string> solutions = files.Where(IsSolutionFile).Order(PathUtil.Comparer).ToList();
        if (solutions.Count == 1)
        {
            return new TargetSelection(root, PathUtil.Normalize(solutions[0]), TargetKind.Solution);
        }

        if (solutions.Count > 1)
        {
            List<string> candidates = solutions.ConvertAll(s => PathUtil.ToWorkspaceRelative(root, s));
            throw SemanticException.TargetAmbiguous(
                $"There are {solutions.Count} solutions at {where} ({string.Join(", ", candidates)}). Pass 'target' to choose one.",
                candidates);
        }

        List<string> projects = files.Where(IsProjectFile).Order(PathUtil.Comparer).ToList();
        if (projects.Count == 1)
        {
            return new TargetSelection(root, PathUtil.Normalize(projects[0]), TargetKind.Project);
        }

        if (projects.Count > 1)
        {
            List<string> candidates = projects.ConvertAll(p => PathUtil.ToWorkspaceRelative(root, p));
            throw SemanticException.TargetAmbiguous(
                $"There is no solution but {projects.Count} projects at {where} ({string.Join(", ", candidates)}). Pass 'target' to choose one.",
                candidates);
        }

        List<string> nested = FindNested(root, folder, lister);
        string hint = nested.Count == 0
            ? "No .sln, .slnx or .csproj was found in the folders below either."
            : $"Nested candidates: {string.Join(", ", nested)}. Pass one as 'target'.";
        throw SemanticException.NoTarget($"There is no .sln, .slnx or .csproj at {where}. {hint}", nested);
    }

    /// <summary>
    /// Breadth-first search below <paramref name="folder"/> for solutions/projects to suggest. Folders that
    /// cannot be read (permissions, races) are skipped: they are unrelated to the request.
    /// </summary>
    private static List<string> FindNested(string root, string folder, IDirectoryLister lister)
    {
        List<string> found = [];
        Queue<(string Path, int Depth)> queue = new();
        foreach (string child in SafeDirectories(folder, lister))
        {
            queue.Enqueue((child, 1));
        }

        while (queue.Count > 0 && found.Count < MaxNestedCandidates)
        {
            (string directory, int depth) = queue.Dequeue();
            List<string> files;
            try
            {
                files = [.. lister.EnumerateFiles(directory)];
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                continue;
            }

            List<string> here = files.Where(f => IsSolutionFile(f) || IsProjectFile(f)).Order(PathUtil.Comparer).ToList();
            found.AddRange(here.Select(f => PathUtil.ToWorkspaceRelative(root, f)));
            if (depth < NestedSearchDepth)
            {
                foreach (string child in SafeDirectories(directory, lister))
                {
                    queue.Enqueue((child, depth + 1));
                }
            }
        }

        return found.Take(MaxNestedCandidates).ToList();
    }

    private static IEnumerable<string> SafeDirectories(string directory, IDirectoryLister lister)
    {
        List<string> children;
        try
        {
            children = [.. lister.EnumerateDirectories(directory)];
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return [];
        }

        return children
            .Where(d => Path.GetFileName(d) is { Length: > 0 } name && name[0] != '.' && !SkippedFolders.Contains(name))
            .Order(PathUtil.Comparer);
    }
}
