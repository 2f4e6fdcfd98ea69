using Microsoft.CodeAnalysis;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Protocol.Status;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Tests.Infrastructure;
using StreamJsonRpc;

namespace SharpClaw.Server.Tests;

/// <summary>
/// Evaluation authorization with a fixture whose MSBuild code writes marker files: an InitialTargets
/// target (runs in SharpClaw's evaluation pass and in design-time builds) and a BeforeTargets="CoreCompile"
/// target (design-time builds). A pure evaluation cannot write files (MSBuild rejects side-effecting
/// property functions, MSB4185), so these two markers are the observable proof of execution.
/// </summary>
public sealed class AuthorizationTests
{
    private const string DesignTimeMarker = "App/marker.txt";
    private const string InitialMarker = "App/initial-marker.txt";

    /// <summary>
    /// One restored copy and one host (the cold load paid once): project code runs only after approval, the
    /// cached context answers without asking, every structural change asks again; then, while a person decides
    /// on another configuration's load, cached queries, graph and status answer; that load denied leaves the
    /// cached context usable, a denied structural reload leaves it unusable; shutdown answers during a pending
    /// approval, and the late approval loads nothing.
    /// </summary>
    [Fact]
    public async Task ProjectCode_RunsOnlyAfterApproval_AndEveryStructuralChangeAsksAgain_AndAPendingOrDeniedApprovalLeavesCachedContextsUsable_AndShutdownAnswers()
    {
        using FixtureWorkspace fixture = RestoredMarkerFixture();
        await using SemanticHost host = await SemanticHost.StartAsync();

        // Denied: PermissionDenied, and not one line of project code ran.
        host.Client.DenyAll("not now");
        SemanticErrorData denied = await SemanticErrors.ExpectAsync(SemanticErrorKind.PermissionDenied, () => host.InspectAsync(fixture.Root));
        Assert.Contains("not now", denied.Message, StringComparison.Ordinal);
        await SemanticErrors.ExpectAsync(SemanticErrorKind.PermissionDenied, () => host.GraphAsync(fixture.Root));
        Assert.Equal(0, fixture.MarkerLines(DesignTimeMarker));
        Assert.Equal(0, fixture.MarkerLines(InitialMarker));
        AuthorizeEvaluationParams first = host.Client.AuthorizationRequests[0];
        Assert.Equal(
            new AuthorizeEvaluationParams(fixture.Root, "DesignTimeMarker.slnx", "Debug", null, EvaluationReason.ColdLoad, [], "test-tool", null),
            first with { ChangedFiles = [] });
        Assert.Empty(first.ChangedFiles);

        // Approved: the design-time build ran the target.
        host.Client.GrantAll();
        SolutionInspectResult loaded = await host.InspectAsync(fixture.Root);
        Assert.False(loaded.FromCache);
        Assert.True(fixture.MarkerLines(DesignTimeMarker) >= 1, "The design-time build did not run the marker target.");
        Assert.True(fixture.MarkerLines(InitialMarker) >= 1);
        int designTime = fixture.MarkerLines(DesignTimeMarker);
        int initial = fixture.MarkerLines(InitialMarker);
        int asked = host.Client.AuthorizationRequests.Count;

        // Cached: no question, no project code.
        SolutionInspectResult cached = await host.InspectAsync(fixture.Root);
        ProjectGraphResult graph = await host.GraphAsync(fixture.Root);
        Assert.True(cached.FromCache);
        Assert.True(graph.FromCache);
        Assert.Equal(asked, host.Client.AuthorizationRequests.Count);

        // A .cs edit is visible to the next query without evaluation.
        fixture.Edit("App/Greeter.cs", text => text.Replace("public static class Greeter", "public static class Greeter\n{\n    public static int Added() => 42;\n}\n\npublic static class Unused", StringComparison.Ordinal));
        SolutionInspectResult afterEdit = await host.InspectAsync(fixture.Root);
        Assert.True(afterEdit.FromCache);
        using (ContextLease lease = await host.CachedLeaseAsync(fixture.Root))
        {
            Document greeter = lease.Solution.Projects.Single().Documents.Single(d => d.Name == "Greeter.cs");
            Assert.Contains("Added() => 42", (await greeter.GetTextAsync()).ToString(), StringComparison.Ordinal);
            Compilation compilation = (await lease.Solution.Projects.Single().GetCompilationAsync())!;
            Assert.NotEmpty(compilation.GetSymbolsWithName("Added"));
            Assert.True(lease.Context.RefreshCount >= 1);
        }

        // A file whose time cannot prove it unchanged (written in the last two seconds; here dated a minute ahead, so
        // it stays so however slow the machine) is read again on every call. Its bytes are what the snapshot holds, so
        // the snapshot stays, compilations and the symbol index with it; before, every such call swapped in a new text
        // and started over (an agent asking again right after an edit paid the first query's cost twice).
        File.SetLastWriteTimeUtc(fixture.Path("App/Greeter.cs"), DateTime.UtcNow.AddMinutes(1));
        (int refreshes, Solution snapshot) = await RefreshStateAsync(host, fixture);
        Assert.True((await host.InspectAsync(fixture.Root)).FromCache);
        Assert.Equal((refreshes, snapshot), await RefreshStateAsync(host, fixture));

        Assert.Equal(asked, host.Client.AuthorizationRequests.Count);
        Assert.Equal((designTime, initial), (fixture.MarkerLines(DesignTimeMarker), fixture.MarkerLines(InitialMarker)));

        // Structural changes: each asks again (with the changed files) and runs the project code again.
        await AssertStructuralAsync(host, fixture, "App/App.csproj", () => fixture.Edit("App/App.csproj", t => t.Replace("<Nullable>enable</Nullable>", "<Nullable>enable</Nullable>\n    <LangVersion>latest</LangVersion>", StringComparison.Ordinal)));
        await AssertStructuralAsync(host, fixture, "Directory.Build.props", () => fixture.Edit("Directory.Build.props", t => t.Replace("</PropertyGroup>", "  <Deterministic>true</Deterministic>\n  </PropertyGroup>", StringComparison.Ordinal)));
        await AssertStructuralAsync(host, fixture, "App/Added.cs", () => fixture.Write("App/Added.cs", "namespace App;\n\npublic static class AddedLater\n{\n}\n"));
        await AssertStructuralAsync(host, fixture, "DesignTimeMarker.slnx", () => fixture.Edit("DesignTimeMarker.slnx", t => t.Replace("<Solution>", "<Solution>\n  <!-- edited -->", StringComparison.Ordinal)));
        await AssertStructuralAsync(host, fixture, "App/obj/project.assets.json", () => fixture.Edit("App/obj/project.assets.json", t => t + "\n"));
        await AssertStructuralAsync(host, fixture, "App/Directory.Build.targets", () => fixture.Write("App/Directory.Build.targets", "<Project />\n"));

        // A touch without a content change is not a change.
        File.SetLastWriteTimeUtc(fixture.Path("App/App.csproj"), DateTime.UtcNow.AddMinutes(1));
        Assert.True((await host.InspectAsync(fixture.Root)).FromCache);

        // Another configuration's load waits for a person's decision: meanwhile cached queries, graph and status answer.
        TaskCompletionSource<AuthorizeEvaluationResult> decision = new(TaskCreationOptions.RunContinuationsAsynchronously);
        host.Client.Answer = _ => decision.Task;
        int before = host.Client.AuthorizationRequests.Count;
        Task<SolutionInspectResult> pending = host.InspectAsync(fixture.Root, configuration: "Release");
        Assert.True(await Poll.UntilAsync(() => host.Client.AuthorizationRequests.Count > before, SemanticHost.Timeout), "No authorization request arrived.");
        Task<SolutionInspectResult> cachedWhilePending = host.InspectAsync(fixture.Root);
        Task<ProjectGraphResult> graphWhilePending = host.GraphAsync(fixture.Root);
        Task<HostStatus> statusWhilePending = host.StatusAsync();
        Assert.True((await Poll.WithTimeout(cachedWhilePending, TimeSpan.FromSeconds(10), "a cached query during a pending approval")).FromCache);
        Assert.True((await Poll.WithTimeout(graphWhilePending, TimeSpan.FromSeconds(10), "a cached graph during a pending approval")).FromCache);
        Assert.Single((await Poll.WithTimeout(statusWhilePending, TimeSpan.FromSeconds(10), "status during a pending approval")).LoadedContexts);
        Assert.False(pending.IsCompleted);

        // Denied, it leaves the cached context usable.
        decision.SetResult(new AuthorizeEvaluationResult { Granted = false, Message = "denied by the test" });
        await SemanticErrors.ExpectAsync(SemanticErrorKind.PermissionDenied, () => pending);
        host.Client.DenyAll();
        SolutionInspectResult cachedAfterDenial = await host.InspectAsync(fixture.Root);
        ProjectGraphResult graphAfterDenial = await host.GraphAsync(fixture.Root);

        Assert.True(cachedAfterDenial.FromCache);
        Assert.True(graphAfterDenial.FromCache);
        HostStatus status = await host.StatusAsync();
        LoadedContextInfo context = Assert.Single(status.LoadedContexts);
        Assert.Equal(new LoadedContextInfo(fixture.Path("DesignTimeMarker.slnx"), "Debug", null, 1, FromSnapshot: false), context);

        // A denied structural reload leaves the (now stale) context unusable, never silently stale.
        fixture.Edit("App/App.csproj", t => t.Replace("<Nullable>enable</Nullable>", "<Nullable>disable</Nullable>", StringComparison.Ordinal));
        SemanticErrorData stale = await SemanticErrors.ExpectAsync(SemanticErrorKind.PermissionDenied, () => host.InspectAsync(fixture.Root));
        Assert.Contains("App/App.csproj", stale.Message, StringComparison.Ordinal);

        // Shutdown answers while a person decides, and releases the contexts (the stale one is still held).
        Assert.NotEmpty(host.Cache.LoadedContexts);
        int loads = host.Cache.LoadCount;
        TaskCompletionSource<AuthorizeEvaluationResult> late = new(TaskCreationOptions.RunContinuationsAsynchronously);
        host.Client.Answer = _ => late.Task;
        before = host.Client.AuthorizationRequests.Count;
        Task<SolutionInspectResult> pendingAtShutdown = host.InspectAsync(fixture.Root, configuration: "Release");
        Assert.True(await Poll.UntilAsync(() => host.Client.AuthorizationRequests.Count > before, SemanticHost.Timeout), "No authorization request arrived.");
        object? shutdown = await Poll.WithTimeout(host.Host.Client.InvokeAsync<object?>(ProtocolMethods.Shutdown), TimeSpan.FromSeconds(10), "shutdown during a pending approval");
        Assert.Null(shutdown);
        Assert.True(await Poll.UntilAsync(() => host.Cache.LoadedContexts.Count == 0, TimeSpan.FromSeconds(10)));

        // The late approval cannot load anything into a host that is shutting down.
        late.SetResult(new AuthorizeEvaluationResult { Granted = true });
        SemanticErrorData lateError = await SemanticErrors.ExpectAsync(SemanticErrorKind.LoadFailed, () => pendingAtShutdown);
        Assert.Contains("shutting down", lateError.Message, StringComparison.Ordinal);
        Assert.Equal(loads, host.Cache.LoadCount);
    }

    [Fact]
    public async Task ClientErrorOnAuthorization_IsPermissionDenied()
    {
        using FixtureWorkspace fixture = RestoredMarkerFixture();
        await using SemanticHost host = await SemanticHost.StartAsync();
        host.Client.Answer = _ => throw new LocalRpcException("the approval dialog crashed") { ErrorCode = -32000 };

        SemanticErrorData error = await SemanticErrors.ExpectAsync(SemanticErrorKind.PermissionDenied, () => host.InspectAsync(fixture.Root));

        Assert.Contains("the approval dialog crashed", error.Message, StringComparison.Ordinal);
        Assert.Equal(0, fixture.MarkerLines(InitialMarker));
        Assert.Empty((await host.StatusAsync()).LoadedContexts);
    }

    private static FixtureWorkspace RestoredMarkerFixture()
    {
        FixtureWorkspace fixture = FixtureWorkspace.Restored("DesignTimeMarker", "DesignTimeMarker.slnx");

        // Restore itself runs InitialTargets: start counting from zero.
        fixture.DeleteFile(DesignTimeMarker);
        fixture.DeleteFile(InitialMarker);
        return fixture;
    }

    private static async Task<(int Refreshes, Solution Solution)> RefreshStateAsync(SemanticHost host, FixtureWorkspace fixture)
    {
        using ContextLease lease = await host.CachedLeaseAsync(fixture.Root);
        return (lease.Context.RefreshCount, lease.Context.Solution);
    }

    private static async Task AssertStructuralAsync(SemanticHost host, FixtureWorkspace fixture, string changedFile, Action change)
    {
        int asked = host.Client.AuthorizationRequests.Count;
        int designTime = fixture.MarkerLines(DesignTimeMarker);
        change();

        SolutionInspectResult result = await host.InspectAsync(fixture.Root);

        Assert.False(result.FromCache, $"{changedFile}: the context was reused after a structural change.");
        Assert.Equal(asked + 1, host.Client.AuthorizationRequests.Count);
        AuthorizeEvaluationParams request = host.Client.AuthorizationRequests[^1];
        Assert.Equal(EvaluationReason.StructuralChange, request.Reason);
        Assert.Contains(changedFile, request.ChangedFiles);
        Assert.True(fixture.MarkerLines(DesignTimeMarker) > designTime, $"{changedFile}: the reload did not run the design-time build.");
        Assert.True((await host.InspectAsync(fixture.Root)).FromCache, $"{changedFile}: the reloaded context is not reused.");
    }
}
