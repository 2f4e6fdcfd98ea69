using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// The store holds the workspace's source text: looking for an approved snapshot before a first load reads it when there
/// is one and creates nothing when there is none. Before, that look created the store (folder, file, schema) on the first
/// answer's path — and also when the person then denied the load.
/// </summary>
public sealed class DeniedLoadStoreTests
{
    [Fact]
    public async Task AColdLoadThePersonDenies_LeavesNoStore()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("Calculator");
        await using SemanticHost host = await SemanticHost.StartAsync();
        host.Client.DenyAll("not now");

        await SemanticErrors.ExpectAsync(SemanticErrorKind.PermissionDenied, () => host.NavigateAsync(fixture.Root, new NavigateParams { Action = "definition", Name = "Calculator.Divide" }));

        Assert.Single(host.Client.AuthorizationRequests);
        string store = Path.Combine(TestRunState.Root, "workspaces", StateFolder.WorkspaceKey(fixture.Root), "store.db");
        Assert.False(File.Exists(store), store);
    }
}
