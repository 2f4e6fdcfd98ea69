using Microsoft.Data.Sqlite;

namespace SharpClaw.Server.Store;

/// <summary>One indexed file as the image holds it: its row's stamps and hash, and its declarations.</summary>
internal sealed record IndexedFile(long Id, long Size, long Mtime, string Hash, SyntaxDeclaration[] Declarations);

/// <summary>
/// This host's in-memory copy of the store's <c>files</c> rows (stamps, hashes, declarations) by
/// workspace-relative path, so a query neither reads every row back nor scans the declarations in SQL.
/// It is valid while SQLite's <c>PRAGMA data_version</c> is the one it was read at: that number changes
/// when another connection (another host on the same workspace) commits, and only then is the image read
/// again. This host's own writes update it in place (<see cref="Apply"/>).
/// </summary>
internal sealed class IndexImage
{
    private IndexImage(Dictionary<string, IndexedFile> files, long dataVersion)
    {
        this.Files = files;
        this.DataVersion = dataVersion;
    }

    public Dictionary<string, IndexedFile> Files { get; }

    /// <summary>The declarations laid out for a name scan: made on the first search, then kept up to date by <see cref="Apply"/>.</summary>
    public DeclarationTable Table => this.table ??= DeclarationTable.Of(this.Files);

    private DeclarationTable? table;

    /// <summary>
    /// The <see cref="WorkspaceTree.Version"/> the image was last found to match file for file (-1: not since it was
    /// read): while the tree and the image stay as they were, a refresh has nothing to compare.
    /// </summary>
    public long SyncedTreeVersion { get; set; } = -1;

    /// <summary>The data_version the image matches; -1 once another host's commit may be missing from it.</summary>
    public long DataVersion { get; private set; }

    /// <summary>The current image: <paramref name="current"/> when no other connection committed since it was read, else a fresh read.</summary>
    public static IndexImage Current(StoreDatabase database, IndexImage? current)
    {
        long version = database.Scalar("PRAGMA data_version");
        return current is not null && current.DataVersion == version ? current : Read(database, version);
    }

    /// <summary>
    /// Records this host's committed changes. <paramref name="versionInsideWrite"/> is data_version read while
    /// this host held the write lock: when it differs from the image's, another host committed in between and
    /// the next query reads the image again.
    /// </summary>
    public void Apply(IReadOnlyCollection<KeyValuePair<string, IndexedFile?>> changes, long versionInsideWrite)
    {
        this.table = this.table?.With(changes);
        foreach ((string path, IndexedFile? file) in changes)
        {
            if (file is null)
            {
                this.Files.Remove(path);
            }
            else
            {
                this.Files[path] = file;
            }
        }

        if (versionInsideWrite != this.DataVersion)
        {
            this.DataVersion = -1;
        }
    }

    private static IndexImage Read(StoreDatabase database, long version)
    {
        Dictionary<string, IndexedFile> files = new(StringComparer.Ordinal);
        using SqliteCommand command = database.Command("SELECT id, path, size, mtime, hash, decls FROM files");
        using SqliteDataReader reader = command.ExecuteReader();
        while (reader.Read())
        {
            files[reader.GetString(1)] = new IndexedFile(reader.GetInt64(0), reader.GetInt64(2), reader.GetInt64(3), reader.GetString(4), DeclarationCodec.Decode((byte[])reader.GetValue(5)));
        }

        return new IndexImage(files, version);
    }
}
