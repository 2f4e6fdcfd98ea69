using System.IO.Enumeration;

namespace SharpClaw.Server.Store;

/// <summary>One C# file of the workspace as the walker saw it.</summary>
internal sealed record WorkspaceFile(string FullPath, string RelativePath, long Size, long ModifiedTicks);

/// <summary>
/// Lists one folder of the workspace for the syntax index (<see cref="WorkspaceTree"/> walks and re-checks them):
/// its <c>*.cs</c> files and the subfolders to enter — every folder except <c>bin</c>, <c>obj</c> and <c>.git</c>,
/// honouring every <c>.gitignore</c> on the way (<see cref="GitIgnore"/>). Links to folders are not followed (they
/// could lead outside the workspace); folders that cannot be read are skipped. Reads only names, sizes and
/// times: nothing of the project is evaluated.
/// </summary>
internal static class WorkspaceFiles
{
    private static readonly HashSet<string> SkippedFolders = new(StringComparer.OrdinalIgnoreCase) { "bin", "obj", ".git" };

    /// <summary>
    /// One folder, not recursive: its C# files (with size and write time), the subfolders to enter, by its rules, and
    /// its project and props files (read for their target frameworks, <see cref="PreprocessorSymbols"/>).
    /// </summary>
    internal static (List<WorkspaceFile> Files, List<Folder> Subfolders, List<string> Projects) ListFolder(Folder folder)
    {
        List<WorkspaceFile> files = [];
        List<Folder> subfolders = [];
        List<string> projects = [];
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
            return (files, subfolders, projects);
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
            else if (!entry.IsLink && (entry.Name.EndsWith(".csproj", StringComparison.OrdinalIgnoreCase) || entry.Name.EndsWith(".props", StringComparison.OrdinalIgnoreCase)) && !Ignored(active, entryRelative, isDirectory: false))
            {
                projects.Add(Path.Combine(folder.Path, entry.Name));
            }
        }

        return (files, subfolders, projects);
    }

    /// <summary>A folder to list, with the .gitignore rules of the folders above it.</summary>
    internal sealed record Folder(string Path, string Relative, List<GitIgnore> Rules);

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
