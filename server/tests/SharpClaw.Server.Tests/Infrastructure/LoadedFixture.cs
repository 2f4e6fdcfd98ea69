namespace SharpClaw.Server.Tests.Infrastructure;

/// <summary>
/// One restored (and, where asked, built) copy of a fixture and one in-memory host, for tests that only read it: as a class fixture
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

    /// <summary>What <c>dotnet build</c> of the first target said, when <see cref="Build"/>; else empty.</summary>
    internal string BuildOutput { get; private set; } = string.Empty;

    /// <summary>Whether the copy is also built (the truth answers are compared with; a project generator's assembly then exists).</summary>
    protected virtual bool Build => false;

    public async Task InitializeAsync()
    {
        this.Workspace = FixtureWorkspace.Restored(fixture, targets);
        if (this.Build)
        {
            (int exitCode, string output) = FixtureWorkspace.Dotnet(this.Workspace.Root, ["build", targets[0], "-m:1", "--no-restore", "-nologo"]);
            Assert.True(exitCode == 0, output);
            this.BuildOutput = output;
        }

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

    /// <summary>fixtures/FrameworkCalls (FrameworkCallsTests).</summary>
    public sealed class FrameworkCalls() : LoadedFixture("FrameworkCalls", "FrameworkCalls.slnx");

    /// <summary>fixtures/GeneratorDeclaredTypes, built (GeneratorDeclaredTypesTests).</summary>
    public sealed class GeneratorDeclaredTypes() : LoadedFixture("GeneratorDeclaredTypes", "GeneratorDeclaredTypes.slnx")
    {
        protected override bool Build => true;
    }
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
