using System.Collections.Immutable;
using System.Globalization;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// Diagnostics skip an analyzer in the files where none of its rules can reach the asked severity (issue 39). On
/// fixtures/DiagnosticNarrowing, Strict/.editorconfig raises CA1822, CA1825 and CA1812 to warning in one folder, so
/// at warning those analyzers run for Strict/ and are skipped in the Loose files, except where an analyzer can carry
/// what it saw in one file to a diagnostic in another: rules reported at the end of the compilation (CA1812 spares
/// Helper, an internal class Loose/User.cs instantiates) and the parts of a partial type (PartialWorker, never
/// skipped). Every answer equals the direct Roslyn call over every kept analyzer on the same
/// project (MSBuildWorkspace, <see cref="CompilationWithAnalyzers.GetAllDiagnosticsAsync(CancellationToken)"/>),
/// filtered alike: a narrowing that skipped a file it must not would invent those warnings, one that dropped an
/// analyzer (or a file) that can warn would lose Strict/'s.
/// </summary>
public sealed class DiagnosticNarrowingTests
{
    [Fact]
    public async Task Diagnostics_SkipAnAnalyzerOnlyInFilesWhereItCannotWarn_AndAnswerExactlyAsTheUnnarrowedRun()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("DiagnosticNarrowing", "DiagnosticNarrowing.slnx");
        await using SemanticHost host = await SemanticHost.StartAsync();
        Task<DiagnosticsResult> AskAsync(DiagnosticsParams parameters) => Poll.WithTimeout(
            host.Host.Client.InvokeWithParameterObjectAsync<DiagnosticsResult>(ProtocolMethods.Diagnostics, parameters with { Workspace = fixture.Root, Project = "Lib", Limit = 200, Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.Diagnostics);

        using DirectAnalyzers roslyn = await DirectAnalyzers.LoadAsync(fixture, "DiagnosticNarrowing.slnx", "Lib");
        ImmutableArray<Diagnostic> truth = await roslyn.WithAnalyzers.GetAllDiagnosticsAsync();

        List<string> Expected(int minimum, string[]? ids) => [.. truth
            .Where(d => !d.IsSuppressed && d.Location.IsInSource && SeverityNames.Rank(d.Severity) >= minimum && (ids is null || ids.Contains(d.Id, StringComparer.OrdinalIgnoreCase)))
            .Select(d => (Diagnostic: d, Path: Path.GetRelativePath(fixture.Root, d.Location.SourceTree!.FilePath).Replace('\\', '/')))
            .Where(d => !d.Path.StartsWith("..", StringComparison.Ordinal) && !d.Path.Contains("obj/", StringComparison.Ordinal))
            .Select(d => Key(d.Path, d.Diagnostic.Location.GetLineSpan().StartLinePosition.Line + 1, d.Diagnostic.Id, SeverityNames.Name(d.Diagnostic.Severity)))
            .Distinct().Order(StringComparer.Ordinal)];

        // The fixture's point, on the truth itself: Strict/ warns (in PartialWorker's Strict part too), Helper is
        // spared because Loose/User.cs creates it, the Loose files only inform.
        List<string> warnings = Expected(2, null);
        Assert.Contains("Lib/Strict/StrictWorker.cs:10 CA1822 warning", warnings);
        Assert.Contains("Lib/Strict/StrictWorker.cs:12 CA1825 warning", warnings);
        Assert.Contains("Lib/Strict/PartialWorker.Strict.cs:6 CA1822 warning", warnings);
        Assert.Equal(["Lib/Strict/Helpers.cs:10 CA1812 warning"], [.. warnings.Where(w => w.Contains(" CA1812 ", StringComparison.Ordinal))]); // Unused, not Helper
        Assert.DoesNotContain(warnings, w => w.StartsWith("Lib/Loose/", StringComparison.Ordinal));
        Assert.Equal(
            ["Lib/Loose/Plain.cs:6 CA1822 information", "Lib/Loose/Plain.cs:8 CA1822 information", "Lib/Loose/User.cs:6 CA1822 information"],
            [.. Expected(1, ["CA1822"]).Where(i => i.StartsWith("Lib/Loose/", StringComparison.Ordinal))]);

        foreach (string severity in SeverityNames.All)
        {
            foreach (string[]? ids in new string[]?[] { null, ["CA1822"], ["CA1812"], ["ca1825", "CA1822"] })
            {
                DiagnosticsResult answer = await AskAsync(new DiagnosticsParams { Severity = severity, Ids = ids });
                Assert.Equal(Expected(Array.IndexOf(SeverityNames.All, severity), ids), Listed(answer));
            }
        }

        // What is computed is narrowed per file: at warning, CA1822 runs for Strict/ and the partial type's parts but
        // is skipped in Loose/Plain.cs and Loose/User.cs, so their three informational CA1822 are not even counted below.
        DiagnosticsResult narrowed = await AskAsync(new DiagnosticsParams { Severity = "warning", Ids = ["CA1822"] });
        Assert.Equal(5, Listed(narrowed).Count);
        Assert.Equal(0, narrowed.BelowSeverity);
    }

    private static List<string> Listed(DiagnosticsResult result)
    {
        Assert.False(result.Truncated);
        return [.. result.Diagnostics!.Select(d => Key(d.Path, d.Line, d.Id, d.Severity)).Distinct().Order(StringComparer.Ordinal)];
    }

    private static string Key(string path, int line, string id, string severity) =>
        string.Create(CultureInfo.InvariantCulture, $"{path}:{line} {id} {severity}");
}
