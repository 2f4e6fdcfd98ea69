using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Hosting;
using SharpClaw.Server.Semantic.Authorization;
using SharpClaw.Server.Semantic.Loading;
using StreamJsonRpc;

namespace SharpClaw.Server.Semantic;

/// <summary>
/// <c>sharpclaw/solutionInspect</c>: projects, evaluated references, restored frameworks/packages,
/// test-project facts, compilations per framework, excluded analyzers, partial-load notes.
/// </summary>
public sealed class SolutionInspectHandler(HostState state, JsonRpc rpc, ILoadProgressSink progress)
{
    [JsonRpcMethod(ProtocolMethods.SolutionInspect, UseSingleObjectParameterDeserialization = true)]
    public async Task<SolutionInspectResult> InspectAsync(SolutionInspectParams? parameters = null, CancellationToken cancellationToken = default)
    {
        try
        {
            return await state.Semantic.InspectAsync(parameters ?? new SolutionInspectParams(), new JsonRpcEvaluationAuthorizer(rpc), progress, cancellationToken)
                .ConfigureAwait(false);
        }
        catch (SemanticException ex)
        {
            throw ex.ToRpcException();
        }
    }
}

/// <summary><c>sharpclaw/projectGraph</c>: evaluated MSBuild data per project for "affected" computations.</summary>
public sealed class ProjectGraphHandler(HostState state, JsonRpc rpc)
{
    [JsonRpcMethod(ProtocolMethods.ProjectGraph, UseSingleObjectParameterDeserialization = true)]
    public async Task<ProjectGraphResult> ProjectGraphAsync(ProjectGraphParams? parameters = null, CancellationToken cancellationToken = default)
    {
        try
        {
            return await state.Semantic.ProjectGraphAsync(parameters ?? new ProjectGraphParams(), new JsonRpcEvaluationAuthorizer(rpc), cancellationToken)
                .ConfigureAwait(false);
        }
        catch (SemanticException ex)
        {
            throw ex.ToRpcException();
        }
    }
}
