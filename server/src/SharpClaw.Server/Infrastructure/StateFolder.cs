using System.Security.Cryptography;
using System.Text;

namespace SharpClaw.Server.Infrastructure;

/// <summary>
/// The private per-user state folder, where the host keeps the files it generates (the workspace lock,
/// evaluation projects, journals) — never a shared temp folder. The rule is the client's
/// (src/engine/stateFolder.ts), and the client passes the root with <c>--state-directory</c>; without it
/// the host applies the same rule: <c>$SHARPCLAW_STATE_DIR</c>, else <c>%LOCALAPPDATA%\SharpClaw</c> on
/// Windows, else <c>$XDG_CACHE_HOME/sharpclaw</c> (absolute only), else <c>~/.cache/sharpclaw</c>. A
/// workspace's folder is <c>&lt;root&gt;/workspaces/&lt;first 16 hex of sha256(canonical path)&gt;/</c>,
/// the canonical path having its links resolved (lower-cased on Windows and macOS). Every folder the
/// host owns is created 0700, must be a real folder (no link) that this user may chmod (so: its owner),
/// and is narrowed to 0700; the root's ancestors are resolved once (so no link is left on the path) and
/// must not be writable by others unless sticky. Anything else is a <see cref="StateFolderException"/>.
/// </summary>
public static class StateFolder
{
    private const string WorkspacesFolder = "workspaces";

    private static string? configuredRoot;

    /// <summary>Sets the root given by the client (<c>--state-directory</c>); null returns to the rule.</summary>
    public static void Configure(string? root) => configuredRoot = string.IsNullOrWhiteSpace(root) ? null : Path.GetFullPath(root);

    /// <summary>Where the root is (not created, not checked).</summary>
    public static string RootPath()
    {
        if (configuredRoot is not null)
        {
            return configuredRoot;
        }

        string? overridden = Environment.GetEnvironmentVariable("SHARPCLAW_STATE_DIR");
        if (!string.IsNullOrEmpty(overridden))
        {
            return Path.GetFullPath(overridden);
        }

        string home = Environment.GetFolderPath(Environment.SpecialFolder.UserProfile);
        if (OperatingSystem.IsWindows())
        {
            string? local = Environment.GetEnvironmentVariable("LOCALAPPDATA");
            return Path.Combine(!string.IsNullOrEmpty(local) && Path.IsPathRooted(local) ? local : Path.Combine(home, "AppData", "Local"), "SharpClaw");
        }

        string? xdg = Environment.GetEnvironmentVariable("XDG_CACHE_HOME");
        return Path.Combine(!string.IsNullOrEmpty(xdg) && Path.IsPathFullyQualified(xdg) ? xdg : Path.Combine(home, ".cache"), "sharpclaw");
    }

    /// <summary>The root, created private and checked; the returned path has no link on it.</summary>
    public static string Root() => Root(RootPath());

    /// <summary>The given root (tests), created private and checked.</summary>
    public static string Root(string rootPath)
    {
        string absolute = Path.TrimEndingDirectorySeparator(Path.GetFullPath(rootPath));
        string parent = Path.GetDirectoryName(absolute) ?? throw new StateFolderException($"{absolute} cannot be SharpClaw's state folder: it is a root.");
        if (!Directory.Exists(parent))
        {
            CreatePrivate(parent, recursive: true);
        }

        string realParent = PathUtil.ResolveLinks(parent);
        CheckAncestors(realParent);
        return EnsurePrivate(Path.Combine(realParent, Path.GetFileName(absolute)));
    }

    /// <summary>The links-resolved path that names a workspace (the input to its key).</summary>
    public static string CanonicalWorkspace(string workspace)
    {
        string resolved = PathUtil.ResolveLinks(Path.TrimEndingDirectorySeparator(Path.GetFullPath(workspace)));
        return OperatingSystem.IsWindows() || OperatingSystem.IsMacOS() ? resolved.ToLowerInvariant() : resolved;
    }

    /// <summary>The folder name of a workspace inside <c>&lt;root&gt;/workspaces/</c>.</summary>
    public static string WorkspaceKey(string workspace) =>
        Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(CanonicalWorkspace(workspace))))[..16];

    /// <summary><c>&lt;root&gt;/workspaces/&lt;key&gt;/</c>, created private, with a <c>workspace.txt</c> naming the workspace.</summary>
    public static string ForWorkspace(string workspace) => ForWorkspace(workspace, Root());

    /// <summary>Where <see cref="ForWorkspace(string, string)"/> keeps the workspace's folder below <paramref name="root"/>; creates nothing.</summary>
    public static string WorkspacePath(string workspace, string root) => Path.Combine(root, WorkspacesFolder, WorkspaceKey(workspace));

    /// <summary>The workspace's folder below a checked <paramref name="root"/> (from <see cref="Root()"/>).</summary>
    public static string ForWorkspace(string workspace, string root)
    {
        string dir = Subfolder(Subfolder(root, WorkspacesFolder), WorkspaceKey(workspace));
        string marker = Path.Combine(dir, "workspace.txt");
        if (!File.Exists(marker))
        {
            try
            {
                FileStreamOptions options = new() { Mode = FileMode.CreateNew, Access = FileAccess.Write };
                if (!OperatingSystem.IsWindows())
                {
                    options.UnixCreateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite;
                }

                using FileStream stream = new(marker, options);
                stream.Write(Encoding.UTF8.GetBytes(CanonicalWorkspace(workspace) + "\n"));
            }
            catch (IOException) when (File.Exists(marker))
            {
                // Another process wrote it first.
            }
        }

        return dir;
    }

    /// <summary>A private folder <paramref name="name"/> inside a folder this class handed out.</summary>
    public static string Subfolder(string parent, string name)
    {
        if (string.IsNullOrEmpty(name) || name is "." or ".." || name.IndexOfAny(['/', '\\']) >= 0)
        {
            throw new StateFolderException($"'{name}' is not a folder name.");
        }

        return EnsurePrivate(Path.Combine(parent, name));
    }

    private static string EnsurePrivate(string dir)
    {
        if (!Directory.Exists(dir) && !File.Exists(dir) && new FileInfo(dir).LinkTarget is null)
        {
            CreatePrivate(dir, recursive: false);
        }

        FileSystemInfo info = new DirectoryInfo(dir);
        if (info.LinkTarget is not null || !info.Attributes.HasFlag(FileAttributes.Directory))
        {
            throw new StateFolderException($"{dir} is {(info.LinkTarget is not null ? "a link" : "not a folder")}; SharpClaw keeps its state only in a private folder of this user.");
        }

        if (!OperatingSystem.IsWindows())
        {
            try
            {
                // Only the owner (or root) may chmod: this is the ownership check.
                File.SetUnixFileMode(dir, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
            }
            catch (UnauthorizedAccessException ex)
            {
                throw new StateFolderException($"{dir} belongs to another user; SharpClaw keeps its state only in a private folder of this user.", ex);
            }
        }

        return dir;
    }

    private static void CreatePrivate(string dir, bool recursive)
    {
        try
        {
            if (OperatingSystem.IsWindows())
            {
                Directory.CreateDirectory(dir);
            }
            else if (recursive)
            {
                Directory.CreateDirectory(dir, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
            }
            else
            {
                string? parent = Path.GetDirectoryName(dir);
                if (parent is null || !Directory.Exists(parent))
                {
                    throw new StateFolderException($"{dir} cannot be created: its parent folder is missing.");
                }

                Directory.CreateDirectory(dir, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
            }
        }
        catch (UnauthorizedAccessException ex)
        {
            throw new StateFolderException($"{dir} cannot be created ({ex.Message}); set SHARPCLAW_STATE_DIR to a folder of your own.", ex);
        }
    }

    private static void CheckAncestors(string realDir)
    {
        if (OperatingSystem.IsWindows())
        {
            return;
        }

        for (string? dir = realDir; dir is not null; dir = Path.GetDirectoryName(dir))
        {
            UnixFileMode mode = File.GetUnixFileMode(dir);
            bool othersMayWrite = (mode & (UnixFileMode.GroupWrite | UnixFileMode.OtherWrite)) != 0 && (mode & UnixFileMode.StickyBit) == 0;
            if (othersMayWrite)
            {
                throw new StateFolderException($"{dir} is writable by other users, so SharpClaw's state folder below it would not be private; set SHARPCLAW_STATE_DIR to a folder of your own.");
            }
        }
    }
}

/// <summary>The state folder is missing, not private or not this user's: the host writes nothing there.</summary>
public sealed class StateFolderException : IOException
{
    public StateFolderException(string message, Exception? inner = null)
        : base(message, inner)
    {
    }
}
