namespace SharpClaw.Server.Tests.Infrastructure;

/// <summary>
/// One restored copy of a fixture and one in-memory host, for tests that only read it: as a class fixture
/// (<c>IClassFixture</c>) or a collection fixture (<c>ICollectionFixture</c>, for several classes), the
/// fixture is restored (from <see cref="FixtureCache"/>) and loaded once for all of them. A test that writes,
/// changes the fixture's files or the client's answers takes a <see cref="FixtureWorkspace"/> of its own.
/// </summary>
public abstract class LoadedFixture(string fixture, params string[] targets) : IAsyncLifetime
{
    internal FixtureWorkspace Workspace { get; private set; } = null!;

    internal SemanticHost Host { get; private set; } = null!;

    /// <summary>The fixture's name under fixtures/.</summary>
    internal string Name => fixture;

    public async Task InitializeAsync()
    {
        this.Workspace = FixtureWorkspace.Restored(fixture, targets);
        this.Host = await SemanticHost.StartAsync();
    }

    public async Task DisposeAsync()
    {
        await this.Host.DisposeAsync();
        this.Workspace.Dispose();
    }

    internal Task<T> Invoke<T>(string method, object parameters) =>
        Poll.WithTimeout(this.Host.Host.Client.InvokeWithParameterObjectAsync<T>(method, parameters), SemanticHost.Timeout, method);

    /// <summary>fixtures/WorkspaceSymbolRanking (WorkspaceSymbolsTests).</summary>
    public sealed class WorkspaceSymbolRanking() : LoadedFixture("WorkspaceSymbolRanking", "WorkspaceSymbolRanking.slnx");

    /// <summary>fixtures/ExtensionMembers (<see cref="ExtensionMembersCollection"/>).</summary>
    public sealed class ExtensionMembers() : LoadedFixture("ExtensionMembers", "ExtensionMembers.csproj");

    /// <summary>fixtures/MultiTargetHierarchy (<see cref="MultiTargetHierarchyCollection"/>).</summary>
    public sealed class MultiTargetHierarchy() : LoadedFixture("MultiTargetHierarchy", "MultiTargetHierarchy.slnx");

    /// <summary>fixtures/TestReach (<see cref="TestReachCollection"/>).</summary>
    public sealed class TestReach() : LoadedFixture("TestReach", "TestReach.slnx");
}

/// <summary>The classes that read fixtures/ExtensionMembers share one load.</summary>
[CollectionDefinition(Name)]
public sealed class ExtensionMembersCollection : ICollectionFixture<LoadedFixture.ExtensionMembers>
{
    public const string Name = "ExtensionMembers";
}

/// <summary>The classes that read fixtures/MultiTargetHierarchy share one load.</summary>
[CollectionDefinition(Name)]
public sealed class MultiTargetHierarchyCollection : ICollectionFixture<LoadedFixture.MultiTargetHierarchy>
{
    public const string Name = "MultiTargetHierarchy";
}

/// <summary>The classes that read fixtures/TestReach share one load.</summary>
[CollectionDefinition(Name)]
public sealed class TestReachCollection : ICollectionFixture<LoadedFixture.TestReach>
{
    public const string Name = "TestReach";
}
