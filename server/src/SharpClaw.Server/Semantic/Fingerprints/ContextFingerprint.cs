using System.Diagnostics;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Fingerprints;

/// <summary>What changed since a context was loaded.</summary>
/// <param name="StructuralChanges">Build files, restore assets, or compile-item paths (added/removed source
/// files) that changed: the context is stale and only a re-evaluation can fix it.</param>
/// <param name="ContentChanges">Source documents (.cs, additional files, .editorconfig) whose content may have
/// changed: a refresh of those documents is enough.</param>
/// <param name="Elapsed">How long the check took.</param>
public sealed record FingerprintCheck(IReadOnlyList<string> StructuralChanges, IReadOnlyList<string> ContentChanges, TimeSpan Elapsed)
{
    internal Dictionary<string, FileStamp> NewContentStamps { get; init; } = [];

    internal List<DirectoryRecord> NewDirectoryRecords { get; init; } = [];

    internal Dictionary<string, FileStamp> NewStructuralStamps { get; init; } = [];

    public bool IsStructural => this.StructuralChanges.Count > 0;
}

/// <summary>How a watched folder matters.</summary>
public enum DirectoryWatchKind
{
    /// <summary>A project folder and its subfolders: default compile globs (**/*.cs) and .editorconfig files.</summary>
    SourceCone,

    /// <summary>A folder holding compile items outside any project folder (not recursive).</summary>
    SourceFolder,

    /// <summary>MSBuildProjectExtensionsPath: restore-generated &lt;project&gt;.*.props/.targets files imported by the SDK.</summary>
    ProjectExtensions,

    /// <summary>An MSBuild ImportBefore/ImportAfter folder (<see cref="ImplicitImportFolders"/>): every file in it is imported by wildcard.</summary>
    ImplicitImports,
}

/// <summary>A folder snapshot: its write time and the names in it that matter.</summary>
public sealed record DirectoryRecord(string Path, DirectoryWatchKind Kind, string? ProjectFileName, long LastWriteTicks, bool Exists, HashSet<string> TrackedNames, HashSet<string> Subdirectories);

/// <summary>Everything a fingerprint is built from.</summary>
public sealed record FingerprintInputs
{
    /// <summary>Build/config/assets files: any change (content, existence) is structural.</summary>
    public required IEnumerable<string> StructuralFiles { get; init; }

    /// <summary>Project folders: their (recursive) *.cs/.editorconfig sets are compile-item paths.</summary>
    public required IEnumerable<string> SourceCones { get; init; }

    /// <summary>Folders excluded from the cones (bin, obj, artifacts, ...).</summary>
    public required IEnumerable<string> ExcludedFolders { get; init; }

    /// <summary>Extra non-recursive source folders (compile items outside the cones).</summary>
    public required IEnumerable<string> SourceFolders { get; init; }

    /// <summary>(folder, project file name) pairs of MSBuildProjectExtensionsPath.</summary>
    public required IEnumerable<(string Folder, string ProjectFileName)> ProjectExtensionFolders { get; init; }

    /// <summary>ImportBefore/ImportAfter folders every evaluation imports by wildcard (<see cref="ImplicitImportFolders"/>): a file appearing or leaving is structural.</summary>
    public IEnumerable<string> ImplicitImportFolders { get; init; } = [];

    /// <summary>Files whose content a refresh can pick up (documents). Empty for evaluation-only contexts.</summary>
    public required IEnumerable<string> ContentFiles { get; init; }

    /// <summary>Files whose disappearance is structural but whose content does not matter (compile items of evaluation-only contexts).</summary>
    public required IEnumerable<string> ExistenceFiles { get; init; }

    public required IReadOnlyList<DynamicImport> DynamicImports { get; init; }

    /// <summary>When evaluation started: build files written after it may not be reflected in the context.</summary>
    public required DateTime EvaluationStartedUtc { get; init; }
}

/// <summary>
/// The fingerprint of a loaded context. Checking it stats files and folders only (content is hashed
/// only for files whose size/time changed), so a source-only refresh decision is fast. Not thread-safe:
/// the cache calls it under its gate.
/// </summary>
public sealed partial class ContextFingerprint
{
    private static readonly HashSet<string> AlwaysExcludedNames = new(StringComparer.OrdinalIgnoreCase) { "node_modules" };

    private readonly Dictionary<string, FileStamp> structural;
    private readonly Dictionary<string, FileStamp> content;
    private readonly Dictionary<string, bool> existence;
    private readonly Dictionary<string, DirectoryRecord> directories;
    private readonly HashSet<string> excluded;

    // Everything a check stats, as one batch (built on the first check after a change): the structural
    // files, the documents, the files whose existence matters, then the watched folders, in that order.
    private Watched? watched;

    /// <summary>
    /// The folders of files that must stay absent (a Directory.Build.props or global.json that does not exist, a
    /// missing .editorconfig), stamped before those files were: a file cannot appear in a folder without moving
    /// the folder's write time, so while a non-racy folder stamp holds, one stat covers every absent file in it.
    /// </summary>
    private readonly Dictionary<string, FolderTimeStamp> absentFolders;

    /// <summary>Absent files (structural stamps of missing files, existence entries that were false) whose folder stamp covers them.</summary>
    private sealed record CoveredFolder(string Folder, FolderTimeStamp Stamp, KeyValuePair<string, FileStamp>[] Structural, string[] Existence);

    private sealed record Watched(
        StatBatch Batch,
        KeyValuePair<string, FileStamp>[] Structural,
        KeyValuePair<string, FileStamp>[] Content,
        KeyValuePair<string, bool>[] Existence,
        DirectoryRecord[] Directories,
        CoveredFolder[] Covered);

    private ContextFingerprint(
        Dictionary<string, FileStamp> structural,
        Dictionary<string, FileStamp> content,
        Dictionary<string, bool> existence,
        Dictionary<string, DirectoryRecord> directories,
        HashSet<string> excluded,
        IReadOnlyList<DynamicImport> dynamicImports,
        string sdkInventory,
        Dictionary<string, FolderTimeStamp> absentFolders)
    {
        this.absentFolders = absentFolders;
        this.structural = structural;
        this.content = content;
        this.existence = existence;
        this.directories = directories;
        this.excluded = excluded;
        this.DynamicImports = dynamicImports;
        this.SdkInventory = sdkInventory;
    }

    public IReadOnlyList<DynamicImport> DynamicImports { get; }

    /// <summary>Installed SDK and pack versions when the context was loaded.</summary>
    public string SdkInventory { get; }

    public int StructuralFileCount => this.structural.Count;

    public int ContentFileCount => this.content.Count;

    public int DirectoryCount => this.directories.Count;

    public IEnumerable<string> StructuralFiles => this.structural.Keys;

    public static ContextFingerprint Create(FingerprintInputs inputs)
    {
        // The folders first: a file created after its folder's stamp moves the folder's time, one created before
        // it is stamped as present below.
        Dictionary<string, FolderTimeStamp> absentFolders = new(PathUtil.Comparer);
        foreach (string folder in inputs.StructuralFiles.Concat(inputs.ExistenceFiles).Select(Path.GetDirectoryName).OfType<string>().Distinct(PathUtil.Comparer))
        {
            absentFolders[folder] = FolderTimeStamp.Take(folder);
        }

        Dictionary<string, FileStamp> structural = new(PathUtil.Comparer);
        foreach (string file in inputs.StructuralFiles)
        {
            structural.TryAdd(file, FileStamp.Take(file, withHash: true, inputs.EvaluationStartedUtc));
        }

        Dictionary<string, FileStamp> content = new(PathUtil.Comparer);
        foreach (string file in inputs.ContentFiles)
        {
            content.TryAdd(file, FileStamp.Take(file, withHash: false));
        }

        Dictionary<string, bool> existence = new(PathUtil.Comparer);
        foreach (string file in inputs.ExistenceFiles)
        {
            existence.TryAdd(file, File.Exists(file));
        }

        HashSet<string> excluded = new(inputs.ExcludedFolders.Select(PathUtil.Normalize), PathUtil.Comparer);
        Dictionary<string, DirectoryRecord> directories = new(PathUtil.Comparer);
        foreach (string cone in inputs.SourceCones.Distinct(PathUtil.Comparer))
        {
            foreach (DirectoryRecord record in ScanTree(cone, excluded))
            {
                directories.TryAdd(record.Path, record);
            }
        }

        foreach (string folder in inputs.SourceFolders.Distinct(PathUtil.Comparer))
        {
            if (!directories.ContainsKey(folder))
            {
                directories[folder] = Scan(folder, DirectoryWatchKind.SourceFolder, null, excluded);
            }
        }

        foreach (string folder in inputs.ImplicitImportFolders.Distinct(PathUtil.Comparer))
        {
            directories.TryAdd(folder, Scan(folder, DirectoryWatchKind.ImplicitImports, null, excluded));
        }

        foreach ((string folder, string projectFile) in inputs.ProjectExtensionFolders)
        {
            string key = folder + "|" + projectFile;
            directories.TryAdd(key, Scan(folder, DirectoryWatchKind.ProjectExtensions, projectFile, excluded));
        }

        // Only folders that hold an absent file are worth keeping.
        HashSet<string> holdingAbsent = new(
            structural.Where(p => !p.Value.Exists).Select(p => p.Key).Concat(existence.Where(p => !p.Value).Select(p => p.Key)).Select(Path.GetDirectoryName).OfType<string>(),
            PathUtil.Comparer);
        foreach (string folder in absentFolders.Keys.Where(f => !holdingAbsent.Contains(f)).ToList())
        {
            absentFolders.Remove(folder);
        }

        return new ContextFingerprint(structural, content, existence, directories, excluded, inputs.DynamicImports, ReadSdkInventory(), absentFolders);
    }

    /// <summary>
    /// Whether what was evaluated under this fingerprint may be reused after <paramref name="check"/>: no build file
    /// changed, and no import that only MSBuild can resolve. The one rule for the live cache and the kept evaluation.
    /// </summary>
    public bool AllowsReuse(FingerprintCheck check) => !check.IsStructural && this.DynamicImports.Count == 0;

    /// <summary>
    /// Compares the disk with the fingerprint: one stat per watched path, all in one <see cref="StatBatch"/> (spread
    /// over the cores), then content hashes and folder listings only where a stat differs. Does not change the
    /// fingerprint (see <see cref="Commit"/>).
    /// </summary>
    public FingerprintCheck Check()
    {
        long started = Stopwatch.GetTimestamp();
        Watched watched = this.watched ??= this.Watch();
        UnixFileStatus.Snapshot[] stats = watched.Batch.Run();
        int next = 0;

        List<string> structuralChanges = [];
        Dictionary<string, FileStamp> touched = new(PathUtil.Comparer);
        void CheckStructural(string path, FileStamp stamp, UnixFileStatus.Snapshot stat)
        {
            if (!stamp.IsUnchanged(path, stat, out FileStamp current))
            {
                structuralChanges.Add(path);
            }
            else if (current != stamp && current.Hash is not null && !current.Racy)
            {
                touched[path] = current; // Same content, new time: remember it so the next check is cheap again.
            }
        }

        foreach ((string path, FileStamp stamp) in watched.Structural)
        {
            CheckStructural(path, stamp, stats[next++]);
        }

        List<string> contentChanges = [];
        Dictionary<string, FileStamp> newStamps = new(PathUtil.Comparer);
        foreach ((string path, FileStamp stamp) in watched.Content)
        {
            UnixFileStatus.Snapshot stat = stats[next++];
            if (stamp.IsUnchanged(path, stat, out _))
            {
                continue;
            }

            if (!stat.Exists || stat.IsDirectory)
            {
                structuralChanges.Add(path); // A deleted document is a compile-item change.
            }
            else
            {
                contentChanges.Add(path);
                newStamps[path] = FileStamp.Take(path, withHash: false);
            }
        }

        foreach ((string path, bool existed) in watched.Existence)
        {
            UnixFileStatus.Snapshot stat = stats[next++];
            if ((stat.Exists && !stat.IsDirectory) != existed)
            {
                structuralChanges.Add(path);
            }
        }

        // A covered folder whose time moved: its absent files are statted one by one (a file may have appeared).
        foreach (CoveredFolder covered in watched.Covered)
        {
            UnixFileStatus.Snapshot folder = stats[next++];
            if (covered.Stamp.Matches(folder))
            {
                continue;
            }

            foreach ((string path, FileStamp stamp) in covered.Structural)
            {
                CheckStructural(path, stamp, UnixFileStatus.TryStat(path, out UnixFileStatus.Snapshot stat) ? stat : (File.Exists(path) ? new UnixFileStatus.Snapshot(true, false, 0, 0, 0) : UnixFileStatus.Snapshot.Missing));
            }

            structuralChanges.AddRange(covered.Existence.Where(File.Exists));
        }

        List<DirectoryRecord> newRecords = [];
        foreach (DirectoryRecord record in watched.Directories)
        {
            UnixFileStatus.Snapshot stat = stats[next++];
            (bool Exists, long Ticks) folder = stat.Exists && stat.IsDirectory ? (true, stat.LastWriteTicks) : (false, 0);
            if (folder.Exists != record.Exists || folder.Ticks != record.LastWriteTicks)
            {
                this.CheckDirectory(record, structuralChanges, newRecords);
            }
        }

        if (ReadSdkInventory() != this.SdkInventory)
        {
            structuralChanges.Add(Path.Combine(Toolchain.SdkInventory.FindDotnetRoot() ?? "dotnet", "sdk"));
        }

        return new FingerprintCheck(structuralChanges.Distinct(PathUtil.Comparer).ToList(), contentChanges, Stopwatch.GetElapsedTime(started))
        {
            NewContentStamps = newStamps,
            NewDirectoryRecords = newRecords,
            NewStructuralStamps = touched,
        };
    }

    private Watched Watch()
    {
        bool Covered(string path) =>
            Path.GetDirectoryName(path) is { } folder && this.absentFolders.TryGetValue(folder, out FolderTimeStamp stamp) && !stamp.Racy;

        KeyValuePair<string, FileStamp>[] structural = [.. this.structural.Where(p => p.Value.Exists || !Covered(p.Key))];
        KeyValuePair<string, FileStamp>[] content = [.. this.content];
        KeyValuePair<string, bool>[] existence = [.. this.existence.Where(p => p.Value || !Covered(p.Key))];
        DirectoryRecord[] directories = [.. this.directories.Values];
        CoveredFolder[] covered = [.. this.structural.Where(p => !p.Value.Exists && Covered(p.Key)).Select(p => (Path.GetDirectoryName(p.Key)!, (object)p))
            .Concat(this.existence.Where(p => !p.Value && Covered(p.Key)).Select(p => (Path.GetDirectoryName(p.Key)!, (object)p.Key)))
            .GroupBy(p => p.Item1, PathUtil.Comparer)
            .Select(g => new CoveredFolder(
                g.Key,
                this.absentFolders[g.Key],
                [.. g.Select(p => p.Item2).OfType<KeyValuePair<string, FileStamp>>()],
                [.. g.Select(p => p.Item2).OfType<string>()]))];
        StatBatch batch = new(structural.Select(p => p.Key)
            .Concat(content.Select(p => p.Key))
            .Concat(existence.Select(p => p.Key))
            .Concat(covered.Select(c => c.Folder))
            .Concat(directories.Select(d => d.Path)));
        return new Watched(batch, structural, content, existence, directories, covered);
    }

    /// <summary>Accepts a non-structural check after its content changes were applied to the context.</summary>
    public void Commit(FingerprintCheck check)
    {
        if (check.IsStructural)
        {
            throw new InvalidOperationException("A structural change cannot be committed; the context must be reloaded.");
        }

        foreach ((string path, FileStamp stamp) in check.NewContentStamps)
        {
            this.content[path] = stamp;
            this.watched = null;
        }

        foreach ((string path, FileStamp stamp) in check.NewStructuralStamps)
        {
            this.structural[path] = stamp;
            this.watched = null;
        }

        foreach (DirectoryRecord record in check.NewDirectoryRecords)
        {
            this.directories[KeyOf(record)] = record;
            this.watched = null;
        }
    }

    /// <summary>
    /// Accepts a document rename done by the host itself (rename_file): the old path leaves the content set,
    /// the new one joins it, and the folders of both are re-scanned so the rename is not a structural change.
    /// </summary>
    public void AcceptMove(string from, string to)
    {
        this.content.Remove(from);
        this.content[to] = FileStamp.Take(to, withHash: false);
        this.watched = null;
        HashSet<string> folders = new([Path.GetDirectoryName(from)!, Path.GetDirectoryName(to)!], PathUtil.Comparer);
        foreach (DirectoryRecord record in this.directories.Values.Where(r => folders.Contains(r.Path)).ToList())
        {
            this.directories[KeyOf(record)] = Scan(record.Path, record.Kind, record.ProjectFileName, this.excluded);
            this.watched = null;
        }
    }

    private static string KeyOf(DirectoryRecord record) =>
        record.Kind == DirectoryWatchKind.ProjectExtensions ? record.Path + "|" + record.ProjectFileName : record.Path;

    private void CheckDirectory(DirectoryRecord record, List<string> structuralChanges, List<DirectoryRecord> newRecords)
    {
        if (FolderStamp(record.Path) is not { } folder)
        {
            return;
        }

        if (folder.Exists == record.Exists && folder.Ticks == record.LastWriteTicks)
        {
            return;
        }

        DirectoryRecord now = Scan(record.Path, record.Kind, record.ProjectFileName, this.excluded);
        bool changed = false;
        foreach (string name in now.TrackedNames.Except(record.TrackedNames, PathUtil.Comparer).Concat(record.TrackedNames.Except(now.TrackedNames, PathUtil.Comparer)))
        {
            structuralChanges.Add(Path.Combine(record.Path, name));
            changed = true;
        }

        if (record.Kind == DirectoryWatchKind.SourceCone)
        {
            foreach (string added in now.Subdirectories.Except(record.Subdirectories, PathUtil.Comparer))
            {
                string full = Path.Combine(record.Path, added);
                foreach (DirectoryRecord sub in ScanTree(full, this.excluded))
                {
                    if (sub.TrackedNames.Count > 0)
                    {
                        structuralChanges.AddRange(sub.TrackedNames.Select(n => Path.Combine(sub.Path, n)));
                        changed = true;
                    }
                    else
                    {
                        newRecords.Add(sub);
                    }
                }
            }
        }

        if (!changed)
        {
            newRecords.Add(now);
        }
    }

    private static IEnumerable<DirectoryRecord> ScanTree(string root, HashSet<string> excluded)
    {
        Queue<string> queue = new();
        queue.Enqueue(PathUtil.Normalize(root));
        while (queue.Count > 0)
        {
            string directory = queue.Dequeue();
            DirectoryRecord record = Scan(directory, DirectoryWatchKind.SourceCone, null, excluded);
            yield return record;
            foreach (string sub in record.Subdirectories)
            {
                queue.Enqueue(Path.Combine(directory, sub));
            }
        }
    }

    /// <summary>One folder, not recursive. Unreadable folders count as empty (they are skipped, not fatal).</summary>
    private static DirectoryRecord Scan(string path, DirectoryWatchKind kind, string? projectFileName, HashSet<string> excluded)
    {
        HashSet<string> tracked = new(PathUtil.Comparer);
        HashSet<string> subdirectories = new(PathUtil.Comparer);
        (bool exists, long ticks) = FolderStamp(path) ?? (false, 0);
        try
        {
            if (exists)
            {
                foreach (FileSystemInfo entry in new DirectoryInfo(path).EnumerateFileSystemInfos())
                {
                    string name = entry.Name;
                    if (entry is DirectoryInfo)
                    {
                        if (kind == DirectoryWatchKind.SourceCone && name[0] != '.' && !AlwaysExcludedNames.Contains(name) && !excluded.Contains(entry.FullName))
                        {
                            subdirectories.Add(name);
                        }
                    }
                    else if (IsTracked(name, kind, projectFileName))
                    {
                        tracked.Add(name);
                    }
                }
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Skipped: an unreadable folder is not fatal. Its write time still tells when it changes.
        }

        return new DirectoryRecord(path, kind, projectFileName, ticks, exists, tracked, subdirectories);
    }

    /// <summary>Whether a folder exists and its write time: one stat(2) on Unix. Null when it cannot be read.</summary>
    private static (bool Exists, long Ticks)? FolderStamp(string path)
    {
        if (UnixFileStatus.TryStat(path, out UnixFileStatus.Snapshot snapshot))
        {
            return snapshot.Exists && snapshot.IsDirectory ? (true, snapshot.LastWriteTicks) : (false, 0);
        }

        try
        {
            DirectoryInfo info = new(path);
            return info.Exists ? (true, info.LastWriteTimeUtc.Ticks) : (false, 0);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    private static bool IsTracked(string name, DirectoryWatchKind kind, string? projectFileName) => kind switch
    {
        DirectoryWatchKind.ProjectExtensions =>
            projectFileName is not null
            && name.StartsWith(projectFileName + ".", StringComparison.OrdinalIgnoreCase)
            && (name.EndsWith(".props", StringComparison.OrdinalIgnoreCase) || name.EndsWith(".targets", StringComparison.OrdinalIgnoreCase)),
        DirectoryWatchKind.ImplicitImports => true,
        _ => name.EndsWith(".cs", StringComparison.OrdinalIgnoreCase) || name.Equals(".editorconfig", StringComparison.OrdinalIgnoreCase),
    };

    private static readonly Lock InventoryGate = new();
    private static (string Signature, string Inventory)? lastInventory;

    /// <summary>
    /// "sdk: 10.0.401; packs: Microsoft.NETCore.App.Ref/10.0.12, ..." — a new SDK or pack can change resolution.
    /// Adding or removing a version folder changes the write time of its parent (sdk/, packs/ or packs/&lt;pack&gt;/),
    /// so while those times are unchanged the last listing is reused (a few stats instead of a walk per check).
    /// </summary>
    internal static string ReadSdkInventory()
    {
        string? root = Toolchain.SdkInventory.FindDotnetRoot();
        if (root is null)
        {
            return string.Empty;
        }

        string signature = InventorySignature(root);
        lock (InventoryGate)
        {
            if (lastInventory is { } last && last.Signature == signature)
            {
                return last.Inventory;
            }
        }

        string inventory = ListSdkInventory(root);
        lock (InventoryGate)
        {
            lastInventory = (signature, inventory);
        }

        return inventory;
    }

    /// <summary>The pack folders last listed, by the packs/ folder and its write time (a pack added or removed changes it).</summary>
    private static (string Packs, long Ticks, string[] Folders)? lastPackFolders;

    /// <summary>The root and the write times of sdk/, packs/ and every packs/&lt;pack&gt;/ folder.</summary>
    private static string InventorySignature(string root)
    {
        System.Text.StringBuilder signature = new(root);
        try
        {
            string packs = Path.Combine(root, "packs");
            (bool Exists, long Ticks) packsStamp = FolderStamp(packs) ?? throw new IOException($"{packs} cannot be read");
            foreach ((bool exists, long ticks) in new[] { FolderStamp(Path.Combine(root, "sdk")) ?? (false, 0), packsStamp })
            {
                signature.Append('|').Append(exists ? ticks : 0);
            }

            if (packsStamp.Exists)
            {
                string[] folders;
                lock (InventoryGate)
                {
                    folders = lastPackFolders is { } last && last.Packs == packs && last.Ticks == packsStamp.Ticks ? last.Folders : [];
                }

                if (folders.Length == 0)
                {
                    folders = [.. Directory.EnumerateDirectories(packs)];
                    lock (InventoryGate)
                    {
                        lastPackFolders = (packs, packsStamp.Ticks, folders);
                    }
                }

                foreach (string pack in folders)
                {
                    signature.Append('|').Append(FolderStamp(pack) is (true, long ticks) ? ticks : 0);
                }
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            signature.Append("|unreadable").Append(Guid.NewGuid()); // never reuse: list again
        }

        return signature.ToString();
    }

    private static string ListSdkInventory(string root)
    {

        List<string> parts = [];
        try
        {
            string sdk = Path.Combine(root, "sdk");
            if (Directory.Exists(sdk))
            {
                parts.AddRange(Directory.EnumerateDirectories(sdk).Select(d => "sdk/" + Path.GetFileName(d)));
            }

            string packs = Path.Combine(root, "packs");
            if (Directory.Exists(packs))
            {
                foreach (string pack in Directory.EnumerateDirectories(packs))
                {
                    parts.AddRange(Directory.EnumerateDirectories(pack).Select(v => Path.GetFileName(pack) + "/" + Path.GetFileName(v)));
                }
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Report what could be read.
        }

        parts.Sort(StringComparer.Ordinal);
        return string.Join(";", parts);
    }
}
