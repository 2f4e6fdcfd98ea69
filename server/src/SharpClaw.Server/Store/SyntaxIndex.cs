using System.Security.Cryptography;
using System.Text;
using Microsoft.CodeAnalysis.Text;
using Microsoft.Data.Sqlite;
using SharpClaw.Server.Semantic;
using SharpClaw.Server.Semantic.OpenDocuments;

namespace SharpClaw.Server.Store;

/// <summary>How many files the index holds after a refresh and how many it re-parsed.</summary>
internal sealed record IndexCounts(int Indexed, int Reindexed);

/// <summary>
/// Brings the store's syntax index up to date with the workspace, at the start of every query (no file
/// watchers): a file whose size and write time match its row is trusted; otherwise its content hash decides
/// whether it is re-parsed (<see cref="SyntaxDeclarations"/>); rows of files that are gone are removed. An
/// open editor buffer is indexed from its text (its row then has no size/time, so closing it re-checks the
/// disk). Parsing runs in parallel outside the write transaction; the writes of one refresh are one
/// IMMEDIATE transaction, so another host refreshing the same store waits and then repeats only what differs.
/// </summary>
internal static class SyntaxIndex
{
    private sealed record Row(long Id, long Size, long Mtime, string Hash);

    private sealed record Change(string Path, long Size, long Mtime, string Hash, SourceText? Text);

    public static IndexCounts Refresh(StoreDatabase database, string workspace, OpenDocumentSnapshot open, CancellationToken cancellationToken)
    {
        List<WorkspaceFile> files = WorkspaceFiles.List(workspace, cancellationToken);
        Dictionary<string, SourceText> buffers = OpenBuffers(workspace, open);
        Dictionary<string, Row> rows = ReadRows(database);
        HashSet<string> present = new(StringComparer.Ordinal);
        List<(WorkspaceFile File, Row? Row)> toHash = [];
        List<Change> changes = [];
        foreach (WorkspaceFile file in files)
        {
            present.Add(file.RelativePath);
            rows.TryGetValue(file.RelativePath, out Row? row);
            if (buffers.ContainsKey(file.RelativePath))
            {
                continue;
            }

            if (row is null || row.Size != file.Size || row.Mtime != file.ModifiedTicks)
            {
                toHash.Add((file, row));
            }
        }

        foreach ((string path, SourceText text) in buffers)
        {
            present.Add(path);
            string hash = Hash(Encoding.UTF8.GetBytes(text.ToString()));
            if (!rows.TryGetValue(path, out Row? row) || row.Hash != hash || row.Size != -1)
            {
                changes.Add(new Change(path, -1, -1, hash, row?.Hash == hash ? null : text));
            }
        }

        Change?[] read = new Change?[toHash.Count];
        Parallel.For(0, toHash.Count, new ParallelOptions { CancellationToken = cancellationToken }, i =>
        {
            (WorkspaceFile file, Row? row) = toHash[i];
            byte[] bytes;
            try
            {
                bytes = File.ReadAllBytes(file.FullPath);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                return; // Gone or locked since the walk: the next query sees it.
            }

            string hash = Hash(bytes);
            read[i] = new Change(file.RelativePath, file.Size, file.ModifiedTicks, hash, row?.Hash == hash ? null : SourceText.From(bytes, bytes.Length, throwIfBinaryDetected: false));
        });
        changes.AddRange(read.OfType<Change>());

        List<string> removed = [.. rows.Keys.Where(p => !present.Contains(p))];
        if (changes.Count == 0 && removed.Count == 0)
        {
            return new IndexCounts(present.Count, 0);
        }

        Dictionary<string, List<SyntaxDeclaration>> parsed = new(StringComparer.Ordinal);
        Change[] toParse = [.. changes.Where(c => c.Text is not null)];
        List<SyntaxDeclaration>[] results = new List<SyntaxDeclaration>[toParse.Length];
        Parallel.For(0, toParse.Length, new ParallelOptions { CancellationToken = cancellationToken }, i => results[i] = SyntaxDeclarations.Read(toParse[i].Text!, cancellationToken));
        for (int i = 0; i < toParse.Length; i++)
        {
            parsed[toParse[i].Path] = results[i];
        }

        Write(database, changes, parsed, removed);
        return new IndexCounts(present.Count, toParse.Length);
    }

    /// <summary>The open C# buffers inside the workspace, by workspace-relative path (bin/obj left out like the walker does).</summary>
    private static Dictionary<string, SourceText> OpenBuffers(string workspace, OpenDocumentSnapshot open)
    {
        Dictionary<string, SourceText> buffers = new(StringComparer.Ordinal);
        foreach (OpenDocument document in open.Documents.Values)
        {
            if (!document.Path.EndsWith(".cs", StringComparison.OrdinalIgnoreCase) || !PathUtil.IsUnder(document.Path, workspace))
            {
                continue;
            }

            string relative = PathUtil.ToWorkspaceRelative(workspace, document.Path);
            if (relative.Split('/').Any(s => s is "bin" or "obj" or ".git"))
            {
                continue;
            }

            buffers[relative] = document.Text;
        }

        return buffers;
    }

    private static Dictionary<string, Row> ReadRows(StoreDatabase database)
    {
        Dictionary<string, Row> rows = new(StringComparer.Ordinal);
        using SqliteCommand command = database.Command("SELECT id, path, size, mtime, hash FROM files");
        using SqliteDataReader reader = command.ExecuteReader();
        while (reader.Read())
        {
            rows[reader.GetString(1)] = new Row(reader.GetInt64(0), reader.GetInt64(2), reader.GetInt64(3), reader.GetString(4));
        }

        return rows;
    }

    private static void Write(StoreDatabase database, List<Change> changes, Dictionary<string, List<SyntaxDeclaration>> parsed, List<string> removed)
    {
        using SqliteTransaction transaction = database.Connection.BeginTransaction(deferred: false);
        using SqliteCommand find = database.Command("SELECT id FROM files WHERE path = $path", transaction);
        SqliteParameter findPath = find.Parameters.Add("$path", SqliteType.Text);
        using SqliteCommand stamp = database.Command("UPDATE files SET size = $size, mtime = $mtime WHERE id = $id", transaction);
        SqliteParameter stampSize = stamp.Parameters.Add("$size", SqliteType.Integer);
        SqliteParameter stampMtime = stamp.Parameters.Add("$mtime", SqliteType.Integer);
        SqliteParameter stampId = stamp.Parameters.Add("$id", SqliteType.Integer);
        using SqliteCommand deleteDecls = database.Command("DELETE FROM decls WHERE file_id = $id", transaction);
        SqliteParameter deleteDeclsId = deleteDecls.Parameters.Add("$id", SqliteType.Integer);
        using SqliteCommand deleteText = database.Command("DELETE FROM file_text WHERE rowid = $id", transaction);
        SqliteParameter deleteTextId = deleteText.Parameters.Add("$id", SqliteType.Integer);
        using SqliteCommand deleteFile = database.Command("DELETE FROM files WHERE id = $id", transaction);
        SqliteParameter deleteFileId = deleteFile.Parameters.Add("$id", SqliteType.Integer);
        using SqliteCommand insertFile = database.Command("INSERT INTO files(path, size, mtime, hash) VALUES ($path, $size, $mtime, $hash) RETURNING id", transaction);
        SqliteParameter insertPath = insertFile.Parameters.Add("$path", SqliteType.Text);
        SqliteParameter insertSize = insertFile.Parameters.Add("$size", SqliteType.Integer);
        SqliteParameter insertMtime = insertFile.Parameters.Add("$mtime", SqliteType.Integer);
        SqliteParameter insertHash = insertFile.Parameters.Add("$hash", SqliteType.Text);
        using SqliteCommand insertText = database.Command("INSERT INTO file_text(rowid, text) VALUES ($id, $text)", transaction);
        SqliteParameter textId = insertText.Parameters.Add("$id", SqliteType.Integer);
        SqliteParameter textValue = insertText.Parameters.Add("$text", SqliteType.Text);
        using SqliteCommand insertDecl = database.Command(
            "INSERT INTO decls(file_id, name, name_lower, display, kind, container, signature, line, character, end_line, end_character) VALUES ($file, $name, $lower, $display, $kind, $container, $signature, $line, $character, $endLine, $endCharacter)",
            transaction);
        string[] declNames = ["$file", "$name", "$lower", "$display", "$kind", "$container", "$signature", "$line", "$character", "$endLine", "$endCharacter"];
        SqliteParameter[] decl = [.. declNames.Select(n => insertDecl.Parameters.AddWithValue(n, DBNull.Value))];

        void Remove(long id)
        {
            deleteDeclsId.Value = id;
            deleteDecls.ExecuteNonQuery();
            deleteTextId.Value = id;
            deleteText.ExecuteNonQuery();
            deleteFileId.Value = id;
            deleteFile.ExecuteNonQuery();
        }

        long? Find(string path)
        {
            findPath.Value = path;
            return find.ExecuteScalar() is long id ? id : null;
        }

        foreach (string path in removed)
        {
            if (Find(path) is long id)
            {
                Remove(id);
            }
        }

        foreach (Change change in changes)
        {
            long? existing = Find(change.Path);
            if (change.Text is null && existing is long same)
            {
                stampSize.Value = change.Size;
                stampMtime.Value = change.Mtime;
                stampId.Value = same;
                stamp.ExecuteNonQuery();
                continue;
            }

            if (existing is long old)
            {
                Remove(old);
            }

            if (change.Text is null)
            {
                continue; // Hash matched a row another host removed meanwhile: the next refresh re-reads it.
            }

            insertPath.Value = change.Path;
            insertSize.Value = change.Size;
            insertMtime.Value = change.Mtime;
            insertHash.Value = change.Hash;
            long id = (long)insertFile.ExecuteScalar()!;
            textId.Value = id;
            textValue.Value = change.Text.ToString();
            insertText.ExecuteNonQuery();
            foreach (SyntaxDeclaration d in parsed[change.Path])
            {
                object?[] values = [id, d.Name, d.Name.ToLowerInvariant(), d.Display, d.Kind, d.Container, d.Signature, d.Line, d.Character, d.EndLine, d.EndCharacter];
                for (int i = 0; i < values.Length; i++)
                {
                    decl[i].Value = values[i] ?? DBNull.Value;
                }

                insertDecl.ExecuteNonQuery();
            }
        }

        transaction.Commit();
    }

    private static string Hash(byte[] bytes) => Convert.ToHexStringLower(SHA256.HashData(bytes))[..32];
}
