using System.Security.Cryptography;
using System.Text;
using Microsoft.CodeAnalysis.Text;
using Microsoft.Data.Sqlite;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Loading;
using SharpClaw.Server.Semantic.OpenDocuments;

namespace SharpClaw.Server.Store;

/// <summary>
/// How many files the index holds after a refresh, how many it re-parsed and how many characters of text those held;
/// <paramref name="Pending"/>: files found new or changed that a refresh stopped early (<see cref="SyntaxIndex.Refresh"/>'s
/// <c>stopEarly</c>) left for the next one.
/// </summary>
internal sealed record IndexCounts(int Indexed, int Reindexed, long ParsedChars = 0, int Pending = 0)
{
    /// <summary>The files indexed as they are now: those found, less the pending ones.</summary>
    public int Current => this.Indexed - this.Pending;

    /// <summary><see cref="Pending"/> as a result says it: absent when none.</summary>
    public int? PendingOrNone => this.Pending > 0 ? this.Pending : null;
}

/// <summary>
/// Brings the store's syntax index up to date with the workspace, at the start of every query (no file
/// watchers): a file whose size and write time match its row is trusted; otherwise its content hash decides
/// whether it is re-parsed (<see cref="SyntaxDeclarations"/>); rows of files that are gone are removed. An
/// open editor buffer is indexed from its text (its row then has no size/time, so closing it re-checks the
/// disk). The rows are compared with this host's <see cref="IndexImage"/>, not read back per query. Parsing
/// runs in parallel outside the write transactions; the files to parse go in chunks of <see cref="ChunkFiles"/>,
/// each written in one IMMEDIATE transaction (another host refreshing the same store waits and then repeats
/// only what differs), so a large build keeps what it committed when it stops early or the host ends, and a
/// query can answer from the chunks committed so far (<c>stopEarly</c>).
/// </summary>
internal static class SyntaxIndex
{
    /// <summary>Files parsed and committed at a time: about half a second of parsing on one core (efcore's files: ~430 a second on two).</summary>
    public const int ChunkFiles = 256;

    private sealed record Change(string Path, long Size, long Mtime, string Hash, SourceText? Text);

    /// <summary>
    /// Brings the index up to date; <paramref name="stopEarly"/>, asked after each committed chunk, ends the refresh
    /// there with the rest counted as <see cref="IndexCounts.Pending"/> (a query's deadline, or a query waiting for the
    /// store while a background build goes on).
    /// </summary>
    public static (IndexCounts Counts, IndexImage Image) Refresh(StoreDatabase database, IndexImage? current, WorkspaceTree tree, string workspace, OpenDocumentSnapshot open, ILoadProgressSink? progressSink, Func<bool>? stopEarly, CancellationToken cancellationToken)
    {
        IReadOnlyList<WorkspaceFile> files = tree.Refresh(cancellationToken);
        Dictionary<string, SourceText> buffers = OpenBuffers(workspace, open);
        IndexImage image = IndexImage.Current(database, current);
        if (buffers.Count == 0 && image.SyncedTreeVersion == tree.Version)
        {
            return (new IndexCounts(files.Count, 0), image); // Neither the disk nor the index moved since they last matched.
        }

        // A file is parsed under the workspace's flavours' preprocessor symbols too; its row's hash names them, so a
        // change of the project files' frameworks parses the files again.
        PreprocessorSymbols symbols = PreprocessorSymbols.FromProjectFiles(tree.ProjectFiles);
        string flavour = ":" + symbols.Key;
        Dictionary<string, IndexedFile> rows = image.Files;
        int rowsSeen = 0;
        List<(WorkspaceFile File, IndexedFile? Row)> toHash = [];
        List<Change> changes = [];
        foreach (WorkspaceFile file in files)
        {
            bool known = rows.TryGetValue(file.RelativePath, out IndexedFile? row);
            rowsSeen += known ? 1 : 0;
            if (buffers.ContainsKey(file.RelativePath))
            {
                continue;
            }

            if (row is null || row.Size != file.Size || row.Mtime != file.ModifiedTicks || !row.Hash.EndsWith(flavour, StringComparison.Ordinal))
            {
                toHash.Add((file, row));
            }
        }

        foreach ((string path, SourceText text) in buffers)
        {
            string hash = Hash(Encoding.UTF8.GetBytes(text.ToString())) + flavour;
            if (!rows.TryGetValue(path, out IndexedFile? row) || row.Hash != hash || row.Size != -1)
            {
                changes.Add(new Change(path, -1, -1, hash, row?.Hash == hash ? null : text));
            }
        }

        Change?[] read = new Change?[toHash.Count];
        Parallel.For(0, toHash.Count, new ParallelOptions { CancellationToken = cancellationToken }, i =>
        {
            (WorkspaceFile file, IndexedFile? row) = toHash[i];
            // Gone or locked since the walk (the next query sees it), or no source to read: a FIFO, a device, a file over the bound.
            if (BoundedFileRead.ReadBytes(file.FullPath, BoundedFileRead.MaxSourceBytes, out _) is not { } bytes)
            {
                return;
            }

            string hash = Hash(bytes) + flavour;
            read[i] = new Change(file.RelativePath, file.Size, file.ModifiedTicks, hash, row?.Hash == hash ? null : SourceText.From(bytes, bytes.Length, throwIfBinaryDetected: false));
        });
        changes.AddRange(read.OfType<Change>());

        // Every row matched a file on disk (the usual case): nothing was removed, and no set of paths is needed.
        HashSet<string>? present = null;
        if (rowsSeen != rows.Count || buffers.Count > 0)
        {
            present = new(files.Select(f => f.RelativePath), StringComparer.Ordinal);
            present.UnionWith(buffers.Keys);
        }

        List<string> removed = present is null ? [] : [.. rows.Keys.Where(p => !present.Contains(p))];
        int indexed = present?.Count ?? files.Count;
        bool allRead = changes.Count >= toHash.Count; // No file vanished between the walk and its read.
        if (changes.Count == 0 && removed.Count == 0)
        {
            image.SyncedTreeVersion = buffers.Count == 0 && allRead ? tree.Version : -1;
            return (new IndexCounts(indexed, 0), image);
        }

        Change[] toParse = [.. changes.Where(c => c.Text is not null)];
        IndexProgress? progress = IndexProgress.For(progressSink, workspace, toParse.Length);
        // The first chunk also carries the stamp-only changes and the removals.
        List<Change> chunk = [.. changes.Where(c => c.Text is null)];
        int done = 0;
        long parsedChars = 0;
        do
        {
            Change[] parse = toParse[done..Math.Min(toParse.Length, done + ChunkFiles)];
            SyntaxDeclaration[][] results = new SyntaxDeclaration[parse.Length][];
            Parallel.For(0, parse.Length, new ParallelOptions { CancellationToken = cancellationToken }, i =>
            {
                results[i] = [.. SyntaxDeclarations.Read(parse[i].Text!, symbols, cancellationToken)];
                progress?.Parsed(parse[i].Path);
            });
            Dictionary<string, SyntaxDeclaration[]> parsed = new(StringComparer.Ordinal);
            for (int i = 0; i < parse.Length; i++)
            {
                parsed[parse[i].Path] = results[i];
                parsedChars += parse[i].Text!.Length;
            }

            chunk.AddRange(parse);
            Write(database, image, chunk, parsed, done == 0 ? removed : [], progress);
            chunk.Clear();
            done += parse.Length;
        }
        while (done < toParse.Length && stopEarly?.Invoke() != true);

        int pending = toParse.Length - done;
        image.SyncedTreeVersion = pending == 0 && buffers.Count == 0 && allRead && image.DataVersion != -1 ? tree.Version : -1;
        return (new IndexCounts(indexed, done, parsedChars, pending), image);
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

    /// <summary>
    /// One IMMEDIATE transaction for a chunk of the refresh. Each path is looked up again inside it (another host may
    /// have written the same rows since the image was read); ids are assigned here, under the write lock.
    /// The image learns the committed rows afterwards.
    /// </summary>
    private static void Write(StoreDatabase database, IndexImage image, List<Change> changes, Dictionary<string, SyntaxDeclaration[]> parsed, List<string> removed, IndexProgress? progress)
    {
        using SqliteTransaction transaction = database.Connection.BeginTransaction(deferred: false);
        long versionInsideWrite = database.Scalar("PRAGMA data_version", transaction);
        long nextId = database.Scalar("SELECT coalesce(max(id), 0) FROM files", transaction);
        using SqliteCommand find = database.Command("SELECT id, hash FROM files WHERE path = $path", transaction);
        SqliteParameter findPath = find.Parameters.Add("$path", SqliteType.Text);
        using SqliteCommand stamp = database.Command("UPDATE files SET size = $size, mtime = $mtime WHERE id = $id", transaction);
        SqliteParameter stampSize = stamp.Parameters.Add("$size", SqliteType.Integer);
        SqliteParameter stampMtime = stamp.Parameters.Add("$mtime", SqliteType.Integer);
        SqliteParameter stampId = stamp.Parameters.Add("$id", SqliteType.Integer);
        using SqliteCommand deleteText = database.Command("DELETE FROM file_text WHERE rowid = $id", transaction);
        SqliteParameter deleteTextId = deleteText.Parameters.Add("$id", SqliteType.Integer);
        using SqliteCommand deleteFile = database.Command("DELETE FROM files WHERE id = $id", transaction);
        SqliteParameter deleteFileId = deleteFile.Parameters.Add("$id", SqliteType.Integer);
        using SqliteCommand insertFile = database.Command("INSERT INTO files(id, path, size, mtime, hash, decls) VALUES ($id, $path, $size, $mtime, $hash, $decls)", transaction);
        SqliteParameter insertId = insertFile.Parameters.Add("$id", SqliteType.Integer);
        SqliteParameter insertPath = insertFile.Parameters.Add("$path", SqliteType.Text);
        SqliteParameter insertSize = insertFile.Parameters.Add("$size", SqliteType.Integer);
        SqliteParameter insertMtime = insertFile.Parameters.Add("$mtime", SqliteType.Integer);
        SqliteParameter insertHash = insertFile.Parameters.Add("$hash", SqliteType.Text);
        SqliteParameter insertDecls = insertFile.Parameters.Add("$decls", SqliteType.Blob);
        using SqliteCommand insertText = database.Command("INSERT INTO file_text(rowid, text) VALUES ($id, $text)", transaction);
        SqliteParameter textId = insertText.Parameters.Add("$id", SqliteType.Integer);
        SqliteParameter textValue = insertText.Parameters.Add("$text", SqliteType.Text);
        Dictionary<string, IndexedFile?> committed = new(StringComparer.Ordinal);

        void Remove(long id)
        {
            deleteTextId.Value = id;
            deleteText.ExecuteNonQuery();
            deleteFileId.Value = id;
            deleteFile.ExecuteNonQuery();
        }

        (long Id, string Hash)? Find(string path)
        {
            findPath.Value = path;
            using SqliteDataReader reader = find.ExecuteReader();
            return reader.Read() ? (reader.GetInt64(0), reader.GetString(1)) : null;
        }

        foreach (string path in removed)
        {
            if (Find(path) is { } row)
            {
                Remove(row.Id);
            }

            committed[path] = null;
        }

        foreach (Change change in changes)
        {
            (long Id, string Hash)? existing = Find(change.Path);
            if (change.Text is null)
            {
                // The content hash matched the image's row: only the stamps moved.
                if (existing is { } same && same.Hash == change.Hash && image.Files.TryGetValue(change.Path, out IndexedFile? known))
                {
                    stampSize.Value = change.Size;
                    stampMtime.Value = change.Mtime;
                    stampId.Value = same.Id;
                    stamp.ExecuteNonQuery();
                    committed[change.Path] = known with { Id = same.Id, Size = change.Size, Mtime = change.Mtime };
                }

                continue; // Otherwise another host rewrote or removed the row meanwhile: the next refresh re-reads the file.
            }

            if (existing is { } old)
            {
                Remove(old.Id);
            }

            SyntaxDeclaration[] declarations = parsed[change.Path];
            long id = ++nextId;
            insertId.Value = id;
            insertPath.Value = change.Path;
            insertSize.Value = change.Size;
            insertMtime.Value = change.Mtime;
            insertHash.Value = change.Hash;
            insertDecls.Value = DeclarationCodec.Encode(declarations);
            insertFile.ExecuteNonQuery();
            textId.Value = id;
            textValue.Value = change.Text.ToString();
            insertText.ExecuteNonQuery();
            committed[change.Path] = new IndexedFile(id, change.Size, change.Mtime, change.Hash, declarations);
            progress?.Stored(change.Path);
        }

        transaction.Commit();
        image.Apply(committed, versionInsideWrite);
        database.ShrinkWriteAheadLog();
    }

    private static string Hash(byte[] bytes) => Convert.ToHexStringLower(SHA256.HashData(bytes))[..32];
}
