using System.IO.Compression;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using Microsoft.Data.Sqlite;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Store;

namespace SharpClaw.Server.Semantic.Snapshots;

/// <summary>
/// The <c>snapshots</c> and <c>evaluations</c> tables of a workspace's store: one gzip'd JSON <see cref="PersistedContext"/>
/// (or <see cref="PersistedEvaluation"/>) per (target, configuration, framework). Each call opens the database briefly (<see cref="StoreDatabase.Open"/>
/// discards a damaged, foreign or older-schema file), so concurrent hosts are kept apart by SQLite's locks.
/// A row that cannot be read is deleted with a log line; a damaged database file is deleted and rebuilt.
/// Nothing here decides whether a snapshot is still valid (<see cref="ContextSnapshots"/> does).
/// </summary>
public sealed class SnapshotStore(HostLog? log, string? stateRoot = null)
{
    public PersistedContext? Read(string workspace, string target, string configuration, string? framework) =>
        this.ReadRow(workspace, "snapshots", PersistedContext.CurrentFormat, static () => SnapshotJsonContext.Default.PersistedContext, target, configuration, framework);

    public void Write(string workspace, PersistedContext snapshot) =>
        this.WriteRow(workspace, "snapshots", snapshot.Format, snapshot, SnapshotJsonContext.Default.PersistedContext, snapshot.TargetPath, snapshot.Configuration, snapshot.TargetFramework);

    /// <summary>The kept evaluation-only pass of (target, configuration, framework), or null (the <c>evaluations</c> table).</summary>
    public PersistedEvaluation? ReadEvaluation(string workspace, string target, string configuration, string? framework) =>
        this.ReadRow(workspace, "evaluations", PersistedEvaluation.CurrentFormat, static () => SnapshotJsonContext.Default.PersistedEvaluation, target, configuration, framework);

    public void WriteEvaluation(string workspace, PersistedEvaluation evaluation) =>
        this.WriteRow(workspace, "evaluations", evaluation.Format, evaluation, SnapshotJsonContext.Default.PersistedEvaluation, evaluation.TargetPath, evaluation.Configuration, evaluation.TargetFramework);

    /// <summary>
    /// <paramref name="type"/> is asked only for a row that is there: building the serializer's metadata of a snapshot
    /// cost about 0.15 s of a cold host's first load, before it could ask for approval, with nothing to read.
    /// </summary>
    private T? ReadRow<T>(string workspace, string table, int currentFormat, Func<JsonTypeInfo<T>> type, string target, string configuration, string? framework)
        where T : class
    {
        // No store yet (a first load on this state folder): nothing to read, and nothing is created before a load
        // was approved — the store holds the workspace's source text. Its creation stays off the first answer's path.
        string root = this.Root();
        if (!StoreDatabase.ExistsFor(workspace, root))
        {
            return null;
        }

        return this.Run(root, workspace, database =>
        {
            using SqliteCommand select = database.Command($"SELECT format, data FROM {table} WHERE target = $target AND configuration = $configuration AND framework = $framework");
            Bind(select, target, configuration, framework);
            using SqliteDataReader reader = select.ExecuteReader();
            if (!reader.Read())
            {
                return null;
            }

            long format = reader.GetInt64(0);
            byte[] data = (byte[])reader.GetValue(1);
            reader.Close();
            string? problem = null;
            T? row = null;
            if (format != currentFormat)
            {
                problem = $"format {format}, this host writes {currentFormat}";
            }
            else
            {
                try
                {
                    using GZipStream unzip = new(new MemoryStream(data), CompressionMode.Decompress);
                    row = JsonSerializer.Deserialize(unzip, type());
                    problem = row is null ? "empty" : null;
                }
                catch (Exception ex) when (ex is JsonException or InvalidDataException or NotSupportedException or ArgumentException)
                {
                    problem = ex.Message;
                }
            }

            if (problem is not null)
            {
                log?.Warn($"Row of {target} [{configuration}] in {table} of {database.Path} is unreadable ({problem}); deleted.");
                using SqliteCommand delete = database.Command($"DELETE FROM {table} WHERE target = $target AND configuration = $configuration AND framework = $framework");
                Bind(delete, target, configuration, framework);
                delete.ExecuteNonQuery();
                return null;
            }

            return row;
        });
    }

    private void WriteRow<T>(string workspace, string table, int format, T row, JsonTypeInfo<T> type, string target, string configuration, string? framework)
    {
        MemoryStream buffer = new();
        using (GZipStream zip = new(buffer, CompressionLevel.Fastest, leaveOpen: true))
        {
            JsonSerializer.Serialize(zip, row, type);
        }

        _ = this.Run<object?>(this.Root(), workspace, database =>
        {
            using SqliteCommand insert = database.Command(
                $"INSERT OR REPLACE INTO {table}(target, configuration, framework, format, written_utc, data) VALUES ($target, $configuration, $framework, $format, $written, $data)");
            Bind(insert, target, configuration, framework);
            insert.Parameters.AddWithValue("$format", format);
            insert.Parameters.AddWithValue("$written", DateTime.UtcNow.ToString("O", System.Globalization.CultureInfo.InvariantCulture));
            insert.Parameters.AddWithValue("$data", buffer.ToArray());
            insert.ExecuteNonQuery();
            database.ShrinkWriteAheadLog();
            return null;
        });
    }

    /// <summary>Removes the row (a snapshot that no longer matches the disk is never worth reading again).</summary>
    public void Delete(string workspace, string target, string configuration, string? framework) =>
        _ = this.Run<object?>(this.Root(), workspace, database =>
        {
            using SqliteCommand delete = database.Command("DELETE FROM snapshots WHERE target = $target AND configuration = $configuration AND framework = $framework");
            Bind(delete, target, configuration, framework);
            delete.ExecuteNonQuery();
            return null;
        });

    /// <summary>The state folder's root, created private and checked.</summary>
    private string Root() => stateRoot is null ? StateFolder.Root() : StateFolder.Root(stateRoot);

    /// <summary>Runs <paramref name="action"/> on the workspace's store below <paramref name="root"/> (<see cref="Root"/>), rebuilding a damaged file once.</summary>
    private T? Run<T>(string root, string workspace, Func<StoreDatabase, T?> action)
    {
        for (int attempt = 0; ; attempt++)
        {
            StoreDatabase database = StoreDatabase.Open(workspace, root, log);
            try
            {
                return action(database);
            }
            catch (SqliteException ex) when (attempt == 0 && StoreDatabase.IsDamaged(ex))
            {
                log?.Warn($"Store {database.Path} is damaged ({ex.Message}); discarded and rebuilt.");
                database.Dispose();
                StoreDatabase.Delete(database.Path);
            }
            finally
            {
                database.Dispose();
            }
        }
    }

    private static void Bind(SqliteCommand command, string target, string configuration, string? framework)
    {
        command.Parameters.AddWithValue("$target", target);
        command.Parameters.AddWithValue("$configuration", configuration);
        command.Parameters.AddWithValue("$framework", framework ?? string.Empty);
    }
}
