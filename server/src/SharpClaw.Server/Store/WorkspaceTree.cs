using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Store;

/// <summary>
/// The workspace's folders and C# files as this host last listed them (<see cref="WorkspaceFiles.ListFolder"/>), brought up
/// to date on each query without watchers (the spec rules them out) and without listing every folder again:
/// one batch stats every known folder, its <c>.gitignore</c> and every known file (<see cref="StatBatch"/>, spread
/// over the cores). A folder's own write time changes whenever an entry is added, removed or renamed in it, so
/// only a folder whose time moved is listed again (a new subfolder is walked whole, a vanished one dropped with
/// everything below it), and a folder whose <c>.gitignore</c> changed is walked again with its subtree (its rules
/// decide below it). A folder written within <see cref="RacyWindow"/> of its listing is listed again on every
/// refresh until it is older, since a second change in the same timestamp tick would keep its time. The result is
/// what a full walk returns. Not thread-safe: the store calls it under its per-workspace gate.
/// </summary>
internal sealed class WorkspaceTree(string workspace)
{
    private static readonly long RacyWindow = TimeSpan.FromSeconds(2).Ticks;

    /// <summary>Known folders by workspace-relative path ("" is the root).</summary>
    private Dictionary<string, FolderState>? folders;

    /// <summary>The last answer (sorted) and the batch that re-checks it: each folder, its .gitignore, then each file of <see cref="files"/>.</summary>
    private WorkspaceFile[] files = [];
    private FolderState[] batchFolders = [];
    private StatBatch? batch;

    /// <summary>Grows whenever the answer changes (a file's size or time, a file or folder added or gone): the same version, the same list.</summary>
    public long Version { get; private set; }

    /// <summary>One listed folder: its stamp when listed, its own .gitignore's stamp, and what the listing found.</summary>
    private sealed record FolderState(
        WorkspaceFiles.Folder Folder,
        UnixFileStatus.Snapshot Stamp,
        long ListedTicks,
        UnixFileStatus.Snapshot GitIgnoreStamp,
        List<WorkspaceFile> Files,
        List<WorkspaceFiles.Folder> Subfolders,
        List<string> Projects);

    /// <summary>The project and props files of the listed folders (full paths, sorted), as of the last structural change.</summary>
    public IReadOnlyList<string> ProjectFiles { get; private set; } = [];

    /// <summary>The workspace's C# files, sorted by relative path: the list a full walk makes (the first refresh is one).</summary>
    public IReadOnlyList<WorkspaceFile> Refresh(CancellationToken cancellationToken)
    {
        try
        {
            return this.RefreshCore(cancellationToken);
        }
        catch
        {
            // A walk cut short (a .gitignore over its bound, cancellation) leaves no half-listed tree: the next query walks anew.
            this.folders = null;
            this.batch = null;
            throw;
        }
    }

    private IReadOnlyList<WorkspaceFile> RefreshCore(CancellationToken cancellationToken)
    {
        if (this.folders is null || this.batch is null)
        {
            this.folders = [];
            this.Walk(new WorkspaceFiles.Folder(workspace, string.Empty, []), cancellationToken);
            this.Rebuild();
            this.Version++;
            return this.files;
        }

        UnixFileStatus.Snapshot[] stats = this.batch.Run();
        long now = DateTime.UtcNow.Ticks;
        int firstFile = 2 * this.batchFolders.Length;

        // Nothing structural moved: only sizes and times can differ (in place, the order stays).
        List<FolderState> relist = [];
        List<FolderState> rewalk = [];
        for (int i = 0; i < this.batchFolders.Length; i++)
        {
            FolderState state = this.batchFolders[i];
            UnixFileStatus.Snapshot folder = stats[2 * i];
            if (!SameFile(stats[(2 * i) + 1], state.GitIgnoreStamp))
            {
                rewalk.Add(state);
            }
            else if (!folder.Exists || !folder.IsDirectory || folder.LastWriteTicks != state.Stamp.LastWriteTicks
                || state.Stamp.LastWriteTicks >= state.ListedTicks - RacyWindow)
            {
                relist.Add(state);
            }
        }

        bool vanished = false;
        bool stamped = false;
        for (int i = 0; i < this.files.Length; i++)
        {
            UnixFileStatus.Snapshot stat = stats[firstFile + i];
            WorkspaceFile file = this.files[i];
            if (!stat.Exists || stat.IsDirectory)
            {
                vanished = true; // Its folder's time says so too, unless the change was racy: list it again.
            }
            else if (stat.Length != file.Size || stat.LastWriteTicks != file.ModifiedTicks)
            {
                this.files[i] = file with { Size = stat.Length, ModifiedTicks = stat.LastWriteTicks };
                stamped = true;
            }
        }

        if (relist.Count == 0 && rewalk.Count == 0 && !vanished)
        {
            this.Version += stamped ? 1 : 0;
            return this.files;
        }

        // The folder states learn the files' new stamps, then the moved folders are listed again.
        Dictionary<string, WorkspaceFile> current = new(StringComparer.Ordinal);
        for (int i = 0; i < this.files.Length; i++)
        {
            if (stats[firstFile + i].Exists)
            {
                current[this.files[i].RelativePath] = this.files[i];
            }
        }

        foreach (FolderState state in this.folders.Values.ToList())
        {
            this.folders[state.Folder.Relative] = state with { Files = [.. state.Files.Where(f => current.ContainsKey(f.RelativePath)).Select(f => current[f.RelativePath])] };
        }

        if (vanished)
        {
            HashSet<string> gone = new(this.files.Where((_, i) => !stats[firstFile + i].Exists).Select(f => ParentOf(f.RelativePath)), StringComparer.Ordinal);
            relist.AddRange(this.batchFolders.Where(f => gone.Contains(f.Folder.Relative)));
        }

        // A changed .gitignore: its folder and everything below it are walked again with the new rules.
        bool moved = vanished || rewalk.Count > 0;
        foreach (FolderState state in rewalk.OrderBy(s => s.Folder.Relative.Length))
        {
            if (this.folders.ContainsKey(state.Folder.Relative))
            {
                this.Drop(state.Folder.Relative);
                this.Walk(state.Folder, cancellationToken);
            }
        }

        foreach (string relative in relist.Select(s => s.Folder.Relative).Distinct(StringComparer.Ordinal))
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (this.folders.TryGetValue(relative, out FolderState? state))
            {
                moved |= this.Relist(state, now, cancellationToken);
            }
        }

        if (moved)
        {
            this.Rebuild();
            stamped = true;
        }
        else
        {
            // Listed again (racy, or touched) but the same entries: keep the answer and batch, with the new stamps.
            for (int i = 0; i < this.batchFolders.Length; i++)
            {
                this.batchFolders[i] = this.folders[this.batchFolders[i].Folder.Relative];
            }
        }

        this.Version += stamped ? 1 : 0;
        return this.files;
    }

    /// <summary>The sorted answer and its batch, from the folder states.</summary>
    private void Rebuild()
    {
        WorkspaceFile[] all = [.. this.folders!.Values.SelectMany(s => s.Files)];
        Array.Sort(all, (a, b) => string.CompareOrdinal(a.RelativePath, b.RelativePath));
        this.files = all;
        this.ProjectFiles = [.. this.folders.Values.SelectMany(s => s.Projects).Order(StringComparer.Ordinal)];
        this.batchFolders = [.. this.folders.Values];
        this.batch = new StatBatch(this.batchFolders
            .SelectMany(s => new[] { s.Folder.Path, Path.Combine(s.Folder.Path, ".gitignore") })
            .Concat(all.Select(f => f.FullPath)));
    }

    private static string ParentOf(string relative) => relative.LastIndexOf('/') is var slash and >= 0 ? relative[..slash] : string.Empty;

    /// <summary>
    /// Lists a folder again: its files anew, subfolders that appeared walked whole, ones that vanished dropped.
    /// True when its entries differ from the last listing (the answer must be rebuilt).
    /// </summary>
    private bool Relist(FolderState state, long now, CancellationToken cancellationToken)
    {
        UnixFileStatus.Snapshot stamp = Stat(state.Folder.Path);
        if (!stamp.Exists || !stamp.IsDirectory)
        {
            this.Drop(state.Folder.Relative);
            return true;
        }

        (List<WorkspaceFile> files, List<WorkspaceFiles.Folder> subfolders, List<string> projects) = WorkspaceFiles.ListFolder(state.Folder);
        HashSet<string> before = new(state.Subfolders.Select(f => f.Relative), StringComparer.Ordinal);
        HashSet<string> after = new(subfolders.Select(f => f.Relative), StringComparer.Ordinal);
        foreach (string gone in before.Where(r => !after.Contains(r)))
        {
            this.Drop(gone);
        }

        this.folders![state.Folder.Relative] = state with { Stamp = stamp, ListedTicks = now, Files = files, Subfolders = subfolders, Projects = projects };
        foreach (WorkspaceFiles.Folder added in subfolders.Where(f => !before.Contains(f.Relative)))
        {
            this.Walk(added, cancellationToken);
        }

        return !before.SetEquals(after) || !files.Select(f => f.RelativePath).SequenceEqual(state.Files.Select(f => f.RelativePath), StringComparer.Ordinal)
            || !projects.SequenceEqual(state.Projects, StringComparer.Ordinal);
    }

    /// <summary>Lists a folder and everything below it (the folders of one depth in parallel) into the tree.</summary>
    private void Walk(WorkspaceFiles.Folder root, CancellationToken cancellationToken)
    {
        List<WorkspaceFiles.Folder> level = [root];
        ParallelOptions options = new() { CancellationToken = cancellationToken };
        while (level.Count > 0)
        {
            FolderState[] listed = new FolderState[level.Count];
            try
            {
                Parallel.For(0, level.Count, options, i =>
                {
                    WorkspaceFiles.Folder folder = level[i];
                    long listedTicks = DateTime.UtcNow.Ticks;
                    UnixFileStatus.Snapshot stamp = Stat(folder.Path);
                    UnixFileStatus.Snapshot gitIgnore = Stat(Path.Combine(folder.Path, ".gitignore"));
                    (List<WorkspaceFile> files, List<WorkspaceFiles.Folder> subfolders, List<string> projects) = WorkspaceFiles.ListFolder(folder);
                    listed[i] = new FolderState(folder, stamp, listedTicks, gitIgnore, files, subfolders, projects);
                });
            }
            catch (AggregateException ex) when (ex.InnerExceptions.OfType<SemanticException>().FirstOrDefault() is { } typed)
            {
                // A typed refusal (a .gitignore over its bound) reaches the caller as itself, not as an internal error.
                System.Runtime.ExceptionServices.ExceptionDispatchInfo.Capture(typed).Throw();
            }

            level = [];
            foreach (FolderState state in listed)
            {
                this.folders![state.Folder.Relative] = state;
                level.AddRange(state.Subfolders);
            }
        }
    }

    /// <summary>Forgets a folder and every folder below it.</summary>
    private void Drop(string relative)
    {
        string prefix = relative.Length == 0 ? string.Empty : relative + "/";
        foreach (string key in this.folders!.Keys.Where(k => k == relative || (prefix.Length == 0 || k.StartsWith(prefix, StringComparison.Ordinal))).ToList())
        {
            this.folders.Remove(key);
        }
    }

    private static bool SameFile(UnixFileStatus.Snapshot a, UnixFileStatus.Snapshot b) =>
        a.Exists == b.Exists && a.Length == b.Length && a.LastWriteTicks == b.LastWriteTicks && a.ChangeTicks == b.ChangeTicks;

    private static UnixFileStatus.Snapshot Stat(string path) => new StatBatch([path]).Run()[0];
}
