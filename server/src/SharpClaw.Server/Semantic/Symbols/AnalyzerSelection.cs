using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;

namespace SharpClaw.Server.Semantic.Symbols;

/// <summary>
/// Which analyzers can contribute to a diagnostics answer, and in which files: an analyzer runs when one of its
/// supported diagnostics (only the asked ids, when ids are asked) can take an effective severity at or above the
/// asked minimum in at least one of the selected files. The others are not run — their diagnostics would all be
/// dropped below the severity. Of those that run, the rules that cannot reach the minimum in a file are
/// <see cref="Narrowing.Silenced"/> there, so the analyzer driver skips the analyzer in that file (Roslyn's own
/// per-tree suppression), when that cannot change what it reports elsewhere (see <see cref="Localizable"/>).
/// <para>
/// The effective severity of a rule in a file follows the compiler: a configured value (the file's
/// .editorconfig via <see cref="SyntaxTreeOptionsProvider.TryGetDiagnosticValue"/>, the project's
/// <see cref="CompilationOptions.SpecificDiagnosticOptions"/> from rulesets, NoWarn and WarningsAsErrors, a
/// .globalconfig via <see cref="SyntaxTreeOptionsProvider.TryGetGlobalDiagnosticValue"/>) replaces whatever the
/// analyzer reported; without one, the descriptor's default (none when it is disabled by default) or a bulk
/// <c>dotnet_analyzer_diagnostic[.category-X].severity</c> entry; TreatWarningsAsErrors lifts a warning to an
/// error. Where sources disagree the highest counts, so the selection can only keep too much, never too little.
/// Kept always and everywhere: diagnostic suppressors (they may hide what a kept analyzer or the compiler
/// reports), analyzers whose descriptors cannot be read, descriptors marked NotConfigurable (options do not bound
/// them), and unconfigured IDE rules (the code-style analyzers report with the severity their option value names).
/// </para>
/// <para>
/// The tree-independent part of a rule's severity (project options, .globalconfig, default, global bulk entries)
/// is read once per rule and each file's options once per file: with 280 SDK analyzers and 40 files the
/// selection read every source for every rule in every file and cost about half the compiler's own diagnostics
/// (issue 39, bench diagnostics-real12).
/// </para>
/// </summary>
internal static class AnalyzerSelection
{
    /// <summary>Severity ranks as the protocol orders them: hint 0, information 1, warning 2, error 3; suppressed -1.</summary>
    public static int Rank(DiagnosticSeverity severity) => severity switch
    {
        DiagnosticSeverity.Error => 3,
        DiagnosticSeverity.Warning => 2,
        DiagnosticSeverity.Info => 1,
        _ => 0,
    };

    /// <summary>
    /// The analyzers of <paramref name="analyzers"/> that can report at rank <paramref name="minimum"/> or above in one
    /// of <paramref name="trees"/> (limited to <paramref name="ids"/> when given), in their original order, and per
    /// file the rule ids that can be silenced there.
    /// </summary>
    public static Narrowing Select(
        ImmutableArray<DiagnosticAnalyzer> analyzers, CompilationOptions options, AnalyzerOptions analyzerOptions,
        IReadOnlyCollection<SyntaxTree> trees, int minimum, IReadOnlySet<string>? ids, CancellationToken cancellationToken)
    {
        if (minimum <= 0 && ids is null)
        {
            return new Narrowing(analyzers, ImmutableDictionary<SyntaxTree, ImmutableHashSet<string>>.Empty); // every severity is asked: nothing can be left out
        }

        SyntaxTree[] files = [.. trees];
        Severities severities = new(options, analyzerOptions, files, cancellationToken);
        ImmutableArray<DiagnosticAnalyzer>.Builder kept = ImmutableArray.CreateBuilder<DiagnosticAnalyzer>();

        // Per file: the ids of kept, localizable analyzers that cannot reach the minimum there, and the ids that can.
        HashSet<string>?[] silent = new HashSet<string>?[files.Length];
        HashSet<string>?[] reaching = new HashSet<string>?[files.Length];
        foreach (DiagnosticAnalyzer analyzer in analyzers)
        {
            if (analyzer is DiagnosticSuppressor)
            {
                kept.Add(analyzer);
                continue;
            }

            ImmutableArray<DiagnosticDescriptor> descriptors;
            try
            {
                descriptors = analyzer.SupportedDiagnostics;
            }
            catch (Exception)
            {
                kept.Add(analyzer); // the driver reports the failure (AD0001) as it did before
                continue;
            }

            bool[] reachIn = new bool[files.Length];
            bool everywhere = false;
            bool anywhere = false;
            foreach (DiagnosticDescriptor descriptor in descriptors)
            {
                if (ids is not null && !ids.Contains(descriptor.Id))
                {
                    continue;
                }

                Rule rule = severities.RuleFor(descriptor);
                if (rule.Everywhere(minimum))
                {
                    everywhere = anywhere = true;
                    break;
                }

                for (int i = 0; i < files.Length; i++)
                {
                    if (severities.HighestRank(rule, i) >= minimum)
                    {
                        anywhere = reachIn[i] = true;
                        (reaching[i] ??= new(StringComparer.Ordinal)).Add(descriptor.Id);
                    }
                }
            }

            if (!anywhere)
            {
                continue;
            }

            kept.Add(analyzer);
            if (everywhere || !Localizable(descriptors))
            {
                continue;
            }

            for (int i = 0; i < files.Length; i++)
            {
                if (!reachIn[i])
                {
                    HashSet<string> set = silent[i] ??= new(StringComparer.Ordinal);
                    foreach (DiagnosticDescriptor descriptor in descriptors)
                    {
                        set.Add(descriptor.Id);
                    }
                }
            }
        }

        ImmutableDictionary<SyntaxTree, ImmutableHashSet<string>>.Builder silenced = ImmutableDictionary.CreateBuilder<SyntaxTree, ImmutableHashSet<string>>();
        for (int i = 0; i < files.Length; i++)
        {
            if (silent[i] is not { } set)
            {
                continue;
            }

            // An id another analyzer (or another rule with that id) can still report at the minimum there stays.
            set.ExceptWith(reaching[i] ?? []);
            set.RemoveWhere(id => id.StartsWith("CS", StringComparison.OrdinalIgnoreCase)); // the compiler's own ids are never touched
            if (set.Count > 0 && !DeclaresPartialType(files[i], cancellationToken))
            {
                silenced[files[i]] = [.. set];
            }
        }

        return new Narrowing(kept.ToImmutable(), silenced.ToImmutable());
    }

    /// <summary>
    /// Whether skipping the analyzer in one file cannot change what it reports in another: none of its rules is
    /// reported at the end of the compilation (descriptors tagged <see cref="WellKnownDiagnosticTags.CompilationEnd"/>,
    /// as the SDK's analyzers tag them; such an analyzer may gather from every file, as CA1812 gathers the
    /// instantiations), and none is NotConfigurable. The state a symbol-start analyzer keeps per type spans files
    /// only through partial types: a file that declares one is never silenced (<see cref="DeclaresPartialType"/>).
    /// </summary>
    private static bool Localizable(ImmutableArray<DiagnosticDescriptor> descriptors)
    {
        foreach (DiagnosticDescriptor descriptor in descriptors)
        {
            foreach (string tag in descriptor.CustomTags)
            {
                if (tag is WellKnownDiagnosticTags.CompilationEnd or WellKnownDiagnosticTags.NotConfigurable)
                {
                    return false;
                }
            }
        }

        return true;
    }

    /// <summary>Whether the file declares a partial type (one type's symbol-start analysis then spans files) or is not C#.</summary>
    private static bool DeclaresPartialType(SyntaxTree tree, CancellationToken cancellationToken)
    {
        if (tree.GetRoot(cancellationToken) is not CompilationUnitSyntax root)
        {
            return true;
        }

        foreach (SyntaxNode node in root.DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax or TypeDeclarationSyntax))
        {
            if (node is TypeDeclarationSyntax type && type.Modifiers.Any(SyntaxKind.PartialKeyword))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Marks a configured value of <see cref="ReportDiagnostic.Default"/> (the rule keeps its own severity).</summary>
    private const int DefaultRank = int.MinValue + 1;

    private static int Rank(ReportDiagnostic report, CompilationOptions options) => report switch
    {
        ReportDiagnostic.Error => 3,
        ReportDiagnostic.Warn => options.GeneralDiagnosticOption == ReportDiagnostic.Error ? 3 : 2,
        ReportDiagnostic.Info => 1,
        ReportDiagnostic.Hidden => 0,
        ReportDiagnostic.Suppress => -1,
        _ => DefaultRank,
    };

    /// <summary>TreatWarningsAsErrors: a warning the options do not name is reported as an error.</summary>
    private static DiagnosticSeverity Lift(DiagnosticSeverity severity, CompilationOptions options) =>
        severity == DiagnosticSeverity.Warning && options.GeneralDiagnosticOption == ReportDiagnostic.Error ? DiagnosticSeverity.Error : severity;

    private static int? BulkRank(string value, CompilationOptions options) => value.Trim().ToLowerInvariant() switch
    {
        "error" => 3,
        "warning" => options.GeneralDiagnosticOption == ReportDiagnostic.Error ? 3 : 2,
        "suggestion" => 1,
        "silent" or "refactoring" => 0,
        "none" => -1,
        _ => null,
    };

    /// <summary>
    /// One rule's tree-independent severity parts: <see cref="Configured"/>, the highest of the project's and the
    /// .globalconfig's values (int.MinValue: none), and <see cref="Unconfigured"/>, the default lifted by
    /// TreatWarningsAsErrors or raised by a global bulk entry.
    /// </summary>
    private readonly record struct Rule(string Id, string CategoryKey, bool NotConfigurable, bool Ide, int Configured, int Unconfigured)
    {
        /// <summary>Whether the rule reaches <paramref name="minimum"/> in every file whatever the file's own options say (the highest counts).</summary>
        public bool Everywhere(int minimum) => this.NotConfigurable || (this.Configured != int.MinValue && this.Configured != DefaultRank && this.Configured >= minimum);
    }

    /// <summary>The sources of effective severities of one selection, each file's options read once.</summary>
    private sealed class Severities(CompilationOptions options, AnalyzerOptions analyzerOptions, SyntaxTree[] files, CancellationToken cancellationToken)
    {
        private const string GeneralKey = "dotnet_analyzer_diagnostic.severity";
        private readonly SyntaxTreeOptionsProvider? provider = options.SyntaxTreeOptionsProvider;
        private readonly AnalyzerConfigOptions globalOptions = analyzerOptions.AnalyzerConfigOptionsProvider.GlobalOptions;
        private readonly AnalyzerConfigOptions?[] treeOptions = new AnalyzerConfigOptions?[files.Length];
        private readonly Dictionary<string, string> categoryKeys = new(StringComparer.Ordinal);

        public Rule RuleFor(DiagnosticDescriptor descriptor)
        {
            string id = descriptor.Id;
            if (!this.categoryKeys.TryGetValue(descriptor.Category, out string? categoryKey))
            {
                this.categoryKeys[descriptor.Category] = categoryKey = $"dotnet_analyzer_diagnostic.category-{descriptor.Category}.severity";
            }

            int configured = int.MinValue;
            if (options.SpecificDiagnosticOptions.TryGetValue(id, out ReportDiagnostic specific))
            {
                configured = Math.Max(configured, Rank(specific, options));
            }

            if (this.provider is not null && this.provider.TryGetGlobalDiagnosticValue(id, cancellationToken, out ReportDiagnostic global))
            {
                configured = Math.Max(configured, Rank(global, options));
            }

            int unconfigured = descriptor.IsEnabledByDefault ? Rank(Lift(descriptor.DefaultSeverity, options)) : -1;
            foreach (string key in new[] { categoryKey, GeneralKey })
            {
                if (this.globalOptions.TryGetValue(key, out string? value) && BulkRank(value, options) is int bulk)
                {
                    unconfigured = Math.Max(unconfigured, bulk);
                }
            }

            return new Rule(
                id,
                categoryKey,
                descriptor.CustomTags.Contains(WellKnownDiagnosticTags.NotConfigurable),
                id.StartsWith("IDE", StringComparison.OrdinalIgnoreCase),
                configured,
                unconfigured);
        }

        /// <summary>The highest severity rank the rule can take in file <paramref name="index"/> (-1: suppressed there).</summary>
        public int HighestRank(Rule rule, int index)
        {
            int configured = rule.Configured;
            if (this.provider is not null && this.provider.TryGetDiagnosticValue(files[index], rule.Id, cancellationToken, out ReportDiagnostic inTree))
            {
                configured = Math.Max(configured, Rank(inTree, options));
            }

            if (configured != int.MinValue && configured != DefaultRank)
            {
                return configured;
            }

            if (rule.Ide)
            {
                return 3; // a code-style rule reports with the severity its option names (csharp_style_x = true:error)
            }

            int unconfigured = rule.Unconfigured;
            AnalyzerConfigOptions local = this.treeOptions[index] ??= analyzerOptions.AnalyzerConfigOptionsProvider.GetOptions(files[index]);
            if (local.TryGetValue(rule.CategoryKey, out string? category) && BulkRank(category, options) is int byCategory)
            {
                unconfigured = Math.Max(unconfigured, byCategory);
            }

            if (local.TryGetValue(GeneralKey, out string? general) && BulkRank(general, options) is int byAll)
            {
                unconfigured = Math.Max(unconfigured, byAll);
            }

            return unconfigured;
        }
    }
}

/// <summary>
/// The analyzers to run and, per file, the rule ids that cannot reach the asked severity there (nor be asked), all of
/// one analyzer's ids together, so the driver skips it in that file.
/// </summary>
internal sealed record Narrowing(ImmutableArray<DiagnosticAnalyzer> Analyzers, ImmutableDictionary<SyntaxTree, ImmutableHashSet<string>> Silenced);
