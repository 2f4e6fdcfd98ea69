using SharpClaw.Protocol.Store;
using SharpClaw.Server.Semantic;
using SharpClaw.Server.Semantic.Navigation;

namespace SharpClaw.Server.Store;

/// <summary>
/// <c>symbol_search</c> over the syntax index: declarations whose name matches the query, scored by the rule
/// csharp_symbols uses (<see cref="SymbolsService.Score"/>: exact, prefix, camel humps, substring), then types
/// before members before fields, then shorter names (JsConv: JsonConverter before CustomJsonConverter), then path and position. A dotted query (<c>Calculator.Add</c>) searches the
/// last segment inside containers ending with the rest. Searched in this host's <see cref="IndexImage"/>: the
/// query's characters (<see cref="NameFilter"/>) narrow the declarations, the score decides.
/// </summary>
internal static class SymbolSearch
{
    /// <summary>Below this many declarations one thread answers sooner than several can be started.</summary>
    private const int ParallelDeclarations = 20_000;

    /// <summary>More slices than cores, so a core that starts late still finds slices left to take.</summary>
    private const int SlicesPerCore = 4;

    private const int MaxCores = 4;

    private static readonly HashSet<string> Kinds = new(StringComparer.Ordinal)
    {
        "namespace", "class", "record", "struct", "interface", "enum", "delegate", "method", "constructor", "operator", "property", "field", "event",
    };

    public static (List<SymbolSearchItem> Page, int Total) Find(IndexImage image, string query, string? kind, string? container, int offset, int limit)
    {
        if (kind is not null && !Kinds.Contains(kind))
        {
            throw SemanticException.InvalidRequest($"kind '{kind}' is not one of: {string.Join(", ", Kinds)}.");
        }

        string name = query.Trim();
        int dot = name.LastIndexOf('.');
        if (dot > 0 && dot < name.Length - 1)
        {
            container = container is null ? name[..dot] : container + "." + name[..dot];
            name = name[(dot + 1)..];
        }

        // Only the best offset+limit of each slice are kept (a bounded max-heap: its top is the worst kept), so a query
        // that matches ten thousand names sorts fifty; the total still counts every match. A large index is split in
        // slices searched on all cores; the best of the union of the slices' best is the best of all.
        int keep = offset + limit;
        KeyValuePair<string, IndexedFile>[] entries = image.Entries;
        int slices = image.DeclarationCount < ParallelDeclarations ? 1 : SlicesPerCore * Math.Min(Environment.ProcessorCount, MaxCores);
        (List<Candidate> Kept, int Total)[] found = new (List<Candidate>, int)[slices];
        ulong wanted = NameFilter.QueryMask(name);
        int size = (entries.Length + slices - 1) / slices;
        Parallel.For(0, slices, new ParallelOptions { MaxDegreeOfParallelism = Math.Min(Environment.ProcessorCount, MaxCores) }, slice =>
            found[slice] = Scan(entries, slice * size, Math.Min(entries.Length, (slice + 1) * size), name, wanted, kind, container, keep));

        List<Candidate> kept = [.. found.SelectMany(f => f.Kept)];
        kept.Sort(Candidate.Compare);
        List<SymbolSearchItem> page = [.. kept.Take(keep).Skip(offset).Select(c => new SymbolSearchItem(c.Declaration.Display, c.Declaration.Kind, c.Declaration.Container, c.Declaration.Signature, c.Path, c.Declaration.Line, c.Declaration.Character, c.Declaration.EndLine, c.Declaration.EndCharacter))];
        return (page, found.Sum(f => f.Total));
    }

    /// <summary>One slice of the files: its matches' count and its best <paramref name="keep"/>.</summary>
    private static (List<Candidate> Kept, int Total) Scan(KeyValuePair<string, IndexedFile>[] entries, int from, int to, string name, ulong wanted, string? kind, string? container, int keep)
    {
        PriorityQueue<Candidate, Candidate> best = new(keep + 1, Comparer<Candidate>.Create((a, b) => Candidate.Compare(b, a)));
        int total = 0;
        for (int f = from; f < to; f++)
        {
            (string path, IndexedFile file) = entries[f];
            ulong[] masks = file.NameMasks;
            for (int i = 0; i < masks.Length; i++)
            {
                if (!NameFilter.MayMatch(masks[i], wanted))
                {
                    continue;
                }

                SyntaxDeclaration d = file.Declarations[i];
                if ((kind is not null && d.Kind != kind) || !NameFilter.MayBeSubsequence(name, d.Name))
                {
                    continue;
                }

                int score = SymbolsService.Score(d.Name, name);
                if (score == int.MaxValue || !ContainerMatches(d.Container, container))
                {
                    continue;
                }

                total++;
                Candidate candidate = new(score, KindRank(d.Kind), path, d);
                if (best.Count < keep)
                {
                    best.Enqueue(candidate, candidate);
                }
                else if (Candidate.Compare(candidate, best.Peek()) < 0)
                {
                    best.DequeueEnqueue(candidate, candidate);
                }
            }
        }

        return ([.. best.UnorderedItems.Select(item => item.Element)], total);
    }

    /// <summary>A scored declaration; only the requested page becomes answer items.</summary>
    private readonly record struct Candidate(int Score, int KindRank, string Path, SyntaxDeclaration Declaration)
    {
        public static int Compare(Candidate a, Candidate b)
        {
            int order = a.Score.CompareTo(b.Score);
            order = order != 0 ? order : a.KindRank.CompareTo(b.KindRank);
            order = order != 0 ? order : a.Declaration.Name.Length.CompareTo(b.Declaration.Name.Length);
            order = order != 0 ? order : string.CompareOrdinal(a.Path, b.Path);
            order = order != 0 ? order : a.Declaration.Line.CompareTo(b.Declaration.Line);
            return order != 0 ? order : a.Declaration.Character.CompareTo(b.Declaration.Character);
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
}
