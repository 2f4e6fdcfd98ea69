using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Fingerprints;

/// <summary>
/// A <see cref="ContextFingerprint"/> as plain data, for the approved snapshot in the store: the same stamps,
/// folder records and SDK inventory the live cache checks, so a later host decides exactly as the live cache
/// would (<see cref="ContextFingerprint.Check"/>). Paths are full paths.
/// </summary>
public sealed record PersistedFingerprint(
    Dictionary<string, FileStamp> Structural,
    Dictionary<string, FileStamp> Content,
    Dictionary<string, bool> Existence,
    Dictionary<string, DirectoryRecord> Directories,
    List<string> Excluded,
    List<DynamicImport> DynamicImports,
    string SdkInventory,
    Dictionary<string, FolderTimeStamp> AbsentFolders);

/// <summary>Export to and import from <see cref="PersistedFingerprint"/>.</summary>
public sealed partial class ContextFingerprint
{
    public PersistedFingerprint Export() => new(
        new Dictionary<string, FileStamp>(this.structural, PathUtil.Comparer),
        new Dictionary<string, FileStamp>(this.content, PathUtil.Comparer),
        new Dictionary<string, bool>(this.existence, PathUtil.Comparer),
        new Dictionary<string, DirectoryRecord>(this.directories, PathUtil.Comparer),
        [.. this.excluded],
        [.. this.DynamicImports],
        this.SdkInventory,
        new Dictionary<string, FolderTimeStamp>(this.absentFolders, PathUtil.Comparer));

    public static ContextFingerprint Import(PersistedFingerprint persisted) => new(
        new Dictionary<string, FileStamp>(persisted.Structural, PathUtil.Comparer),
        new Dictionary<string, FileStamp>(persisted.Content, PathUtil.Comparer),
        new Dictionary<string, bool>(persisted.Existence, PathUtil.Comparer),
        persisted.Directories.ToDictionary(
            p => p.Key,
            p => p.Value with
            {
                TrackedNames = new HashSet<string>(p.Value.TrackedNames, PathUtil.Comparer),
                Subdirectories = new HashSet<string>(p.Value.Subdirectories, PathUtil.Comparer),
            },
            PathUtil.Comparer),
        new HashSet<string>(persisted.Excluded, PathUtil.Comparer),
        persisted.DynamicImports,
        persisted.SdkInventory,
        new Dictionary<string, FolderTimeStamp>(persisted.AbsentFolders ?? [], PathUtil.Comparer));
}
