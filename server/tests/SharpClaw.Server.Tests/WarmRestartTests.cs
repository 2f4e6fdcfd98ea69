using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.Data.Sqlite;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Protocol.Status;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Loading;
using SharpClaw.Server.Store;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// Warm restart from the approved snapshot in the store: a later host (a fresh in-memory host on the same state
/// folder) answers read-only queries without asking and without running project code (the DesignTimeMarker
/// fixture's MSBuild targets write marker files whenever they run), rebuilds exactly what a cold load builds,
/// and falls back to the authorized load when a build input changed or the store is damaged.
/// </summary>
public sealed class WarmRestartTests
{
    private const string DesignTimeMarker = "App/marker.txt";
    private const string InitialMarker = "App/initial-marker.txt";

    /// <summary>
    /// One approved load of one copy, then one state folder through every case (each host sees the store the one
    /// before it left, so the first authorized load is paid once): a new host answers from the approved snapshot
    /// without asking or running project code; each build input changed alone forces the authorized load again;
    /// a damaged row or store falls back to the authorized load and is rebuilt.
    /// </summary>
    [Fact]
    public async Task NewHost_AnswersFromTheApprovedSnapshot_WithoutAskingOrRunningProjectCode_UntilABuildInputChangesOrTheStoreIsDamaged()
    {
        using FixtureWorkspace fixture = RestoredMarkerFixture();
        using TempDirectory state = new();
        await LoadAndPersistAsync(fixture, state.Path);
        (int designTime, int initial) = (fixture.MarkerLines(DesignTimeMarker), fixture.MarkerLines(InitialMarker));
        Assert.True(designTime >= 1 && initial >= 1, "the approved load ran the project's targets");

        // A .cs edit between the hosts is picked up from disk: the snapshot holds no source text.
        fixture.Edit("App/Greeter.cs", text => text.Replace("public static class Greeter", "public static class Greeter\n{\n    public static int AddedBetweenHosts() => 1;\n}\n\npublic static class Unused", StringComparison.Ordinal));

        await using (SemanticHost warm = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = state.Path }))
        {
            warm.Client.DenyAll("must not be asked");
            SolutionInspectResult inspected = await warm.InspectAsync(fixture.Root);
            Assert.True(inspected.FromSnapshot);
            Assert.True(inspected.FromCache);
            Assert.Empty(warm.Client.AuthorizationRequests);
            Assert.Equal((designTime, initial), (fixture.MarkerLines(DesignTimeMarker), fixture.MarkerLines(InitialMarker)));
            Assert.Equal(0, warm.Cache.LoadCount);
            Assert.Equal(1, warm.Cache.RestoreCount);

            using (ContextLease lease = await warm.CachedLeaseAsync(fixture.Root))
            {
                Compilation compilation = (await lease.Solution.Projects.Single().GetCompilationAsync())!;
                Assert.NotEmpty(compilation.GetSymbolsWithName("AddedBetweenHosts"));
            }

            HostStatus status = await warm.StatusAsync();
            Assert.True(status.LoadedContexts.Single().FromSnapshot);
            Assert.Contains(warm.Client.Progress, p => p.CurrentProject == "from approved snapshot");

            // A write keeps the rules of a load: the restored context is not enough without authorization.
            ContextRequest write = SemanticWorkspaceService.CreateRequest(new SolutionInspectParams { Workspace = fixture.Root }) with { ForWrite = true };
            SemanticException denied = await Assert.ThrowsAsync<SemanticException>(() => warm.Cache.AcquireAsync(write, authorizer: null, CancellationToken.None));
            Assert.Equal(SemanticErrorKind.PermissionDenied, denied.Kind);
            Assert.Equal((designTime, initial), (fixture.MarkerLines(DesignTimeMarker), fixture.MarkerLines(InitialMarker)));
        }

        // Each build input changed alone, one after the other: the authorized load after each change stores the
        // snapshot the next change invalidates.
        foreach (string changed in new[] { "App/App.csproj", "Directory.Build.props", "App/obj/project.assets.json" })
        {
            int before = fixture.MarkerLines(DesignTimeMarker);
            fixture.Edit(changed, text => changed.EndsWith(".json", StringComparison.Ordinal) ? text + "\n" : text.Replace("</PropertyGroup>", "  <Deterministic>true</Deterministic>\n  </PropertyGroup>", StringComparison.Ordinal));

            await using SemanticHost host = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = state.Path });
            host.Client.DenyAll("asked again");
            await SemanticErrors.ExpectAsync(SemanticErrorKind.PermissionDenied, () => host.InspectAsync(fixture.Root));
            Assert.True(host.Client.AuthorizationRequests.Count == 1, $"{changed}: asked {host.Client.AuthorizationRequests.Count} times");
            Assert.True(host.Client.AuthorizationRequests[0].Reason == EvaluationReason.ColdLoad, $"{changed}: {host.Client.AuthorizationRequests[0].Reason}");
            Assert.True(before == fixture.MarkerLines(DesignTimeMarker), $"{changed}: project code ran before the approval");

            host.Client.GrantAll();
            SolutionInspectResult loaded = await host.InspectAsync(fixture.Root);
            Assert.False(loaded.FromSnapshot, changed);
            Assert.False(loaded.FromCache, changed);
            Assert.True(fixture.MarkerLines(DesignTimeMarker) > before, $"{changed}: the authorized load ran the design-time build again");

            // The snapshot of this load is the one the next change must invalidate.
            await host.Cache.Snapshots!.FlushAsync(TimeSpan.FromSeconds(30));
            Assert.True(host.Cache.Snapshots.WriteCount == 1, $"{changed}: the authorized load stored no snapshot");
        }

        // A damaged store (of the last authorized load above) falls back to the authorized load and is rebuilt.
        string database = Path.Combine(StateFolder.ForWorkspace(fixture.Root, StateFolder.Root(state.Path)), StoreDatabase.FileName);

        // A damaged row: unreadable data is deleted, the host asks, and the approved load writes a new row.
        using (SqliteConnection connection = new($"Data Source={database};Pooling=False"))
        {
            connection.Open();
            using SqliteCommand update = connection.CreateCommand();
            update.CommandText = "UPDATE snapshots SET data = x'1f8b0800000000000003ffff'";
            Assert.Equal(1, update.ExecuteNonQuery());
        }

        await AssertAskedThenPersistedAsync(fixture, state.Path);

        // A damaged file: not a SQLite database at all.
        StoreDatabase.Delete(database);
        await File.WriteAllTextAsync(database, "this is not a database, it is a damaged store");
        await AssertAskedThenPersistedAsync(fixture, state.Path);

        await using SemanticHost rebuilt = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = state.Path });
        rebuilt.Client.DenyAll("must not be asked");
        Assert.True((await rebuilt.InspectAsync(fixture.Root)).FromSnapshot);
        Assert.Empty(rebuilt.Client.AuthorizationRequests);
    }

    /// <summary>
    /// The rebuilt solution is the cold load's: same options, documents, references, analyzers, generator
    /// output and compiler diagnostics, project by project (SDK generators, a package generator replaced by the
    /// SDK's copy, project references, several target frameworks, excluded project analyzers). The cold host's
    /// load is also the one solutionInspect reports on (its cold load paid once, not again in another class):
    /// SdkGenerators' generators kept and the package generator replaced by the SDK's copy; MultiTarget's
    /// restored frameworks and one compilation per framework, and a second context for net8.0 alone.
    /// </summary>
    [Theory]
    [InlineData("SdkGenerators", "SdkGenerators.slnx")]
    [InlineData("Calculator", "Calculator.slnx")]
    [InlineData("MultiTarget", "MultiTarget.csproj")]
    [InlineData("CustomAnalyzers", "CustomAnalyzers.slnx")]
    public async Task RestoredSolution_EqualsTheColdLoad(string name, string target)
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored(name, target);
        using TempDirectory state = new();
        await using SemanticHost cold = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = state.Path });
        cold.Client.GrantAll();
        SolutionInspectResult coldInspect = await cold.InspectAsync(fixture.Root, target);
        await cold.Cache.Snapshots!.FlushAsync(TimeSpan.FromSeconds(30));
        Assert.Equal(1, cold.Cache.Snapshots.WriteCount);

        await using SemanticHost warm = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = state.Path });
        warm.Client.DenyAll("must not be asked");
        SolutionInspectResult warmInspect = await warm.InspectAsync(fixture.Root, target);
        Assert.True(warmInspect.FromSnapshot);
        Assert.Equal(
            System.Text.Json.JsonSerializer.Serialize(coldInspect with { FromCache = false, FromSnapshot = false }),
            System.Text.Json.JsonSerializer.Serialize(warmInspect with { FromCache = false, FromSnapshot = false }));

        using ContextLease coldLease = await cold.CachedLeaseAsync(fixture.Root, target);
        using ContextLease warmLease = await warm.CachedLeaseAsync(fixture.Root, target);
        Assert.Equal(coldLease.Solution.FilePath, warmLease.Solution.FilePath);
        Assert.Equal(coldLease.Solution.Projects.Select(p => p.Name), warmLease.Solution.Projects.Select(p => p.Name));
        foreach (Project coldProject in coldLease.Solution.Projects)
        {
            Project warmProject = warmLease.Solution.Projects.Single(p => p.Name == coldProject.Name);
            await SolutionAssert.SameProjectAsync(coldProject, warmProject);
            Assert.Equal(coldLease.Context.Frameworks[coldProject.Id], warmLease.Context.Frameworks[warmProject.Id]);
        }

        Assert.Equal(coldLease.Context.ExcludedAnalyzers, warmLease.Context.ExcludedAnalyzers);
        Assert.Equal(coldLease.Context.SubstitutedAnalyzers, warmLease.Context.SubstitutedAnalyzers);

        switch (name)
        {
            case "SdkGenerators":
                await AssertSdkGeneratorsAreKept_PackageGeneratorTheSdkShipsIsReplacedByTheSdkCopyAsync(cold, coldInspect, coldLease);
                break;
            case "MultiTarget":
                await AssertMultiTargetedProject_ListsAllRestoredFrameworks_AndEachCompilationSaysWhichItUsedAsync(cold, fixture, target, coldInspect);
                break;
        }
    }

    /// <summary>Moved from InspectTests (the same load): SDK generators kept, a package generator the SDK ships replaced by the SDK's copy.</summary>
    private static async Task AssertSdkGeneratorsAreKept_PackageGeneratorTheSdkShipsIsReplacedByTheSdkCopyAsync(SemanticHost host, SolutionInspectResult result, ContextLease lease)
    {
        Assert.Equal(LoadStatus.Complete, result.LoadStatus);
        Assert.Empty(result.ExcludedAnalyzers);

        Project sdk = lease.Solution.Projects.Single(p => p.Name == "SdkGenerators");
        Assert.All(sdk.AnalyzerReferences, a => Assert.True(host.Cache.Loader.Trust.IsTrusted(a.FullPath)));
        Compilation compilation = (await sdk.GetCompilationAsync())!;
        Assert.Empty(compilation.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error));
        List<string> generated = [.. (await sdk.GetSourceGeneratedDocumentsAsync()).Select(d => d.Name)];
        Assert.Contains(generated, n => n.Contains("OrderJsonContext", StringComparison.Ordinal));     // System.Text.Json
        Assert.Contains(generated, n => n.Contains("RegexGenerator", StringComparison.Ordinal));       // GeneratedRegex
        Assert.Contains(generated, n => n.Contains("LoggerMessage", StringComparison.Ordinal));        // LoggerMessage

        // The Microsoft.Extensions.Logging.Abstractions package's LoggerMessage generator runs as the SDK's
        // copy of the same assembly (packs/Microsoft.AspNetCore.App.Ref): the partial method is implemented.
        Project packageOnly = lease.Solution.Projects.Single(p => p.Name == "PackageLogging");
        AnalyzerSubstitution substitution = Assert.Single(lease.Context.SubstitutedAnalyzers, s => s.ProjectPath == packageOnly.FilePath);
        Assert.StartsWith("microsoft.extensions.logging.abstractions/", substitution.Package, StringComparison.OrdinalIgnoreCase);
        Assert.True(host.Cache.Loader.Trust.IsTrusted(substitution.SdkPath));
        Assert.All(packageOnly.AnalyzerReferences, a => Assert.True(host.Cache.Loader.Trust.IsTrusted(a.FullPath)));
        Compilation withSdkCopy = (await packageOnly.GetCompilationAsync())!;
        Assert.DoesNotContain(withSdkCopy.GetDiagnostics(), d => d.Id == "CS8795");
    }

    /// <summary>
    /// Moved from InspectTests (the same load, then net8.0 alone): a multi-targeted project lists all restored
    /// frameworks, and each compilation says which it used.
    /// </summary>
    private static async Task AssertMultiTargetedProject_ListsAllRestoredFrameworks_AndEachCompilationSaysWhichItUsedAsync(SemanticHost host, FixtureWorkspace fixture, string target, SolutionInspectResult all)
    {
        SolutionInspectResult net8 = await host.InspectAsync(fixture.Root, target, targetFramework: "net8.0");

        InspectedProject project = Assert.Single(all.Projects);
        Assert.Equal(["net8.0", "net10.0"], project.TargetFrameworks);
        Assert.Equal(["net10.0", "net8.0"], project.RestoredTargetFrameworks.Order(StringComparer.Ordinal));
        Assert.Equal(
            [("MultiTarget(net10.0)", "net10.0"), ("MultiTarget(net8.0)", "net8.0")],
            project.Compilations.Select(c => (c.Name, c.TargetFramework)));
        Assert.Null(all.TargetFramework);

        InspectedProject only8 = Assert.Single(net8.Projects);
        Assert.Equal("net8.0", net8.TargetFramework);
        ProjectCompilation compilation = Assert.Single(only8.Compilations);
        Assert.Equal(("MultiTarget", "net8.0"), (compilation.Name, compilation.TargetFramework));
        Assert.Equal(["net10.0", "net8.0"], only8.RestoredTargetFrameworks.Order(StringComparer.Ordinal));

        // The net8.0 compilation really is net8.0: the NET10-only member does not exist there.
        using (ContextLease lease = await host.CachedLeaseAsync(fixture.Root, target, targetFramework: "net8.0"))
        {
            Compilation compiled = (await lease.Solution.Projects.Single().GetCompilationAsync())!;
            Assert.Empty(compiled.GetSymbolsWithName("OnlyOnNet10"));
        }

        // Two contexts for one target: the framework is part of the key.
        HostStatus status = await host.StatusAsync();
        Assert.Equal([("net8.0", 1), (null, 2)], status.LoadedContexts.Select(c => (c.TargetFramework, c.ProjectCount)));
    }

    /// <summary>Host 1 loads with approval and stores the snapshot; it is gone before the next host starts.</summary>
    private static async Task LoadAndPersistAsync(FixtureWorkspace fixture, string stateRoot)
    {
        await using SemanticHost host = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = stateRoot });
        host.Client.GrantAll();
        SolutionInspectResult loaded = await host.InspectAsync(fixture.Root);
        Assert.False(loaded.FromSnapshot);
        await host.Cache.Snapshots!.FlushAsync(TimeSpan.FromSeconds(30));
        Assert.Equal(1, host.Cache.Snapshots.WriteCount);
    }

    private static async Task AssertAskedThenPersistedAsync(FixtureWorkspace fixture, string stateRoot)
    {
        await using SemanticHost host = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = stateRoot });
        host.Client.DenyAll("asked again");
        await SemanticErrors.ExpectAsync(SemanticErrorKind.PermissionDenied, () => host.InspectAsync(fixture.Root));
        host.Client.GrantAll();
        Assert.False((await host.InspectAsync(fixture.Root)).FromSnapshot);
        await host.Cache.Snapshots!.FlushAsync(TimeSpan.FromSeconds(30));
        Assert.Equal(1, host.Cache.Snapshots.WriteCount);
    }

    private static FixtureWorkspace RestoredMarkerFixture()
    {
        FixtureWorkspace fixture = FixtureWorkspace.Restored("DesignTimeMarker", "DesignTimeMarker.slnx");
        fixture.DeleteFile(DesignTimeMarker); // Restore itself runs InitialTargets: count from zero.
        fixture.DeleteFile(InitialMarker);
        return fixture;
    }
}
