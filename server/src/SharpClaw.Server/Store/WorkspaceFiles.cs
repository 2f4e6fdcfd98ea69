using System.IO.Enumeration;

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
        // Breadth first, the folders of one depth in parallel: listing a folder stats each entry, which is most
        // of a query's cost on a large workspace, and every query walks (the spec rules out watchers).
        List<WorkspaceFile> files = [];
        List<Folder> level = [new Folder(workspace, string.Empty, [])];
        ParallelOptions options = new() { CancellationToken = cancellationToken };
        while (level.Count > 0)
        {
            (List<WorkspaceFile> Files, List<Folder> Subfolders)[] listed = new (List<WorkspaceFile>, List<Folder>)[level.Count];
            Parallel.For(0, level.Count, options, i => listed[i] = ListFolder(level[i]));
            level = [];
            foreach ((List<WorkspaceFile> folderFiles, List<Folder> subfolders) in listed)
            {
                files.AddRange(folderFiles);
                level.AddRange(subfolders);
            }
        }

        files.Sort((a, b) => string.CompareOrdinal(a.RelativePath, b.RelativePath));
        return files;
    }

    private static (List<WorkspaceFile> Files, List<Folder> Subfolders) ListFolder(Folder folder)
    {
        List<WorkspaceFile> files = [];
        List<Folder> subfolders = [];
        GitIgnore? own = GitIgnore.Load(Path.Combine(folder.Path, ".gitignore"), folder.Relative);
        List<GitIgnore> active = own is null ? folder.Rules : [.. folder.Rules, own];
        List<Entry> entries;
        try
        {
            // One pass over the folder's entries: names and types from the listing, size and write time from one stat each.
            entries = [.. new FileSystemEnumerable<Entry>(
                folder.Path,
                (ref FileSystemEntry e) => new Entry(e.FileName.ToString(), e.IsDirectory, (e.Attributes & FileAttributes.ReparsePoint) != 0, e.Length, e.LastWriteTimeUtc.UtcTicks),
                new EnumerationOptions { IgnoreInaccessible = true, AttributesToSkip = 0, RecurseSubdirectories = false })];
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return (files, subfolders);
        }

        foreach (Entry entry in entries)
        {
            string entryRelative = folder.Relative.Length == 0 ? entry.Name : folder.Relative + "/" + entry.Name;
            if (entry.IsDirectory)
            {
                if (!entry.IsLink && !SkippedFolders.Contains(entry.Name) && !Ignored(active, entryRelative, isDirectory: true))
                {
                    subfolders.Add(new Folder(Path.Combine(folder.Path, entry.Name), entryRelative, active));
                }
            }
            else if (!entry.IsLink && entry.Name.EndsWith(".cs", StringComparison.OrdinalIgnoreCase) && !Ignored(active, entryRelative, isDirectory: false))
            {
                files.Add(new WorkspaceFile(Path.Combine(folder.Path, entry.Name), entryRelative, entry.Length, entry.ModifiedTicks));
            }
        }

        return (files, subfolders);
    }

    /// <summary>A folder to list, with the .gitignore rules of the folders above it.</summary>
    private sealed record Folder(string Path, string Relative, List<GitIgnore> Rules);

    private readonly record struct Entry(string Name, bool IsDirectory, bool IsLink, long Length, long ModifiedTicks);

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
