using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using StreamJsonRpc;

namespace SharpClaw.Server.Semantic.Authorization;

/// <summary>The answer to an authorization request.</summary>
public sealed record EvaluationAuthorization(bool Granted, string? Message, bool AppliedByClient = false)
{
    public static EvaluationAuthorization Denied(string message) => new(false, message);
}

/// <summary>
/// Asks whoever owns the execution policy (the VS Code client) whether the host may run MSBuild now.
/// The cache calls this outside its gate. There is deliberately no way for a request parameter to
/// answer it: a null authorizer means "no authorization" and only valid cached contexts may answer.
/// </summary>
public interface IEvaluationAuthorizer
{
    Task<EvaluationAuthorization> AuthorizeAsync(AuthorizeEvaluationParams request, CancellationToken cancellationToken);
}

/// <summary>Sends <c>sharpclaw/authorizeEvaluation</c> to the JSON-RPC client and waits for its answer.</summary>
public sealed class JsonRpcEvaluationAuthorizer(JsonRpc rpc) : IEvaluationAuthorizer
{
    public async Task<EvaluationAuthorization> AuthorizeAsync(AuthorizeEvaluationParams request, CancellationToken cancellationToken)
    {
        AuthorizeEvaluationResult? result;
        try
        {
            result = await rpc.InvokeWithParameterObjectAsync<AuthorizeEvaluationResult?>(
                ProtocolMethods.AuthorizeEvaluation, request, cancellationToken).ConfigureAwait(false);
        }
        catch (RemoteInvocationException ex)
        {
            return EvaluationAuthorization.Denied($"The client refused the evaluation request: {ex.Message}");
        }
        catch (RemoteMethodNotFoundException)
        {
            return EvaluationAuthorization.Denied(
                $"The client does not answer '{ProtocolMethods.AuthorizeEvaluation}', so MSBuild evaluation cannot be authorized.");
        }
        catch (Exception ex) when (ex is ConnectionLostException or ObjectDisposedException)
        {
            return EvaluationAuthorization.Denied($"The client connection closed before evaluation was authorized ({ex.Message}).");
        }

        return result is { Granted: true }
            ? new EvaluationAuthorization(true, result.Message)
            : EvaluationAuthorization.Denied(string.IsNullOrWhiteSpace(result?.Message) ? "Evaluation was not authorized." : result.Message);
    }
}
