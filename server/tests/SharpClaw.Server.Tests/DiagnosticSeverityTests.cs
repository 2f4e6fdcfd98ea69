using System.Collections.Immutable;
using System.Globalization;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// Diagnostics run only the analyzers that can report at the asked severity (issue 39), so the effective
/// severities must be right: fixtures/DiagnosticSeverities raises, lowers and bulk-configures SDK rules per
/// folder (.editorconfig), globally (.globalconfig) and per project (WarningsAsErrors). Every answer, at every
/// severity, with and without ids, equals the direct Roslyn call over the same analyzers on the same flavour
/// (MSBuildWorkspace), filtered alike: <see cref="CompilationWithAnalyzers.GetAllDiagnosticsAsync(CancellationToken)"/>
/// for a whole project, the semantic model plus the analyzers' syntax and semantic diagnostics for one file.
/// </summary>
public sealed class DiagnosticSeverityTests
{
    [Fact]
    public async Task Diagnostics_AtEverySeverityAndIds_EqualADirectCompilationWithAnalyzers_UnderPerFolderSeverities()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("DiagnosticSeverities", "DiagnosticSeverities.slnx");
        await using SemanticHost host = await SemanticHost.StartAsync();
        Task<DiagnosticsResult> AskAsync(DiagnosticsParams parameters) => Poll.WithTimeout(
            host.Host.Client.InvokeWithParameterObjectAsync<DiagnosticsResult>(ProtocolMethods.Diagnostics, parameters with { Workspace = fixture.Root, Limit = 200, Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.Diagnostics);

        DiagnosticsResult first = await AskAsync(new DiagnosticsParams { Project = "Lib", Severity = "hint" });
        string framework = Assert.Single(first.Projects).TargetFramework!;

        using DirectAnalyzers roslyn = await DirectAnalyzers.LoadAsync(fixture, "DiagnosticSeverities.slnx", $"Lib({framework})");
        Compilation compilation = roslyn.Compilation;
        CompilationWithAnalyzers withAnalyzers = roslyn.WithAnalyzers;
        ImmutableArray<Diagnostic> truth = await withAnalyzers.GetAllDiagnosticsAsync();

        // One file is answered the way Roslyn analyzes one file (the host does so for up to four files): the
        // semantic model's diagnostics plus the analyzers' syntax and semantic diagnostics of that tree.
        Dictionary<string, ImmutableArray<Diagnostic>> perFile = new(StringComparer.Ordinal);
        foreach (SyntaxTree tree in compilation.SyntaxTrees.Where(t => t.FilePath.StartsWith(fixture.Root, StringComparison.Ordinal)))
        {
            SemanticModel model = compilation.GetSemanticModel(tree);
            perFile[Path.GetRelativePath(fixture.Root, tree.FilePath).Replace('\\', '/')] = [
                .. model.GetDiagnostics(),
                .. await withAnalyzers.GetAnalyzerSyntaxDiagnosticsAsync(tree, CancellationToken.None),
                .. await withAnalyzers.GetAnalyzerSemanticDiagnosticsAsync(model, null, CancellationToken.None)];
        }

        List<string> Expected(string severity, string[]? ids, string? path) => [.. (path is null ? truth : perFile[path])
            .Where(d => !d.IsSuppressed && d.Location.IsInSource && SeverityNames.Rank(d.Severity) >= Array.IndexOf(SeverityNames.All, severity)
                && (ids is null || ids.Contains(d.Id, StringComparer.OrdinalIgnoreCase)))
            .Select(d => (Diagnostic: d, Path: Path.GetRelativePath(fixture.Root, d.Location.SourceTree!.FilePath).Replace('\\', '/')))
            .Where(d => !d.Path.StartsWith("..", StringComparison.Ordinal) && !d.Path.Contains("obj/", StringComparison.Ordinal) && (path is null || d.Path == path))
            .Select(d => Key(d.Path, d.Diagnostic.Location.GetLineSpan().StartLinePosition.Line + 1, d.Diagnostic.Location.GetLineSpan().StartLinePosition.Character + 1, d.Diagnostic.Id, SeverityNames.Name(d.Diagnostic.Severity)))
            .Distinct().Order(StringComparer.Ordinal)];

        // The fixture's point, checked on the truth itself: the per-folder severities really differ.
        List<string> errors = Expected("error", null, null);
        Assert.Contains(errors, e => e.StartsWith("Lib/Strict/StrictWorker.cs:", StringComparison.Ordinal) && e.Contains(" CA1822 error", StringComparison.Ordinal));
        Assert.DoesNotContain(errors, e => e.Contains(" CA1822 ", StringComparison.Ordinal) && !e.StartsWith("Lib/Strict/", StringComparison.Ordinal));
        List<string> warnings = Expected("warning", null, null);
        Assert.Contains(warnings, e => e.StartsWith("Lib/Bulk/BulkWorker.cs:", StringComparison.Ordinal) && e.Contains(" CA1822 warning", StringComparison.Ordinal));
        Assert.Contains(warnings, e => e.StartsWith("Lib/PlainWorker.cs:", StringComparison.Ordinal) && e.Contains(" CA2200 warning", StringComparison.Ordinal));
        Assert.DoesNotContain(warnings, e => e.StartsWith("Lib/Quiet/", StringComparison.Ordinal) && e.Contains(" CA2200 ", StringComparison.Ordinal));
        Assert.Contains(warnings, e => e.StartsWith("Lib/Quiet/QuietWorker.cs:", StringComparison.Ordinal) && e.Contains(" CA1825 warning", StringComparison.Ordinal));

        foreach (string severity in SeverityNames.All)
        {
            foreach (string[]? ids in new string[]?[] { null, ["CA1822"], ["ca2200", "CS0168"], ["CA1805"] })
            {
                DiagnosticsResult whole = await AskAsync(new DiagnosticsParams { Project = "Lib", Severity = severity, Ids = ids });
                Assert.Equal(Expected(severity, ids, null), Listed(whole));
            }

            foreach (string file in new[] { "Lib/Strict/StrictWorker.cs", "Lib/Quiet/QuietWorker.cs", "Lib/Bulk/BulkWorker.cs" })
            {
                DiagnosticsResult one = await AskAsync(new DiagnosticsParams { Path = file, Severity = severity });
                Assert.Equal(Expected(severity, null, file), Listed(one));
            }
        }

        // Only what is asked is computed: at "error" the informational analyzer diagnostics (CA1822 outside
        // Strict/, CA1805 is an error) are not computed, so fewer are counted below the severity than exist.
        DiagnosticsResult atError = await AskAsync(new DiagnosticsParams { Project = "Lib", Severity = "error" });
        int belowErrorInTruth = Expected("hint", null, null).Count - Expected("error", null, null).Count;
        Assert.True(atError.BelowSeverity < belowErrorInTruth, $"{atError.BelowSeverity} counted below the severity, {belowErrorInTruth} exist: the analyzers that cannot report an error ran");
    }

    private static List<string> Listed(DiagnosticsResult result)
    {
        Assert.False(result.Truncated);
        return [.. result.Diagnostics!.Select(d => Key(d.Path, d.Line, d.Character, d.Id, d.Severity)).Order(StringComparer.Ordinal)];
    }

    private static string Key(string path, int line, int character, string id, string severity) =>
        string.Create(CultureInfo.InvariantCulture, $"{path}:{line}:{character} {id} {severity}");
}
