using SharpClaw.Protocol.Store;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Store;

/// <summary>
/// <c>symbol_search</c> over the syntax index: declarations whose name matches the query, scored by the rule
/// csharp_symbols uses (<see cref="NameMatch.Score"/>: exact, prefix, camel humps, substring), then types
/// before members before fields, then shorter names (JsConv: JsonConverter before CustomJsonConverter), then path and position. A dotted query (<c>Calculator.Add</c>) searches the
/// last segment inside containers ending with the rest. Searched in this host's <see cref="IndexImage"/>, in its
/// <see cref="DeclarationTable"/>: the query's characters (<see cref="NameFilter"/>) narrow the declarations, the score decides.
/// </summary>
internal static class SymbolSearch
{
    /// <summary>
    /// Below this many declarations one thread scans the table: the 80,000 of the 10,001-file synthetic (10,000 of
    /// them scored for CoTo) take 1–2.5 ms on one core, about what waking a second core can cost on a VM (the
    /// freshness check's helpers were measured starting up to several milliseconds late).
    /// </summary>
    private const int ParallelDeclarations = 250_000;

    /// <summary>More slices than cores, so a core that starts late still finds slices left to take.</summary>
    private const int SlicesPerCore = 4;

    private const int MaxCores = 4;

    public static (List<SymbolSearchItem> Page, int Total) Find(IndexImage image, string query, string? kind, string? container, int offset, int limit)
    {
        byte? kindCode = null;
        if (kind is not null)
        {
            kindCode = DeclarationTable.KindCode(kind);
            if (kindCode == DeclarationTable.OtherKind)
            {
                throw SemanticException.InvalidRequest($"kind '{kind}' is not one of: {string.Join(", ", DeclarationTable.Kinds)}.");
            }
        }

        string name = query.Trim();
        int dot = name.LastIndexOf('.');
        if (dot > 0 && dot < name.Length - 1)
        {
            container = container is null ? name[..dot] : container + "." + name[..dot];
            name = name[(dot + 1)..];
        }

        // Only the best offset+limit of each slice are kept (a bounded max-heap: its top is the worst kept), so a query
        // that matches ten thousand names sorts fifty; the total still counts every match. A very large index is split
        // in slices searched on all cores; the best of the union of the slices' best is the best of all.
        DeclarationTable table = image.Table;
        CandidateOrder order = new(table);
        int keep = offset + limit;
        int slices = table.Count < ParallelDeclarations ? 1 : SlicesPerCore * Math.Min(Environment.ProcessorCount, MaxCores);
        (List<Candidate> Kept, int Total)[] found = new (List<Candidate>, int)[slices];
        ulong wanted = NameFilter.QueryMask(name);
        int size = (table.Count + slices - 1) / slices;
        if (slices == 1)
        {
            found[0] = Scan(table, order, 0, table.Count, name, wanted, kindCode, container, keep);
        }
        else
        {
            Parallel.For(0, slices, new ParallelOptions { MaxDegreeOfParallelism = Math.Min(Environment.ProcessorCount, MaxCores) }, slice =>
                found[slice] = Scan(table, order, slice * size, Math.Min(table.Count, (slice + 1) * size), name, wanted, kindCode, container, keep));
        }

        List<Candidate> kept = [.. found.SelectMany(f => f.Kept)];
        kept.Sort(order);
        List<SymbolSearchItem> page = [.. kept.Take(keep).Skip(offset).Select(c =>
        {
            SyntaxDeclaration d = table.Declaration(c.Index);
            return new SymbolSearchItem(d.Display, d.Kind, d.Container, d.Signature, table.Path(table.FileOf(c.Index)), d.Line, d.Character, d.EndLine, d.EndCharacter) { Condition = d.Condition };
        })];
        return (page, found.Sum(f => f.Total));
    }

    /// <summary>One slice of the table: its matches' count and its best <paramref name="keep"/>.</summary>
    private static (List<Candidate> Kept, int Total) Scan(DeclarationTable table, CandidateOrder order, int from, int to, string name, ulong wanted, byte? kindCode, string? container, int keep)
    {
        PriorityQueue<Candidate, Candidate> best = new(keep + 1, order.Reversed);
        ReadOnlySpan<ulong> masks = table.Masks;
        ReadOnlySpan<byte> kinds = table.KindCodes;
        int total = 0;
        for (int i = from; i < to; i++)
        {
            if (!NameFilter.MayMatch(masks[i], wanted) || (kindCode is { } code && kinds[i] != code))
            {
                continue;
            }

            ReadOnlySpan<char> declared = table.Name(i);
            if (!NameFilter.MayBeSubsequence(name, declared))
            {
                continue;
            }

            int score = NameMatch.Score(declared, name);
            if (score == int.MaxValue || (container is not null && !ContainerMatches(table.Declaration(i).Container, container)))
            {
                continue;
            }

            total++;
            Candidate candidate = new(score, RankByCode[kinds[i]], declared.Length, i);
            if (best.Count < keep)
            {
                best.Enqueue(candidate, candidate);
            }
            else if (order.Compare(candidate, best.Peek()) < 0)
            {
                best.DequeueEnqueue(candidate, candidate);
            }
        }

        return ([.. best.UnorderedItems.Select(item => item.Element)], total);
    }

    /// <summary>A scored declaration of the table; only the requested page becomes answer items.</summary>
    private readonly record struct Candidate(int Score, int KindRank, int NameLength, int Index);

    /// <summary>Score, kind rank, name length, then path (files are numbered in path order) and position in the file.</summary>
    private sealed class CandidateOrder : IComparer<Candidate>
    {
        private readonly DeclarationTable table;

        public CandidateOrder(DeclarationTable table)
        {
            this.table = table;
            this.Reversed = Comparer<Candidate>.Create((a, b) => this.Compare(b, a));
        }

        /// <summary>Worst first: the top of a bounded max-heap is the candidate to drop.</summary>
        public IComparer<Candidate> Reversed { get; }

        public int Compare(Candidate a, Candidate b)
        {
            int order = a.Score.CompareTo(b.Score);
            order = order != 0 ? order : a.KindRank.CompareTo(b.KindRank);
            order = order != 0 ? order : a.NameLength.CompareTo(b.NameLength);
            order = order != 0 ? order : this.table.FileOf(a.Index).CompareTo(this.table.FileOf(b.Index));
            if (order != 0 || a.Index == b.Index)
            {
                return order;
            }

            SyntaxDeclaration x = this.table.Declaration(a.Index);
            SyntaxDeclaration y = this.table.Declaration(b.Index);
            order = x.Line.CompareTo(y.Line);
            return order != 0 ? order : x.Character.CompareTo(y.Character);
        }
    }

    /// <summary>The container equals the wanted one or ends with it at a dot (Core.Calculator matches Calc.Core.Calculator).</summary>
    private static bool ContainerMatches(string? declared, string? wanted) =>
        wanted is null
        || (declared is not null && (declared.Equals(wanted, StringComparison.Ordinal) || declared.EndsWith("." + wanted, StringComparison.Ordinal)));

    /// <summary>As csharp_symbols ranks within one match quality: types, then members that run code, then the rest.</summary>
    private static int KindRank(string kind) => kind switch
    {
        "class" or "record" or "struct" or "interface" or "enum" or "delegate" => 0,
        "method" or "constructor" or "operator" or "property" or "event" => 1,
        _ => 2,
    };

    /// <summary><see cref="KindRank(string)"/> by <see cref="DeclarationTable.KindCodes"/> code.</summary>
    private static readonly int[] RankByCode = [.. Enumerable.Range(0, 256).Select(code => KindRank(code < DeclarationTable.Kinds.Length ? DeclarationTable.Kinds[code] : string.Empty))];
}
