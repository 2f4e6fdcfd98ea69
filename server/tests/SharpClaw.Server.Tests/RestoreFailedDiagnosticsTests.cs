using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// fixtures/RestoreFailed: App references a package no source serves, so <c>dotnet restore</c> fails with NU1101 and
/// <c>dotnet build</c> stops at the restore of App (no compiler error there), while Core has a real CS0103. Compiled
/// without the package, App has CS0246: an error no build reports. It is marked as possibly from the failed restore,
/// counted apart and listed after Core's error, which stands (found on jab: 24 such errors in two projects whose
/// restore failed with NU1101, read as real).
/// </summary>
public sealed class RestoreFailedDiagnosticsTests
{
    [Fact]
    public async Task ErrorsOfAProjectWhoseRestoreFailed_AreMarked_AndEveryUnmarkedErrorIsOneDotnetBuildReports()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("RestoreFailed");
        (int restoreExit, string restoreOutput) = FixtureWorkspace.Dotnet(fixture.Root, ["restore", "RestoreFailed.slnx", "-nologo", "--tl:off", "-v:q"]);
        Assert.True(restoreExit != 0 && restoreOutput.Contains("NU1101", StringComparison.Ordinal), restoreOutput);
        (int buildExit, string build) = FixtureWorkspace.Dotnet(fixture.Root, ["build", "RestoreFailed.slnx", "--no-restore", "-nologo", "--tl:off", "-v:q", "-m:1"]);
        Assert.NotEqual(0, buildExit);

        await using SemanticHost host = await SemanticHost.StartAsync();
        DiagnosticsResult result = await host.DiagnosticsAsync(fixture.Root, new DiagnosticsParams { Severity = "error" });
        string listed = string.Join("\n", result.Diagnostics!.Select(d => $"{d.Id} {d.Path}:{d.Line}:{d.Character} restore={d.RestoreFailed}"));

        // Every error that stands is one dotnet build reports, at the same place.
        List<DiagnosticItem> standing = [.. result.Diagnostics!.Where(d => d.RestoreFailed is null && d.ExcludedGenerator is null)];
        Assert.True(standing.Count == 1, listed);
        DiagnosticItem real = standing[0];
        Assert.Equal(("CS0103", "Core/Broken.cs"), (real.Id, real.Path));
        Assert.Contains($"Broken.cs({real.Line},{real.Character}): error CS0103", build, StringComparison.Ordinal);

        // App's errors are marked with what the restore could not do, listed after the one that stands, counted apart.
        List<DiagnosticItem> marked = [.. result.Diagnostics!.Where(d => d.RestoreFailed is not null)];
        Assert.NotEmpty(marked);
        Assert.All(marked, d => Assert.Equal(("App/App.csproj", "NU1101 SharpClaw.Fixtures.NoSuchPackage"), (d.Project, d.RestoreFailed)));
        Assert.Contains(marked, d => d.Id == "CS0246");
        Assert.DoesNotContain("error CS0246", build, StringComparison.Ordinal);
        Assert.Equal(real, result.Diagnostics![0]);
        Assert.Equal(marked.Count, result.PossiblyFromFailedRestores);
        RestoreCaveat caveat = Assert.Single(result.RestoreCaveats!);
        Assert.Equal(new RestoreCaveat("App/App.csproj", "NU1101 SharpClaw.Fixtures.NoSuchPackage", marked.Count), caveat);

        // The summary gives the marked errors a line of their own, after the line that stands.
        DiagnosticsResult summary = await host.DiagnosticsAsync(fixture.Root, new DiagnosticsParams { Severity = "error", Summary = true });
        Assert.Equal([("CS0103", false), ("CS0246", true)], summary.Summary!.Select(s => (s.Id, s.RestoreFailed)));
    }
}
