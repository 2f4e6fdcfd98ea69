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
        List<Entry> entries;
        try
        {
            // One pass over the folder's entries with what the OS already returned (no stat or readlink per file).
            entries = [.. new FileSystemEnumerable<Entry>(
                folder,
                (ref FileSystemEntry e) => new Entry(e.FileName.ToString(), e.IsDirectory, (e.Attributes & FileAttributes.ReparsePoint) != 0, e.Length, e.LastWriteTimeUtc.UtcTicks),
                new EnumerationOptions { IgnoreInaccessible = true, AttributesToSkip = 0, RecurseSubdirectories = false })];
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return;
        }

        foreach (Entry entry in entries)
        {
            string entryRelative = relative.Length == 0 ? entry.Name : relative + "/" + entry.Name;
            if (entry.IsDirectory)
            {
                if (entry.IsLink || SkippedFolders.Contains(entry.Name) || Ignored(active, entryRelative, isDirectory: true))
                {
                    continue;
                }

                Walk(Path.Combine(folder, entry.Name), entryRelative, active, files, cancellationToken);
            }
            else if (!entry.IsLink && entry.Name.EndsWith(".cs", StringComparison.OrdinalIgnoreCase) && !Ignored(active, entryRelative, isDirectory: false))
            {
                files.Add(new WorkspaceFile(Path.Combine(folder, entry.Name), entryRelative, entry.Length, entry.ModifiedTicks));
            }
        }
    }

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
