using System.Text.RegularExpressions;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Authorization;
using SharpClaw.Server.Semantic.Cache;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Evaluation;
using SharpClaw.Server.Semantic.Discovery;
using SharpClaw.Server.Semantic.Loading;

namespace SharpClaw.Server.Semantic;

/// <summary>
/// The semantic entry points shared by JSON-RPC handlers (and, later, the read tools): resolves the
/// request to a context and answers from the cache.
/// </summary>
public sealed partial class SemanticWorkspaceService(SemanticContextCache cache)
{
    public const string DefaultConfiguration = "Debug";

    public SemanticContextCache Cache => cache;

    /// <summary>Validates a request and discovers its target. Runs nothing.</summary>
    public static ContextRequest CreateRequest(IWorkspaceRequest parameters, ILoadProgressSink? progress = null)
    {
        TargetSelection target = TargetDiscovery.Resolve(parameters.Workspace, parameters.Target);
        string configuration = string.IsNullOrWhiteSpace(parameters.Configuration) ? DefaultConfiguration : parameters.Configuration.Trim();
        if (!ConfigurationRegex().IsMatch(configuration))
        {
            throw SemanticException.InvalidRequest($"'configuration' must be an MSBuild configuration name such as Debug or Release, not '{configuration}'.");
        }

        string? framework = string.IsNullOrWhiteSpace(parameters.TargetFramework) ? null : parameters.TargetFramework.Trim();
        if (framework is not null && !FrameworkRegex().IsMatch(framework))
        {
            throw SemanticException.InvalidRequest($"'targetFramework' must be a target framework moniker such as net10.0, not '{framework}'.");
        }

        return new ContextRequest(
            target, configuration, framework, string.IsNullOrWhiteSpace(parameters.Tool) ? null : parameters.Tool, progress, string.IsNullOrWhiteSpace(parameters.Call) ? null : parameters.Call);
    }

    public async Task<SolutionInspectResult> InspectAsync(
        SolutionInspectParams parameters, IEvaluationAuthorizer? authorizer, ILoadProgressSink? progress, CancellationToken cancellationToken)
    {
        ContextRequest request = CreateRequest(parameters, progress);
        using ContextLease lease = await cache.AcquireAsync(request, authorizer, cancellationToken).ConfigureAwait(false);
        // Every project the solution lists, C# or not: the ones SharpClaw does not load are named, never dropped.
        IReadOnlyList<string> listed = request.Target.Kind == TargetKind.Solution
            ? await SolutionReader.ReadAllProjectsAsync(request.Target.TargetPath, cancellationToken).ConfigureAwait(false)
            : [request.Target.TargetPath];
        return ResultBuilder.Inspect(request, lease, listed);
    }

    public async Task<ProjectGraphResult> ProjectGraphAsync(
        ProjectGraphParams parameters, IEvaluationAuthorizer? authorizer, CancellationToken cancellationToken)
    {
        ContextRequest request = CreateRequest(parameters);
        string? collection = string.IsNullOrWhiteSpace(parameters.BuildCollection) ? null : parameters.BuildCollection;
        try
        {
            return await cache.AcquireEvaluationAsync(request, authorizer, collection, cancellationToken).ConfigureAwait(false) is { } lease
                ? ResultBuilder.ProjectGraph(request, lease, cache.Loader.Trust)
                : ResultBuilder.BuildCollectionOffered(request, BuildCollection.Prepare(request.Target.Workspace));
        }
        finally
        {
            if (collection is not null && collection != BuildCollection.Offer)
            {
                BuildCollection.Discard(request.Target.Workspace, collection); // read or not, a collection is used once
            }
        }
    }

    [GeneratedRegex(@"^[A-Za-z0-9_.+\- ]{1,64}$")]
    private static partial Regex ConfigurationRegex();

    [GeneratedRegex(@"^[A-Za-z0-9_.+\-]{1,64}$")]
    private static partial Regex FrameworkRegex();
}
