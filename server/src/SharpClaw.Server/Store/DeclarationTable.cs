using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Store;

/// <summary>
/// The image's declarations laid out for a name scan (<see cref="SymbolSearch"/>): files in path order, and per
/// declaration its name mask, kind, file and name in flat arrays, the names back to back in one buffer. A scan
/// reads them front to back instead of following a file, its declaration array, each declaration and its name
/// string around the heap: right after a query's freshness check has stat-ed every file of the workspace the
/// caches hold none of those objects, and the scattered walk was most of a search's time (10,001 files, 80,000
/// declarations: 8 ms scattered, 0.1–2.5 ms flat). Made once when the image is read, then changed file by file
/// (<see cref="With"/>) into the arrays of the table before it, so a change neither walks every declaration nor
/// touches fresh memory. Not thread-safe: the store uses it under its per-workspace gate.
/// </summary>
internal sealed class DeclarationTable
{
    /// <summary>The kinds a search may filter by, in the order of their codes; any other kind is <see cref="OtherKind"/>.</summary>
    public static readonly string[] Kinds =
        ["namespace", "class", "record", "struct", "interface", "enum", "delegate", "method", "constructor", "operator", "property", "field", "event"];

    public const byte OtherKind = byte.MaxValue;

    private static readonly Dictionary<string, byte> CodesByKind = Kinds.Select((kind, code) => (kind, code)).ToDictionary(k => k.kind, k => (byte)k.code, StringComparer.Ordinal);

    // The arrays are longer than what they hold (room to grow); the counts say how much is the table's.
    private readonly string[] paths;
    private readonly IndexedFile[] files;
    private readonly int[] firstOfFile;
    private readonly ulong[] masks;
    private readonly byte[] kindCodes;
    private readonly int[] fileOf;
    private readonly int[] nameStart;
    private readonly char[] names;

    private int fileCount;
    private int count;
    private int charCount;

    /// <summary>The table this one was made from: its arrays are where the next change is written.</summary>
    private DeclarationTable? spare;

    private DeclarationTable(int files, int declarations, int chars, DeclarationTable? reuse)
    {
        if (reuse is not null && reuse.paths.Length >= files && reuse.masks.Length >= declarations && reuse.names.Length >= chars)
        {
            (this.paths, this.files, this.firstOfFile, this.masks, this.kindCodes, this.fileOf, this.nameStart, this.names) =
                (reuse.paths, reuse.files, reuse.firstOfFile, reuse.masks, reuse.kindCodes, reuse.fileOf, reuse.nameStart, reuse.names);
            return;
        }

        this.paths = new string[Room(files)];
        this.files = new IndexedFile[this.paths.Length];
        this.firstOfFile = new int[this.paths.Length + 1];
        this.masks = new ulong[Room(declarations)];
        this.kindCodes = new byte[this.masks.Length];
        this.fileOf = new int[this.masks.Length];
        this.nameStart = new int[this.masks.Length + 1];
        this.names = new char[Room(chars)];
    }

    /// <summary>How many declarations the table holds.</summary>
    public int Count => this.count;

    /// <summary>Per declaration (up to <see cref="Count"/>), the characters its name holds (<see cref="NameFilter.NameMask"/>).</summary>
    public ReadOnlySpan<ulong> Masks => this.masks.AsSpan(0, this.count);

    /// <summary>Per declaration, its kind's index in <see cref="Kinds"/> (<see cref="OtherKind"/> for any other).</summary>
    public ReadOnlySpan<byte> KindCodes => this.kindCodes.AsSpan(0, this.count);

    /// <summary>The table of every file of an image (read from the store, or made anew).</summary>
    public static DeclarationTable Of(Dictionary<string, IndexedFile> indexed)
    {
        string[] sorted = [.. indexed.Keys];
        Array.Sort(sorted, StringComparer.Ordinal);
        DeclarationTable table = new(sorted.Length, indexed.Values.Sum(f => f.Declarations.Length), indexed.Values.Sum(NameChars), reuse: null);
        foreach (string path in sorted)
        {
            table.AppendFile(path, indexed[path]);
        }

        // The arrays the first change is written into, made and written once now: fresh memory costs its page faults
        // on first write, and a workspace's first edit should not pay them (dotnet/efcore: 45 ms for one changed file
        // before the table, 60–102 ms when its first change wrote fresh arrays).
        table.Sealed();
        DeclarationTable spare = new(table.fileCount, table.count, table.charCount, reuse: null);
        spare.AppendRun(table, 0, table.fileCount);
        table.spare = spare.Sealed();
        return table;
    }

    /// <summary>The code of a kind (<see cref="OtherKind"/> for one no filter names).</summary>
    public static byte KindCode(string kind) => CodesByKind.TryGetValue(kind, out byte code) ? code : OtherKind;

    /// <summary>The name of declaration <paramref name="i"/>.</summary>
    public ReadOnlySpan<char> Name(int i) => this.names.AsSpan(this.nameStart[i], this.nameStart[i + 1] - this.nameStart[i]);

    /// <summary>The index of declaration <paramref name="i"/>'s file: files are numbered in ordinal path order.</summary>
    public int FileOf(int i) => this.fileOf[i];

    public string Path(int file) => this.paths[file];

    public SyntaxDeclaration Declaration(int i)
    {
        int file = this.fileOf[i];
        return this.files[file].Declarations[i - this.firstOfFile[file]];
    }

    /// <summary>
    /// This table with some files replaced, added or (null) removed. The unchanged files are copied as blocks of
    /// the flat arrays, never read declaration by declaration (a new table walks every declaration: 40 ms for the
    /// 10,001-file synthetic), into the arrays of the table before this one when they are long enough (fresh memory
    /// cost 8–12 ms of page faults a change; reused, the copy takes 0.5 ms). This table must not be used afterwards.
    /// </summary>
    public DeclarationTable With(IEnumerable<KeyValuePair<string, IndexedFile?>> changes)
    {
        KeyValuePair<string, IndexedFile?>[] sorted = [.. changes];
        Array.Sort(sorted, (a, b) => string.CompareOrdinal(a.Key, b.Key));
        int files = this.fileCount;
        int declarations = this.count;
        int chars = this.charCount;
        foreach ((string path, IndexedFile? file) in sorted)
        {
            int at = Array.BinarySearch(this.paths, 0, this.fileCount, path, StringComparer.Ordinal);
            if (at >= 0)
            {
                files--;
                declarations -= this.firstOfFile[at + 1] - this.firstOfFile[at];
                chars -= this.nameStart[this.firstOfFile[at + 1]] - this.nameStart[this.firstOfFile[at]];
            }

            if (file is not null)
            {
                files++;
                declarations += file.Declarations.Length;
                chars += NameChars(file);
            }
        }

        DeclarationTable table = new(files, declarations, chars, this.spare);
        int next = 0; // The first file of this table not yet copied.
        foreach ((string path, IndexedFile? file) in sorted)
        {
            int at = Array.BinarySearch(this.paths, next, this.fileCount - next, path, StringComparer.Ordinal);
            int end = at >= 0 ? at : ~at;
            table.AppendRun(this, next, end);
            next = at >= 0 ? at + 1 : end;
            if (file is not null)
            {
                table.AppendFile(path, file);
            }
        }

        table.AppendRun(this, next, this.fileCount);
        table.spare = this;
        this.spare = null;
        return table.Sealed();
    }

    /// <summary>Room for a quarter more than asked, so a table that grows file by file keeps its arrays.</summary>
    private static int Room(int needed) => needed + (needed / 4) + 16;

    private static int NameChars(IndexedFile file)
    {
        int chars = 0;
        foreach (SyntaxDeclaration declaration in file.Declarations)
        {
            chars += declaration.Name.Length;
        }

        return chars;
    }

    private void AppendFile(string path, IndexedFile file)
    {
        int f = this.fileCount++;
        this.paths[f] = path;
        this.files[f] = file;
        this.firstOfFile[f] = this.count;
        foreach (SyntaxDeclaration declaration in file.Declarations)
        {
            int i = this.count++;
            this.masks[i] = NameFilter.NameMask(declaration.Name);
            this.kindCodes[i] = KindCode(declaration.Kind);
            this.fileOf[i] = f;
            this.nameStart[i] = this.charCount;
            declaration.Name.CopyTo(this.names.AsSpan(this.charCount));
            this.charCount += declaration.Name.Length;
        }
    }

    /// <summary>Files [<paramref name="from"/>, <paramref name="to"/>) of <paramref name="source"/>, as blocks.</summary>
    private void AppendRun(DeclarationTable source, int from, int to)
    {
        if (to <= from)
        {
            return;
        }

        int firstDeclaration = source.firstOfFile[from];
        int endDeclaration = source.firstOfFile[to];
        int firstChar = source.nameStart[firstDeclaration];
        int endChar = source.nameStart[endDeclaration];
        int fileShift = this.fileCount - from;
        int declarationShift = this.count - firstDeclaration;
        int charShift = this.charCount - firstChar;
        Array.Copy(source.paths, from, this.paths, this.fileCount, to - from);
        Array.Copy(source.files, from, this.files, this.fileCount, to - from);
        for (int f = from; f < to; f++)
        {
            this.firstOfFile[f + fileShift] = source.firstOfFile[f] + declarationShift;
        }

        Array.Copy(source.masks, firstDeclaration, this.masks, this.count, endDeclaration - firstDeclaration);
        Array.Copy(source.kindCodes, firstDeclaration, this.kindCodes, this.count, endDeclaration - firstDeclaration);
        for (int i = firstDeclaration; i < endDeclaration; i++)
        {
            this.fileOf[i + declarationShift] = source.fileOf[i] + fileShift;
            this.nameStart[i + declarationShift] = source.nameStart[i] + charShift;
        }

        Array.Copy(source.names, firstChar, this.names, this.charCount, endChar - firstChar);
        this.fileCount += to - from;
        this.count += endDeclaration - firstDeclaration;
        this.charCount += endChar - firstChar;
    }

    /// <summary>Closes the last file's and declaration's ranges, and lets go of what a reused array held beyond them.</summary>
    private DeclarationTable Sealed()
    {
        this.firstOfFile[this.fileCount] = this.count;
        this.nameStart[this.count] = this.charCount;
        Array.Clear(this.paths, this.fileCount, this.paths.Length - this.fileCount);
        Array.Clear(this.files, this.fileCount, this.files.Length - this.fileCount);
        return this;
    }
}
