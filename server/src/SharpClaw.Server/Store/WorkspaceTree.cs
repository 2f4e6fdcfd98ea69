using SharpClaw.Server.Semantic;

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

    /// <summary>One listed folder: its stamp when listed, its own .gitignore's stamp, and what the listing found.</summary>
    private sealed record FolderState(
        WorkspaceFiles.Folder Folder,
        UnixFileStatus.Snapshot Stamp,
        long ListedTicks,
        UnixFileStatus.Snapshot GitIgnoreStamp,
        List<WorkspaceFile> Files,
        List<WorkspaceFiles.Folder> Subfolders);

    /// <summary>The workspace's C# files, sorted by relative path: the list a full walk makes (the first refresh is one).</summary>
    public List<WorkspaceFile> Refresh(CancellationToken cancellationToken)
    {
        if (this.folders is null)
        {
            this.folders = [];
            this.Walk(new WorkspaceFiles.Folder(workspace, string.Empty, []), cancellationToken);
            return this.Files();
        }

        // One batch: each folder, its .gitignore, then every file of the folders as listed.
        List<FolderState> known = [.. this.folders.Values];
        List<string> paths = [];
        foreach (FolderState state in known)
        {
            paths.Add(state.Folder.Path);
            paths.Add(Path.Combine(state.Folder.Path, ".gitignore"));
        }

        int firstFile = paths.Count;
        paths.AddRange(known.SelectMany(s => s.Files).Select(f => f.FullPath));
        UnixFileStatus.Snapshot[] stats = new StatBatch(paths).Run();
        long now = DateTime.UtcNow.Ticks;

        List<FolderState> relist = [];
        List<FolderState> rewalk = [];
        Dictionary<string, UnixFileStatus.Snapshot> fileStats = new(StringComparer.Ordinal);
        int next = firstFile;
        for (int i = 0; i < known.Count; i++)
        {
            FolderState state = known[i];
            UnixFileStatus.Snapshot folder = stats[2 * i];
            UnixFileStatus.Snapshot gitIgnore = stats[(2 * i) + 1];
            foreach (WorkspaceFile file in state.Files)
            {
                fileStats[file.RelativePath] = stats[next++];
            }

            if (!SameFile(gitIgnore, state.GitIgnoreStamp))
            {
                rewalk.Add(state);
            }
            else if (!folder.Exists || !folder.IsDirectory || folder.LastWriteTicks != state.Stamp.LastWriteTicks
                || state.Stamp.LastWriteTicks >= state.ListedTicks - RacyWindow)
            {
                relist.Add(state);
            }
        }

        // A changed .gitignore: its folder and everything below it are walked again with the new rules.
        foreach (FolderState state in rewalk.Where(s => this.folders.ContainsKey(s.Folder.Relative)).OrderBy(s => s.Folder.Relative.Length))
        {
            this.Drop(state.Folder.Relative);
            this.Walk(state.Folder, cancellationToken);
        }

        foreach (FolderState state in relist.Where(s => this.folders.TryGetValue(s.Folder.Relative, out FolderState? current) && current == s))
        {
            cancellationToken.ThrowIfCancellationRequested();
            this.Relist(state, now, cancellationToken);
        }

        // Files of folders that were not listed again: their sizes and times from this batch.
        HashSet<FolderState> unchanged = new(known, ReferenceEqualityComparer.Instance);
        foreach (FolderState state in this.folders.Values.Where(unchanged.Contains).ToList())
        {
            List<WorkspaceFile> current = [];
            foreach (WorkspaceFile file in state.Files)
            {
                UnixFileStatus.Snapshot stat = fileStats[file.RelativePath];
                if (stat.Exists && !stat.IsDirectory)
                {
                    current.Add(file with { Size = stat.Length, ModifiedTicks = stat.LastWriteTicks });
                }
            }

            this.folders[state.Folder.Relative] = state with { Files = current };
        }

        return this.Files();
    }

    private List<WorkspaceFile> Files()
    {
        List<WorkspaceFile> files = [.. this.folders!.Values.SelectMany(s => s.Files)];
        files.Sort((a, b) => string.CompareOrdinal(a.RelativePath, b.RelativePath));
        return files;
    }

    /// <summary>Lists a folder again: its files anew, subfolders that appeared walked whole, ones that vanished dropped.</summary>
    private void Relist(FolderState state, long now, CancellationToken cancellationToken)
    {
        UnixFileStatus.Snapshot stamp = Stat(state.Folder.Path);
        if (!stamp.Exists || !stamp.IsDirectory)
        {
            this.Drop(state.Folder.Relative);
            return;
        }

        (List<WorkspaceFile> files, List<WorkspaceFiles.Folder> subfolders) = WorkspaceFiles.ListFolder(state.Folder);
        HashSet<string> before = new(state.Subfolders.Select(f => f.Relative), StringComparer.Ordinal);
        HashSet<string> after = new(subfolders.Select(f => f.Relative), StringComparer.Ordinal);
        foreach (string gone in before.Where(r => !after.Contains(r)))
        {
            this.Drop(gone);
        }

        this.folders![state.Folder.Relative] = state with { Stamp = stamp, ListedTicks = now, Files = files, Subfolders = subfolders };
        foreach (WorkspaceFiles.Folder added in subfolders.Where(f => !before.Contains(f.Relative)))
        {
            this.Walk(added, cancellationToken);
        }
    }

    /// <summary>Lists a folder and everything below it (the folders of one depth in parallel) into the tree.</summary>
    private void Walk(WorkspaceFiles.Folder root, CancellationToken cancellationToken)
    {
        List<WorkspaceFiles.Folder> level = [root];
        ParallelOptions options = new() { CancellationToken = cancellationToken };
        while (level.Count > 0)
        {
            FolderState[] listed = new FolderState[level.Count];
            Parallel.For(0, level.Count, options, i =>
            {
                WorkspaceFiles.Folder folder = level[i];
                long listedTicks = DateTime.UtcNow.Ticks;
                UnixFileStatus.Snapshot stamp = Stat(folder.Path);
                UnixFileStatus.Snapshot gitIgnore = Stat(Path.Combine(folder.Path, ".gitignore"));
                (List<WorkspaceFile> files, List<WorkspaceFiles.Folder> subfolders) = WorkspaceFiles.ListFolder(folder);
                listed[i] = new FolderState(folder, stamp, listedTicks, gitIgnore, files, subfolders);
            });
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
