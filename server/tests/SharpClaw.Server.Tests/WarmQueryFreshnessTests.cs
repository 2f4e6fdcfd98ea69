using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// A warm query runs on the cached snapshot while the freshness check runs beside it
/// (<c>SemanticContextCache.QueryAsync</c>): an edit made just before the query must still be in its answer
/// (the stale answer is thrown away and the query runs again on the refreshed snapshot), a failure the stale
/// snapshot would give must not leak, and a build-file change must still ask for authorization.
/// </summary>
public sealed class WarmQueryFreshnessTests
{
    private const string Describe = "ReadTools.Core.Calculator.Describe";

    [Fact]
    public async Task EveryWarmQuery_SeesTheEditMadeJustBeforeIt_NeverTheSnapshotItStartedOn()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("ReadTools", "ReadTools.slnx");
        await using SemanticHost host = await SemanticHost.StartAsync();
        await host.InspectAsync(fixture.Root, target: "ReadTools.slnx");
        int loads = host.Cache.LoadCount;
        int before = (await ResolveAsync(host, fixture, Describe)).Symbol.Locations[0].Line;
        Assert.Equal(before, (await ResolveAsync(host, fixture, Describe)).Symbol.Locations[0].Line); // warm

        // Two lines above the method: resolve, navigate and symbols all report the moved line at once.
        fixture.Edit("Core/Calculator.cs", text => "// one\n// two\n" + text);
        Assert.Equal(before + 2, (await ResolveAsync(host, fixture, Describe)).Symbol.Locations[0].Line);
        fixture.Edit("Core/Calculator.cs", text => "// three\n" + text);
        NavigateResult definition = await host.Host.Client.InvokeWithParameterObjectAsync<NavigateResult>(
            ProtocolMethods.Navigate, new NavigateParams { Workspace = fixture.Root, Target = "ReadTools.slnx", Action = "definition", Name = Describe, Tool = "test-tool" });
        Assert.Equal(before + 3, definition.Locations![0].Line);
        fixture.Edit("Core/Calculator.cs", text => "// four\n" + text);
        SymbolsResult symbols = await host.Host.Client.InvokeWithParameterObjectAsync<SymbolsResult>(
            ProtocolMethods.Symbols, new SymbolsParams { Workspace = fixture.Root, Target = "ReadTools.slnx", Path = "Core/Calculator.cs", Tool = "test-tool" });
        Assert.Contains(symbols.Items, s => s.Name.Contains("Describe", StringComparison.Ordinal) && s.Line == before + 4);

        // A removed method is not found (the snapshot the query started on still had it); an added one is found.
        fixture.Edit("Core/Calculator.cs", text => text.Replace("public string Describe(string? label) => label ?? \"none\";", "public string Added() => \"x\";", StringComparison.Ordinal));
        await SemanticErrors.ExpectAsync(SemanticErrorKind.SymbolNotFound, () => ResolveAsync(host, fixture, Describe));
        Assert.Equal(before + 4, (await ResolveAsync(host, fixture, "ReadTools.Core.Calculator.Added")).Symbol.Locations[0].Line);
        Assert.Equal(loads, host.Cache.LoadCount); // Source edits refresh the snapshot; MSBuild did not run.

        // A build-file change is never answered from the old snapshot: it needs a new authorization.
        host.Client.DenyAll("not now");
        fixture.Edit("Core/Core.csproj", text => text.Replace("</Project>", "  <PropertyGroup><Deterministic>true</Deterministic></PropertyGroup>\n</Project>", StringComparison.Ordinal));
        SemanticErrorData denied = await SemanticErrors.ExpectAsync(SemanticErrorKind.PermissionDenied, () => ResolveAsync(host, fixture, "ReadTools.Core.Calculator.Added"));
        Assert.Contains("Core/Core.csproj", denied.Message, StringComparison.Ordinal);
    }

    private static Task<SymbolResolveResult> ResolveAsync(SemanticHost host, FixtureWorkspace fixture, string name) =>
        host.Host.Client.InvokeWithParameterObjectAsync<SymbolResolveResult>(
            ProtocolMethods.SymbolResolve, new SymbolResolveParams { Workspace = fixture.Root, Target = "ReadTools.slnx", Name = name, Tool = "test-tool" });
}
