using Microsoft.Data.Sqlite;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Store;

/// <summary>
/// The per-user SQLite database of one workspace: <c>&lt;state folder&gt;/workspaces/&lt;key&gt;/store.db</c>
/// (<see cref="StateFolder.ForWorkspace(string)"/>), never inside the workspace: the syntax index, the approved
/// snapshots of loaded contexts and the evaluations of evaluation-only passes (the <c>snapshots</c> and <c>evaluations</c> tables, which <c>Semantic.Snapshots.SnapshotStore</c> keeps). WAL journal and a busy
/// timeout make concurrent hosts on one workspace safe (writers queue, readers never block). A file that is
/// not a SQLite database, is damaged, belongs to another application or workspace, or has another schema
/// version is deleted with a log line and created anew: the store is a cache, rebuilt from the files.
/// </summary>
public sealed class StoreDatabase : IDisposable
{
    /// <summary>
    /// Bumped whenever a table changes, or what the index reads from a file does (4: C# 14 extension blocks; 5: #if
    /// branches of the modern and lowest flavours, with their conditions; 6: the evaluations table), since an unchanged
    /// file is never parsed again: an older store is discarded, not migrated.
    /// </summary>
    public const int SchemaVersion = 6;

    /// <summary><c>PRAGMA application_id</c> of SharpClaw stores ("SClw").</summary>
    public const int ApplicationId = 0x53436C77;

    public const string FileName = "store.db";

    /// <summary>
    /// The size SQLite may leave the write-ahead log at (journal_size_limit), and above which a commit shrinks it
    /// (<see cref="ShrinkWriteAheadLog"/>): the first index of a large workspace commits the whole index in a few
    /// seconds (chunks of <see cref="SyntaxIndex.ChunkFiles"/> files), and its log would otherwise stay that size on
    /// disk beside the database until the next write.
    /// </summary>
    public const long WriteAheadLogLimitBytes = 8 * 1024 * 1024;

    private static readonly string[] Schema =
    [
        "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        // decls: the file's declarations as one DeclarationCodec blob (searched in memory, IndexImage).
        "CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL, mtime INTEGER NOT NULL, hash TEXT NOT NULL, decls BLOB NOT NULL)",
        // Trigrams without positions: the index only names candidate files (every query trigram present);
        // TextSearch matches their text itself. A third the size of detail=full, and faster to build.
        "CREATE VIRTUAL TABLE file_text USING fts5(text, tokenize='trigram', detail=none)",
        // Approved snapshots of loaded contexts (Semantic/Snapshots): one row per (target, configuration, framework or '').
        "CREATE TABLE snapshots(target TEXT NOT NULL, configuration TEXT NOT NULL, framework TEXT NOT NULL, format INTEGER NOT NULL, written_utc TEXT NOT NULL, data BLOB NOT NULL, PRIMARY KEY(target, configuration, framework))",
        // Authorized evaluation-only passes (projectGraph, the verifier's graph), the same shape: a later host reuses one while no build file changed.
        "CREATE TABLE evaluations(target TEXT NOT NULL, configuration TEXT NOT NULL, framework TEXT NOT NULL, format INTEGER NOT NULL, written_utc TEXT NOT NULL, data BLOB NOT NULL, PRIMARY KEY(target, configuration, framework))",
    ];

    private StoreDatabase(SqliteConnection connection, string path)
    {
        this.Connection = connection;
        this.Path = path;
    }

    public SqliteConnection Connection { get; }

    public string Path { get; }

    /// <summary>
    /// SQLite's native library, set up once, on the first open: a static constructor of this class would run on any use
    /// of it, and <see cref="ExistsFor"/>, asked before every first load's approval, would pay that setup (10-20 ms) for nothing.
    /// </summary>
    private static class NativeSqlite
    {
        static NativeSqlite() => SQLitePCL.Batteries_V2.Init();

        public static void Ensure()
        {
            // Running the static constructor is the work.
        }
    }

    /// <summary>
    /// True when the workspace has a store file below the checked <paramref name="root"/>; creates nothing (a read that
    /// finds no store needs none: <see cref="Open"/> would create the folder, the file and the schema).
    /// </summary>
    public static bool ExistsFor(string workspace, string root) =>
        File.Exists(System.IO.Path.Combine(StateFolder.WorkspacePath(workspace, root), FileName));

    /// <summary>Opens (or creates) the store of <paramref name="workspace"/> under the state root <paramref name="root"/>.</summary>
    public static StoreDatabase Open(string workspace, string root, HostLog? log)
    {
        string folder = StateFolder.ForWorkspace(workspace, root);
        string path = System.IO.Path.Combine(folder, FileName);
        string canonical = StateFolder.CanonicalWorkspace(workspace);
        try
        {
            return OpenChecked(path, canonical);
        }
        catch (Exception ex) when (ex is SqliteException or StoreMismatchException)
        {
            log?.Warn($"Store {path} discarded and rebuilt: {ex.Message}");
            Delete(path);
            return OpenChecked(path, canonical);
        }
    }

    /// <summary>True for errors that mean the file itself is damaged (SQLITE_CORRUPT, SQLITE_NOTADB).</summary>
    public static bool IsDamaged(SqliteException ex) => ex.SqliteErrorCode is 11 or 26;

    /// <summary>Removes the database and its WAL/shared-memory files.</summary>
    public static void Delete(string path)
    {
        foreach (string file in new[] { path, path + "-wal", path + "-shm", path + "-journal" })
        {
            try
            {
                File.Delete(file);
            }
            catch (IOException)
            {
                // Another process still has it open on Windows: the next open reports the damage again.
            }
        }
    }

    public SqliteCommand Command(string sql, SqliteTransaction? transaction = null)
    {
        SqliteCommand command = this.Connection.CreateCommand();
        command.CommandText = sql;
        command.Transaction = transaction;
        return command;
    }

    public void Dispose() => this.Connection.Dispose();

    private static StoreDatabase OpenChecked(string path, string canonical)
    {
        NativeSqlite.Ensure();
        bool exists = File.Exists(path);
        if (!exists && !OperatingSystem.IsWindows())
        {
            // Created 0600 before SQLite opens it: the store holds the workspace's source text.
            try
            {
                using FileStream created = new(path, new FileStreamOptions { Mode = FileMode.CreateNew, Access = FileAccess.Write, UnixCreateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite });
            }
            catch (IOException) when (File.Exists(path))
            {
                // Another host created it first.
            }
        }

        SqliteConnection connection = new(new SqliteConnectionStringBuilder { DataSource = path, Mode = SqliteOpenMode.ReadWriteCreate, Pooling = false, DefaultTimeout = 30 }.ToString());
        try
        {
            connection.Open();
            StoreDatabase database = new(connection, path);
            database.Execute("PRAGMA busy_timeout = 10000");
            database.Execute($"PRAGMA journal_size_limit = {WriteAheadLogLimitBytes}"); // The WAL file shrinks back when it is reset.
            long applicationId = database.Scalar("PRAGMA application_id");
            long version = database.Scalar("PRAGMA user_version");
            if (applicationId == 0 && version == 0 && database.Scalar("SELECT count(*) FROM sqlite_master") == 0)
            {
                database.Create(canonical);
                applicationId = database.Scalar("PRAGMA application_id");
                version = database.Scalar("PRAGMA user_version");
            }

            if (applicationId != ApplicationId)
            {
                throw new StoreMismatchException($"not a SharpClaw store (application_id {applicationId})");
            }

            if (version != SchemaVersion)
            {
                throw new StoreMismatchException($"schema version {version}, this host uses {SchemaVersion}");
            }

            database.Execute("PRAGMA journal_mode = WAL");
            using SqliteCommand owner = database.Command("SELECT value FROM meta WHERE key = 'workspace'");
            string? recorded = owner.ExecuteScalar() as string;
            if (!string.Equals(recorded, canonical, StringComparison.Ordinal))
            {
                throw new StoreMismatchException($"it belongs to workspace {recorded ?? "(none)"}");
            }

            return database;
        }
        catch
        {
            connection.Dispose();
            throw;
        }
    }

    private void Create(string canonical)
    {
        this.Execute("PRAGMA journal_mode = WAL");
        using SqliteTransaction transaction = this.Connection.BeginTransaction(deferred: false);
        if (this.Scalar("SELECT count(*) FROM sqlite_master", transaction) != 0)
        {
            return; // Another host created it while this one waited for the write lock.
        }

        foreach (string statement in Schema)
        {
            this.Execute(statement, transaction);
        }

        using (SqliteCommand meta = this.Command("INSERT INTO meta(key, value) VALUES ('workspace', $workspace)", transaction))
        {
            meta.Parameters.AddWithValue("$workspace", canonical);
            meta.ExecuteNonQuery();
        }

        this.Execute($"PRAGMA application_id = {ApplicationId}", transaction);
        this.Execute($"PRAGMA user_version = {SchemaVersion}", transaction);
        transaction.Commit();
    }

    /// <summary>
    /// After a commit: a log grown past <see cref="WriteAheadLogLimitBytes"/> is copied into the database and
    /// truncated now. SQLite only trims it when the next writer resets it, and a store that is only read after
    /// its first build would keep a log as large as the index (found on dotnet/efcore: a 129 MB log beside a
    /// 128 MB store). Waits at most the busy timeout for other hosts' readers; a log it cannot truncate yet stays
    /// until a later commit (the answer is not affected either way).
    /// </summary>
    public void ShrinkWriteAheadLog()
    {
        FileInfo log = new(this.Path + "-wal");
        if (log.Exists && log.Length > WriteAheadLogLimitBytes)
        {
            this.Execute("PRAGMA wal_checkpoint(TRUNCATE)");
        }
    }

    public void Execute(string sql, SqliteTransaction? transaction = null)
    {
        using SqliteCommand command = this.Command(sql, transaction);
        command.ExecuteNonQuery();
    }

    public long Scalar(string sql, SqliteTransaction? transaction = null)
    {
        using SqliteCommand command = this.Command(sql, transaction);
        return Convert.ToInt64(command.ExecuteScalar() ?? 0L, System.Globalization.CultureInfo.InvariantCulture);
    }
}

/// <summary>The store file is SQLite but not this workspace's store of this schema.</summary>
internal sealed class StoreMismatchException(string message) : Exception(message);
