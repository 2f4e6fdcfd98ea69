using SharpClaw.Server.Semantic;

namespace SharpClaw.Server.Store;

/// <summary>One C# file of the workspace as the walker saw it.</summary>
internal sealed record WorkspaceFile(string FullPath, string RelativePath, long Size, long ModifiedTicks);

/// <summary>
/// Lists the workspace's <c>*.cs</c> files for the syntax index: every folder below the root except <c>bin</c>,
/// <c>obj</c> and <c>.git</c>, honouring every <c>.gitignore</c> on the way (<see cref="GitIgnore"/>). Links to
/// folders are not followed (they could lead outside the workspace); folders that cannot be read are skipped.
/// Reads only names and sizes: nothing of the project is evaluated.
/// </summary>
internal static class WorkspaceFiles
{
    private static readonly HashSet<string> SkippedFolders = new(StringComparer.OrdinalIgnoreCase) { "bin", "obj", ".git" };

    public static List<WorkspaceFile> List(string workspace, CancellationToken cancellationToken)
    {
        List<WorkspaceFile> files = [];
        Walk(workspace, string.Empty, [], files, cancellationToken);
        files.Sort((a, b) => string.CompareOrdinal(a.RelativePath, b.RelativePath));
        return files;
    }

    private static void Walk(string folder, string relative, List<GitIgnore> rules, List<WorkspaceFile> files, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        GitIgnore? own = GitIgnore.Load(Path.Combine(folder, ".gitignore"), relative);
        List<GitIgnore> active = own is null ? rules : [.. rules, own];
        IEnumerable<FileSystemInfo> entries;
        try
        {
            entries = new DirectoryInfo(folder).EnumerateFileSystemInfos("*", new EnumerationOptions { IgnoreInaccessible = true, AttributesToSkip = 0, RecurseSubdirectories = false }).ToList();
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return;
        }

        foreach (FileSystemInfo entry in entries)
        {
            string entryRelative = relative.Length == 0 ? entry.Name : relative + "/" + entry.Name;
            bool isLink = entry.LinkTarget is not null;
            if (entry is DirectoryInfo)
            {
                if (isLink || SkippedFolders.Contains(entry.Name) || Ignored(active, entryRelative, isDirectory: true))
                {
                    continue;
                }

                Walk(entry.FullName, entryRelative, active, files, cancellationToken);
            }
            else if (entry is FileInfo file && !isLink && entry.Name.EndsWith(".cs", StringComparison.OrdinalIgnoreCase) && !Ignored(active, entryRelative, isDirectory: false))
            {
                files.Add(new WorkspaceFile(PathUtil.Normalize(file.FullName), entryRelative, file.Length, file.LastWriteTimeUtc.Ticks));
            }
        }
    }

    /// <summary>The last decision of the innermost .gitignore that mentions the path (git's precedence).</summary>
    private static bool Ignored(List<GitIgnore> rules, string relative, bool isDirectory)
    {
        for (int i = rules.Count - 1; i >= 0; i--)
        {
            if (rules[i].Decide(relative, isDirectory) is bool decision)
            {
                return decision;
            }
        }

        return false;
    }
}
