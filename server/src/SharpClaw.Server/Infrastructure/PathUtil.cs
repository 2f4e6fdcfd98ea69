namespace SharpClaw.Server.Infrastructure;

/// <summary>Path helpers shared by discovery, fingerprints and results.</summary>
public static class PathUtil
{
    /// <summary>Case-sensitive where the file system usually is (Linux), insensitive on Windows/macOS.</summary>
    public static StringComparison Comparison { get; } =
        OperatingSystem.IsLinux() ? StringComparison.Ordinal : StringComparison.OrdinalIgnoreCase;

    public static StringComparer Comparer { get; } =
        OperatingSystem.IsLinux() ? StringComparer.Ordinal : StringComparer.OrdinalIgnoreCase;

    /// <summary>Full path without a trailing separator (roots keep theirs).</summary>
    public static string Normalize(string path) => Path.TrimEndingDirectorySeparator(Path.GetFullPath(path));

    /// <summary>True when <paramref name="path"/> is <paramref name="folder"/> or lies below it (both full paths).</summary>
    public static bool IsUnder(string path, string folder)
    {
        string normalizedFolder = Path.TrimEndingDirectorySeparator(folder);
        if (path.Equals(normalizedFolder, Comparison))
        {
            return true;
        }

        return path.Length > normalizedFolder.Length
            && path.StartsWith(normalizedFolder, Comparison)
            && (path[normalizedFolder.Length] == Path.DirectorySeparatorChar
                || path[normalizedFolder.Length] == Path.AltDirectorySeparatorChar
                || normalizedFolder.EndsWith(Path.DirectorySeparatorChar));
    }

    /// <summary>
    /// Workspace-relative with forward slashes when <paramref name="path"/> is inside <paramref name="workspace"/>,
    /// else the full path unchanged.
    /// </summary>
    public static string ToWorkspaceRelative(string workspace, string path)
    {
        string full = Path.GetFullPath(path);
        if (!IsUnder(full, workspace))
        {
            return full;
        }

        string relative = Path.GetRelativePath(workspace, full);
        return relative == "." ? "." : relative.Replace(Path.DirectorySeparatorChar, '/');
    }

    /// <summary>
    /// The path with every symbolic link along it resolved (like realpath), for containment and trust
    /// checks. Components that do not exist are appended unchanged.
    /// </summary>
    public static string ResolveLinks(string path)
    {
        string full = Path.GetFullPath(path);
        string? root = Path.GetPathRoot(full);
        if (string.IsNullOrEmpty(root))
        {
            return full;
        }

        string current = root;
        string[] parts = full[root.Length..].Split(Path.DirectorySeparatorChar, StringSplitOptions.RemoveEmptyEntries);
        for (int i = 0; i < parts.Length; i++)
        {
            string next = Path.Combine(current, parts[i]);
            FileSystemInfo? info = null;
            try
            {
                info = Directory.Exists(next) ? new DirectoryInfo(next) : File.Exists(next) ? new FileInfo(next) : null;
                FileSystemInfo? target = info?.LinkTarget is not null ? info.ResolveLinkTarget(returnFinalTarget: true) : null;
                if (target is not null)
                {
                    next = Path.GetFullPath(target.FullName);
                }
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // Unreadable link: keep the path as written.
            }

            if (info is null)
            {
                // Nothing more to resolve below a missing component.
                return Path.Combine([next, .. parts[(i + 1)..]]);
            }

            current = next;
        }

        return Path.TrimEndingDirectorySeparator(current);
    }
}
