using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// fixtures/PolyfillGenerator: a polyfill generator (like PolySharp, which CommunityToolkit/dotnet uses) that
/// SharpClaw excludes. Without it the netstandard2.0 flavour misses IsExternalInit (CS0518) and sees another
/// assembly's internal NotNullWhenAttribute (CS0122), so its callers get CS8602 (errors under TreatWarningsAsErrors), in Lib
/// and in Consumer, which references it — errors dotnet build does not have. They are marked as possibly from the excluded
/// generator and counted apart, never reported as plain errors.
/// </summary>
public sealed class PolyfillGeneratorTests
{
    [Fact]
    public async Task Diagnostics_MarkTheErrorsAnAbsentPolyfillGeneratorCauses_WhereDotnetBuildHasNone()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("PolyfillGenerator", "PolyfillGenerator.slnx");
        (int exitCode, string output) = FixtureWorkspace.Dotnet(fixture.Root, ["build", "PolyfillGenerator.slnx", "-m:1", "--no-restore"]);
        Assert.True(exitCode == 0 && output.Contains(" 0 Error(s)", StringComparison.Ordinal), output);

        await using SemanticHost host = await SemanticHost.StartAsync();
        DiagnosticsResult result = await host.DiagnosticsAsync(fixture.Root, new DiagnosticsParams { Severity = "error" });
        string listed = string.Join("\n", result.Diagnostics!.Select(d => $"{d.Id} {d.Path}:{d.Line} {d.ExcludedGenerator} {d.Message}"));
        Assert.True(result.Diagnostics!.Any(d => d.Id == "CS0518") && result.Diagnostics!.Any(d => d.Id == "CS0122"), listed);

        // Knock-ons no list of codes names are marked too, by reach: CS8602 (an error under TreatWarningsAsErrors) in Lib,
        // whose generator did not run, and in Consumer, which only references Lib.
        Assert.Contains(result.Diagnostics!, d => (d.Id, d.Path) == ("CS8602", "Lib/Setting.cs"));
        Assert.Contains(result.Diagnostics!, d => (d.Id, d.Path) == ("CS8602", "Consumer/Names.cs"));
        Assert.All(result.Diagnostics!, d => Assert.Equal("Generator", d.ExcludedGenerator));
        Assert.Equal(result.Diagnostics!.Count, result.PossiblyFromExcludedGenerators);
        GeneratorCaveat caveat = Assert.Single(result.GeneratorCaveats!);
        Assert.Equal(["Consumer/Consumer.csproj", "Lib/Lib.csproj"], caveat.Projects);
    }
}
