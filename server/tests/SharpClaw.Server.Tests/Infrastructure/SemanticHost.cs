using SharpClaw.Protocol;
using SharpClaw.Protocol.Lifecycle;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Protocol.Status;
using SharpClaw.Protocol.Store;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Hosting;
using SharpClaw.Server.Semantic;
using SharpClaw.Server.Semantic.Cache;
using SharpClaw.Server.Semantic.Contexts;

namespace SharpClaw.Server.Tests.Infrastructure;

/// <summary>An initialized in-memory host plus the test client that answers its authorization requests.</summary>
internal sealed class SemanticHost : IAsyncDisposable
{
    /// <summary>A deadline, never a wait: a load and an edit took over 2 minutes on a 2-core machine under a load average of 30.</summary>
    public static readonly TimeSpan Timeout = TimeSpan.FromMinutes(5);

    private SemanticHost(InMemoryHost host, TestClient client)
    {
        this.Host = host;
        this.Client = client;
    }

    public InMemoryHost Host { get; }

    public TestClient Client { get; }

    public SemanticContextCache Cache => this.Host.Server.State.Cache;

    public static async Task<SemanticHost> StartAsync(HostServerOptions? options = null)
    {
        TestClient client = new();
        InMemoryHost host = InMemoryHost.Start(options, client);
        await host.Client.InvokeWithParameterObjectAsync<InitializeResult>(ProtocolMethods.Initialize, new Dictionary<string, object?>());
        return new SemanticHost(host, client);
    }

    public Task<SolutionInspectResult> InspectAsync(
        string workspace, string? target = null, string? configuration = null, string? targetFramework = null, CancellationToken cancellationToken = default) =>
        Poll.WithTimeout(
            this.Host.Client.InvokeWithParameterObjectAsync<SolutionInspectResult>(
                ProtocolMethods.SolutionInspect,
                new SolutionInspectParams { Workspace = workspace, Target = target, Configuration = configuration, TargetFramework = targetFramework, Tool = "test-tool" },
                cancellationToken),
            Timeout,
            "sharpclaw/solutionInspect");

    public Task<ProjectGraphResult> GraphAsync(string workspace, string? target = null, string? configuration = null, string? targetFramework = null, string? buildCollection = null) =>
        Poll.WithTimeout(
            this.Host.Client.InvokeWithParameterObjectAsync<ProjectGraphResult>(
                ProtocolMethods.ProjectGraph,
                new ProjectGraphParams { Workspace = workspace, Target = target, Configuration = configuration, TargetFramework = targetFramework, Tool = "test-tool", BuildCollection = buildCollection }),
            Timeout,
            "sharpclaw/projectGraph");

    public Task<SymbolSearchResult> SymbolSearchAsync(string workspace, string query, string? kind = null, string? container = null, int? offset = null, int? limit = null, long? answerBy = null) =>
        Poll.WithTimeout(
            this.Host.Client.InvokeWithParameterObjectAsync<SymbolSearchResult>(
                ProtocolMethods.SymbolSearch,
                new SymbolSearchParams { Workspace = workspace, Query = query, Kind = kind, Container = container, Offset = offset, Limit = limit, AnswerBy = answerBy }),
            Timeout,
            "sharpclaw/symbolSearch");

    public Task<WorkspaceSearchResult> WorkspaceSearchAsync(
        string workspace, string query, bool? regex = null, bool? caseSensitive = null, IReadOnlyList<string>? paths = null, int? offset = null, int? limit = null, long? answerBy = null) =>
        Poll.WithTimeout(
            this.Host.Client.InvokeWithParameterObjectAsync<WorkspaceSearchResult>(
                ProtocolMethods.WorkspaceSearch,
                new WorkspaceSearchParams { Workspace = workspace, Query = query, Regex = regex, CaseSensitive = caseSensitive, Paths = paths, Offset = offset, Limit = limit, AnswerBy = answerBy }),
            Timeout,
            "sharpclaw/workspaceSearch");

    public Task<NavigateResult> NavigateAsync(string workspace, NavigateParams parameters) =>
        Poll.WithTimeout(
            this.Host.Client.InvokeWithParameterObjectAsync<NavigateResult>(ProtocolMethods.Navigate, parameters with { Workspace = workspace, Tool = "test-tool" }),
            Timeout,
            ProtocolMethods.Navigate);

    public Task<FindReferencesResult> FindReferencesAsync(string workspace, FindReferencesParams parameters) =>
        Poll.WithTimeout(
            this.Host.Client.InvokeWithParameterObjectAsync<FindReferencesResult>(ProtocolMethods.FindReferences, parameters with { Workspace = workspace, Tool = "test-tool" }),
            Timeout,
            ProtocolMethods.FindReferences);

    public Task<DiagnosticsResult> DiagnosticsAsync(string workspace, DiagnosticsParams parameters) =>
        Poll.WithTimeout(
            this.Host.Client.InvokeWithParameterObjectAsync<DiagnosticsResult>(ProtocolMethods.Diagnostics, parameters with { Workspace = workspace, Tool = "test-tool" }),
            Timeout,
            ProtocolMethods.Diagnostics);

    public Task<HostStatus> StatusAsync() => this.Host.Client.InvokeAsync<HostStatus>(ProtocolMethods.Status);

    /// <summary>A lease from the cache with no authorizer at all: succeeds only from a valid cached context.</summary>
    public Task<ContextLease> CachedLeaseAsync(string workspace, string? target = null, string? configuration = null, string? targetFramework = null) =>
        this.Cache.AcquireAsync(
            SemanticWorkspaceService.CreateRequest(new SolutionInspectParams { Workspace = workspace, Target = target, Configuration = configuration, TargetFramework = targetFramework }),
            authorizer: null,
            CancellationToken.None);

    public ValueTask DisposeAsync() => this.Host.DisposeAsync();
}

/// <summary>
/// Test classes in this collection never run alongside others (they count processes: LoadingTests counts the
/// loader's build hosts this test process started). xunit runs it after every other collection, one class at
/// a time, so only a class that needs the machine to itself belongs here: each one lengthens the layer's tail.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class SequentialCollection
{
    public const string Name = "Sequential";
}
