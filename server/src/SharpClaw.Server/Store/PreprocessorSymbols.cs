using System.Collections.Concurrent;
using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Store;

/// <summary>
/// The preprocessor symbol sets the syntax index parses a file with besides none: those of the workspace's modern
/// flavour (<c>NET</c>, <c>NETCOREAPP</c> and the <c>NETx_0_OR_GREATER</c> set of its highest target framework) and of
/// its lowest (<c>NETSTANDARD2_0</c>, <c>NETFRAMEWORK</c>, ...), each with <c>DEBUG</c> and <c>TRACE</c>, so a declaration
/// under <c>#if NET</c> or its <c>#else</c> is found. The frameworks are read from the text of the project and props
/// files (every element whose name holds TargetFramework); nothing is evaluated. Without any, the modern set is
/// net10.0's and there is no lowest.
/// </summary>
internal sealed partial record PreprocessorSymbols(IReadOnlyList<string> Modern, IReadOnlyList<string>? Lowest, string Key)
{
    /// <summary>A project or props file larger than this is not read for its frameworks.</summary>
    private const long MaxProjectFileBytes = BoundedFileRead.MaxProjectFileBytes;

    private static readonly ConcurrentDictionary<string, (long Size, long Ticks, string[] Frameworks)> Read = new(StringComparer.Ordinal);

    // Static fields initialize in textual order: these version lists come before Default, which Parse reads them for.
    private static readonly (int Major, int Minor)[] StandardVersions = [(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (2, 0), (2, 1)];

    private static readonly (int Major, int Minor)[] CoreVersions = [(1, 0), (1, 1), (2, 0), (2, 1), (2, 2), (3, 0), (3, 1)];

    private static readonly string[] FrameworkVersions = ["20", "30", "35", "40", "45", "451", "452", "46", "461", "462", "47", "471", "472", "48", "481"];

    public static PreprocessorSymbols Default { get; } = For(["net10.0"]);

    /// <summary>The sets of the frameworks the given project and props files name (re-read only when a file's size or time changed).</summary>
    public static PreprocessorSymbols FromProjectFiles(IEnumerable<string> files)
    {
        SortedSet<string> frameworks = new(StringComparer.Ordinal);
        foreach (string file in files)
        {
            frameworks.UnionWith(FrameworksIn(file));
        }

        return frameworks.Count == 0 ? Default : For(frameworks);
    }

    /// <summary>The sets of the highest and the lowest of <paramref name="frameworks"/> (target framework monikers).</summary>
    public static PreprocessorSymbols For(IEnumerable<string> frameworks)
    {
        List<(int Rank, string[] Symbols)> known = [.. frameworks.Select(Parse).OfType<(int, string[])>().OrderBy(f => f.Item1)];
        if (known.Count == 0)
        {
            return Default;
        }

        string[] modern = known[^1].Symbols;
        string[]? lowest = known[0].Rank == known[^1].Rank ? null : known[0].Symbols;
        string key = Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(string.Join(";", modern) + "|" + string.Join(";", lowest ?? []))))[..8];
        return new PreprocessorSymbols(modern, lowest, key);
    }

    /// <summary>The frameworks an element named like *TargetFramework(s)* lists in one file; empty when unreadable or too large.</summary>
    internal static string[] FrameworksIn(string file)
    {
        try
        {
            FileInfo info = new(file);
            if (!info.Exists || info.Length > MaxProjectFileBytes)
            {
                return [];
            }

            (long Size, long Ticks, string[] Frameworks) entry = Read.GetValueOrDefault(file);
            if (entry.Frameworks is not null && entry.Size == info.Length && entry.Ticks == info.LastWriteTimeUtc.Ticks)
            {
                return entry.Frameworks;
            }

            if (BoundedFileRead.ReadText(file, MaxProjectFileBytes, out _) is not { } projectText)
            {
                return []; // A FIFO or device named like a project, or one that grew past the bound.
            }

            string[] found = [.. FrameworkElement().Matches(projectText)
                .SelectMany(m => m.Groups[2].Value.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
                .Where(value => Parse(value) is not null)
                .Distinct(StringComparer.OrdinalIgnoreCase)];
            Read[file] = (info.Length, info.LastWriteTimeUtc.Ticks, found);
            return found;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return [];
        }
    }

    /// <summary>
    /// A framework's rank (.NET Framework &lt; .NET Standard &lt; .NET Core &lt; .NET 5+, then by version) and the symbols
    /// the SDK defines for it; null for anything else (a property reference, a platform-only value).
    /// </summary>
    internal static (int Rank, string[] Symbols)? Parse(string moniker)
    {
        string tfm = moniker.Trim().ToLowerInvariant();
        int dash = tfm.IndexOf('-');
        if (dash > 0)
        {
            tfm = tfm[..dash]; // net8.0-windows: the platform adds symbols of its own, the framework's stay.
        }

        Match match = Moniker().Match(tfm);
        if (!match.Success)
        {
            return null;
        }

        List<string> symbols = ["DEBUG", "TRACE"];
        if (match.Groups["standard"].Success)
        {
            (int major, int minor) = (int.Parse(match.Groups["smajor"].Value), int.Parse(match.Groups["sminor"].Value));
            symbols.AddRange(["NETSTANDARD", $"NETSTANDARD{major}_{minor}"]);
            symbols.AddRange(StandardVersions.Where(v => (v.Major, v.Minor).CompareTo((major, minor)) <= 0).Select(v => $"NETSTANDARD{v.Major}_{v.Minor}_OR_GREATER"));
            return (2000 + (major * 10) + minor, [.. symbols]);
        }

        if (match.Groups["core"].Success)
        {
            (int major, int minor) = (int.Parse(match.Groups["cmajor"].Value), int.Parse(match.Groups["cminor"].Value));
            symbols.AddRange(["NETCOREAPP", $"NETCOREAPP{major}_{minor}"]);
            symbols.AddRange(CoreVersions.Where(v => (v.Major, v.Minor).CompareTo((major, minor)) <= 0).Select(v => $"NETCOREAPP{v.Major}_{v.Minor}_OR_GREATER"));
            return (3000 + (major * 10) + minor, [.. symbols]);
        }

        if (match.Groups["modern"].Success)
        {
            (int major, int minor) = (int.Parse(match.Groups["nmajor"].Value), int.Parse(match.Groups["nminor"].Value));
            if (major < 5)
            {
                return null;
            }

            symbols.AddRange(["NET", "NETCOREAPP", $"NET{major}_{minor}"]);
            symbols.AddRange(CoreVersions.Select(v => $"NETCOREAPP{v.Major}_{v.Minor}_OR_GREATER"));
            symbols.AddRange(Enumerable.Range(5, major - 4).Select(v => $"NET{v}_0_OR_GREATER"));
            return (4000 + (major * 10) + minor, [.. symbols]);
        }

        // net472, net48, net20...: .NET Framework.
        string digits = match.Groups["framework"].Value;
        int version = int.Parse(digits.PadRight(3, '0'));
        symbols.AddRange(["NETFRAMEWORK", $"NET{digits}"]);
        symbols.AddRange(FrameworkVersions.Where(v => int.Parse(v.PadRight(3, '0')) <= version).Select(v => $"NET{v}_OR_GREATER"));
        return (1000 + version, [.. symbols]);
    }

    [GeneratedRegex(@"^(?:(?<standard>netstandard(?<smajor>\d)\.(?<sminor>\d))|(?<core>netcoreapp(?<cmajor>\d)\.(?<cminor>\d))|(?<modern>net(?<nmajor>\d{1,2})\.(?<nminor>\d))|net(?<framework>[1-4]\d{1,2}))$", RegexOptions.CultureInvariant)]
    private static partial Regex Moniker();

    [GeneratedRegex(@"<(\w*TargetFrameworks?\w*)\b[^>/]*>([^<]*)</\1\s*>", RegexOptions.CultureInvariant)]
    private static partial Regex FrameworkElement();
}
