using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Authorization;
using SharpClaw.Server.Semantic.Discovery;
using SharpClaw.Server.Semantic.Evaluation;
using SharpClaw.Server.Semantic.Loading;
using SharpClaw.Server.Semantic.Lsp;
using SharpClaw.Server.Semantic.Navigation;
using SharpClaw.Server.Semantic.Symbols;
using SharpClaw.Server.Toolchain;
using StreamJsonRpc;

namespace SharpClaw.Server.Handlers;

/// <summary>
/// <c>sharpclaw/solutionInspect</c>: projects, evaluated references, restored frameworks/packages,
/// test-project facts, compilations per framework, excluded analyzers, partial-load notes.
/// </summary>
public sealed class SolutionInspectHandler(HostState state, JsonRpc rpc, ILoadProgressSink progress)
{
    [JsonRpcMethod(ProtocolMethods.SolutionInspect, UseSingleObjectParameterDeserialization = true)]
    public async Task<SolutionInspectResult> InspectAsync(SolutionInspectParams? parameters = null, CancellationToken cancellationToken = default)
    {
        return await state.Semantic.InspectAsync(parameters ?? new SolutionInspectParams(), new JsonRpcEvaluationAuthorizer(rpc), progress, cancellationToken)
            .ConfigureAwait(false);
    }
}

/// <summary><c>sharpclaw/projectGraph</c>: evaluated MSBuild data per project for "affected" computations.</summary>
public sealed class ProjectGraphHandler(HostState state, JsonRpc rpc)
{
    [JsonRpcMethod(ProtocolMethods.ProjectGraph, UseSingleObjectParameterDeserialization = true)]
    public async Task<ProjectGraphResult> ProjectGraphAsync(ProjectGraphParams? parameters = null, CancellationToken cancellationToken = default)
    {
        return await state.Semantic.ProjectGraphAsync(parameters ?? new ProjectGraphParams(), new JsonRpcEvaluationAuthorizer(rpc), cancellationToken)
            .ConfigureAwait(false);
    }
}

/// <summary><c>sharpclaw/symbolResolve</c>, <c>sharpclaw/findReferences</c>, <c>sharpclaw/typeHierarchy</c>.</summary>
public sealed class SymbolQueryHandler(HostState state, JsonRpc rpc)
{
    private readonly SymbolQueryService service = new(state.Cache);

    [JsonRpcMethod(ProtocolMethods.SymbolResolve, UseSingleObjectParameterDeserialization = true)]
    public Task<SymbolResolveResult> ResolveAsync(SymbolResolveParams? parameters = null, CancellationToken cancellationToken = default) =>
        this.service.ResolveAsync(parameters ?? new SymbolResolveParams(), new JsonRpcEvaluationAuthorizer(rpc), cancellationToken);

    [JsonRpcMethod(ProtocolMethods.FindReferences, UseSingleObjectParameterDeserialization = true)]
    public Task<FindReferencesResult> FindReferencesAsync(FindReferencesParams? parameters = null, CancellationToken cancellationToken = default) =>
        this.service.FindReferencesAsync(parameters ?? new FindReferencesParams(), new JsonRpcEvaluationAuthorizer(rpc), cancellationToken);

    [JsonRpcMethod(ProtocolMethods.TypeHierarchy, UseSingleObjectParameterDeserialization = true)]
    public Task<TypeHierarchyResult> TypeHierarchyAsync(TypeHierarchyParams? parameters = null, CancellationToken cancellationToken = default) =>
        this.service.TypeHierarchyAsync(parameters ?? new TypeHierarchyParams(), new JsonRpcEvaluationAuthorizer(rpc), cancellationToken);
}

/// <summary><c>sharpclaw/diagnostics</c>.</summary>
public sealed class DiagnosticsHandler(HostState state, JsonRpc rpc)
{
    private readonly DiagnosticsService service = new(state.Cache);

    [JsonRpcMethod(ProtocolMethods.Diagnostics, UseSingleObjectParameterDeserialization = true)]
    public async Task<DiagnosticsResult> GetAsync(DiagnosticsParams? parameters = null, CancellationToken cancellationToken = default)
    {
        return await this.service.GetAsync(parameters ?? new DiagnosticsParams(), new JsonRpcEvaluationAuthorizer(rpc), cancellationToken).ConfigureAwait(false);
    }
}

/// <summary><c>sharpclaw/navigate</c>, <c>sharpclaw/bulkNavigate</c>, <c>sharpclaw/symbols</c>, <c>sharpclaw/reachedTests</c>, <c>sharpclaw/lspRequest</c>.</summary>
public sealed class NavigationHandler(HostState state, JsonRpc rpc)
{
    private readonly NavigateService navigate = new(state.Cache);
    private readonly BulkNavigateService bulk = new(state.Cache);
    private readonly SymbolsService symbols = new(state.Cache);
    private readonly LspRequestService lsp = new(state.Cache);
    private readonly ReachedTestsService reached = new(state.Cache);

    [JsonRpcMethod(ProtocolMethods.Navigate, UseSingleObjectParameterDeserialization = true)]
    public Task<NavigateResult> NavigateAsync(NavigateParams? parameters = null, CancellationToken cancellationToken = default) =>
        this.navigate.NavigateAsync(parameters ?? new NavigateParams(), new JsonRpcEvaluationAuthorizer(rpc), cancellationToken);

    [JsonRpcMethod(ProtocolMethods.BulkNavigate, UseSingleObjectParameterDeserialization = true)]
    public Task<BulkNavigateResult> BulkNavigateAsync(BulkNavigateParams? parameters = null, CancellationToken cancellationToken = default) =>
        this.bulk.BulkNavigateAsync(parameters ?? new BulkNavigateParams(), new JsonRpcEvaluationAuthorizer(rpc), cancellationToken);

    [JsonRpcMethod(ProtocolMethods.Symbols, UseSingleObjectParameterDeserialization = true)]
    public Task<SymbolsResult> SymbolsAsync(SymbolsParams? parameters = null, CancellationToken cancellationToken = default) =>
        this.symbols.SymbolsAsync(parameters ?? new SymbolsParams(), new JsonRpcEvaluationAuthorizer(rpc), cancellationToken);

    [JsonRpcMethod(ProtocolMethods.ReachedTests, UseSingleObjectParameterDeserialization = true)]
    public Task<ReachedTestsResult> ReachedTestsAsync(ReachedTestsParams? parameters = null, CancellationToken cancellationToken = default) =>
        this.reached.ReachedTestsAsync(parameters ?? new ReachedTestsParams(), new JsonRpcEvaluationAuthorizer(rpc), cancellationToken);

    [JsonRpcMethod(ProtocolMethods.LspRequest, UseSingleObjectParameterDeserialization = true)]
    public Task<LspRequestResult> LspRequestAsync(LspRequestParams? parameters = null, CancellationToken cancellationToken = default) =>
        this.lsp.RequestAsync(parameters ?? new LspRequestParams(), new JsonRpcEvaluationAuthorizer(rpc), cancellationToken);
}

/// <summary>
/// <c>sharpclaw/resolveTarget</c>: the target every other request with the same workspace/target would
/// use (<see cref="TargetDiscovery"/>), from files only: no MSBuild, no authorization.
/// The verifier asks it so that read tools and verification cannot disagree about the target.
/// </summary>
public sealed class ResolveTargetHandler
{
    [JsonRpcMethod(ProtocolMethods.ResolveTarget, UseSingleObjectParameterDeserialization = true)]
    public async Task<ResolveTargetResult> ResolveAsync(ResolveTargetParams? parameters = null, CancellationToken cancellationToken = default)
    {
        parameters ??= new ResolveTargetParams();
        TargetSelection target = TargetDiscovery.Resolve(parameters.Workspace, parameters.Target);
        IReadOnlyList<string> projects = target.Kind == TargetKind.Solution
            ? await SolutionReader.ReadProjectsAsync(target.TargetPath, cancellationToken).ConfigureAwait(false)
            : [target.TargetPath];
        return new ResolveTargetResult(
            target.Workspace,
            target.RelativeTarget,
            target.Kind == TargetKind.Solution ? ResolvedTargetKind.Solution : ResolvedTargetKind.Project,
            projects.Select(p => PathUtil.ToWorkspaceRelative(target.Workspace, p)).ToList());
    }
}

/// <summary>
/// <c>sharpclaw/resolveSdk</c>: the SDK <c>dotnet</c> would pick in the target's folder (the folder the
/// verifier runs it in), by the .NET host's resolver in this process (<see cref="SdkResolver"/>) for the
/// installation this host runs on. Reads global.json and the SDK folders only: no authorization.
/// </summary>
public sealed class ResolveSdkHandler
{
    [JsonRpcMethod(ProtocolMethods.ResolveSdk, UseSingleObjectParameterDeserialization = true)]
    public ResolveSdkResult Resolve(ResolveSdkParams? parameters = null)
    {
        parameters ??= new ResolveSdkParams();
        TargetSelection target = TargetDiscovery.Resolve(parameters.Workspace, parameters.Target);
        if (SdkInventory.FindDotnetRoot() is not { } root)
        {
            return new ResolveSdkResult(null, null, "the host's .NET installation was not found");
        }

        SdkResolution resolution = SdkResolver.Resolve(root, Path.GetDirectoryName(target.TargetPath) ?? target.Workspace);
        return new ResolveSdkResult(resolution.DotnetRoot, resolution.Version, resolution.Reason);
    }
}
