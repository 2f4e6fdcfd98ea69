using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace SharpClaw.Server.Semantic.Symbols;

/// <summary>
/// Which analyzers can contribute to a diagnostics answer: one whose supported diagnostics (only the asked ids,
/// when ids are asked) can take an effective severity at or above the asked minimum in at least one of the
/// selected files. The others are not run — their diagnostics would all be dropped below the severity.
/// <para>
/// The effective severity of a rule in a file follows the compiler: a configured value (the file's
/// .editorconfig via <see cref="SyntaxTreeOptionsProvider.TryGetDiagnosticValue"/>, the project's
/// <see cref="CompilationOptions.SpecificDiagnosticOptions"/> from rulesets, NoWarn and WarningsAsErrors, a
/// .globalconfig via <see cref="SyntaxTreeOptionsProvider.TryGetGlobalDiagnosticValue"/>) replaces whatever the
/// analyzer reported; without one, the descriptor's default (none when it is disabled by default) or a bulk
/// <c>dotnet_analyzer_diagnostic[.category-X].severity</c> entry; TreatWarningsAsErrors lifts a warning to an
/// error. Where sources disagree the highest counts, so the selection can only keep too much, never too little.
/// Kept always: diagnostic suppressors (they may hide what a kept analyzer or the compiler reports), analyzers
/// whose descriptors cannot be read, descriptors marked NotConfigurable (options do not bound them), and
/// unconfigured IDE rules (the code-style analyzers report with the severity their option value names).
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
    /// of <paramref name="trees"/> (limited to <paramref name="ids"/> when given), in their original order.
    /// </summary>
    public static ImmutableArray<DiagnosticAnalyzer> Select(
        ImmutableArray<DiagnosticAnalyzer> analyzers, CompilationOptions options, AnalyzerOptions analyzerOptions,
        IReadOnlyCollection<SyntaxTree> trees, int minimum, IReadOnlySet<string>? ids, CancellationToken cancellationToken)
    {
        if (minimum <= 0 && ids is null)
        {
            return analyzers; // every severity is asked: nothing can be left out
        }

        ImmutableArray<DiagnosticAnalyzer>.Builder kept = ImmutableArray.CreateBuilder<DiagnosticAnalyzer>();
        foreach (DiagnosticAnalyzer analyzer in analyzers)
        {
            if (analyzer is DiagnosticSuppressor || CanReport(analyzer, options, analyzerOptions, trees, minimum, ids, cancellationToken))
            {
                kept.Add(analyzer);
            }
        }

        return kept.ToImmutable();
    }

    private static bool CanReport(
        DiagnosticAnalyzer analyzer, CompilationOptions options, AnalyzerOptions analyzerOptions,
        IReadOnlyCollection<SyntaxTree> trees, int minimum, IReadOnlySet<string>? ids, CancellationToken cancellationToken)
    {
        ImmutableArray<DiagnosticDescriptor> descriptors;
        try
        {
            descriptors = analyzer.SupportedDiagnostics;
        }
        catch (Exception)
        {
            return true; // the driver reports the failure (AD0001) as it did before
        }

        foreach (DiagnosticDescriptor descriptor in descriptors)
        {
            if (ids is not null && !ids.Contains(descriptor.Id))
            {
                continue;
            }

            if (descriptor.CustomTags.Contains(WellKnownDiagnosticTags.NotConfigurable))
            {
                return true;
            }

            foreach (SyntaxTree tree in trees)
            {
                if (HighestRank(descriptor, tree, options, analyzerOptions, cancellationToken) >= minimum)
                {
                    return true;
                }
            }
        }

        return false;
    }

    /// <summary>The highest severity rank the rule can take in the file (-1: suppressed there).</summary>
    private static int HighestRank(DiagnosticDescriptor descriptor, SyntaxTree tree, CompilationOptions options, AnalyzerOptions analyzerOptions, CancellationToken cancellationToken)
    {
        string id = descriptor.Id;
        int configured = int.MinValue;
        SyntaxTreeOptionsProvider? provider = options.SyntaxTreeOptionsProvider;
        if (provider is not null && provider.TryGetDiagnosticValue(tree, id, cancellationToken, out ReportDiagnostic inTree))
        {
            configured = Math.Max(configured, Rank(inTree, options));
        }

        if (options.SpecificDiagnosticOptions.TryGetValue(id, out ReportDiagnostic specific))
        {
            configured = Math.Max(configured, Rank(specific, options));
        }

        if (provider is not null && provider.TryGetGlobalDiagnosticValue(id, cancellationToken, out ReportDiagnostic global))
        {
            configured = Math.Max(configured, Rank(global, options));
        }

        if (configured != int.MinValue && configured != DefaultRank)
        {
            return configured;
        }

        if (id.StartsWith("IDE", StringComparison.OrdinalIgnoreCase))
        {
            return 3; // a code-style rule reports with the severity its option names (csharp_style_x = true:error)
        }

        int unconfigured = descriptor.IsEnabledByDefault ? Rank(Lift(descriptor.DefaultSeverity, options)) : -1;
        AnalyzerConfigOptions treeOptions = analyzerOptions.AnalyzerConfigOptionsProvider.GetOptions(tree);
        AnalyzerConfigOptions globalOptions = analyzerOptions.AnalyzerConfigOptionsProvider.GlobalOptions;
        foreach (string key in new[] { $"dotnet_analyzer_diagnostic.category-{descriptor.Category}.severity", "dotnet_analyzer_diagnostic.severity" })
        {
            foreach (AnalyzerConfigOptions source in new[] { treeOptions, globalOptions })
            {
                if (source.TryGetValue(key, out string? value) && BulkRank(value, options) is int bulk)
                {
                    unconfigured = Math.Max(unconfigured, bulk);
                }
            }
        }

        return unconfigured;
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
}
