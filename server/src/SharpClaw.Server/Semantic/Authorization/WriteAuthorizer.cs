using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using StreamJsonRpc;

namespace SharpClaw.Server.Semantic.Authorization;

/// <summary>
/// Asks the client (its permission policy of kind <c>write</c>) before every semantic write. Like
/// evaluation authorization there is no request parameter that answers it: a null authorizer never writes.
/// </summary>
public interface IWriteAuthorizer
{
    Task<EvaluationAuthorization> AuthorizeAsync(AuthorizeWriteParams request, CancellationToken cancellationToken);
}

/// <summary>Sends <c>sharpclaw/authorizeWrite</c> to the JSON-RPC client and waits for its answer.</summary>
public sealed class JsonRpcWriteAuthorizer(JsonRpc rpc) : IWriteAuthorizer
{
    public async Task<EvaluationAuthorization> AuthorizeAsync(AuthorizeWriteParams request, CancellationToken cancellationToken)
    {
        AuthorizeEvaluationResult? result;
        try
        {
            result = await rpc.InvokeWithParameterObjectAsync<AuthorizeEvaluationResult?>(
                ProtocolMethods.AuthorizeWrite, request, cancellationToken).ConfigureAwait(false);
        }
        catch (RemoteInvocationException ex)
        {
            return EvaluationAuthorization.Denied($"The client refused the write request: {ex.Message}");
        }
        catch (RemoteMethodNotFoundException)
        {
            return EvaluationAuthorization.Denied(
                $"The client does not answer '{ProtocolMethods.AuthorizeWrite}', so file writes cannot be authorized.");
        }
        catch (Exception ex) when (ex is ConnectionLostException or ObjectDisposedException)
        {
            return EvaluationAuthorization.Denied($"The client connection closed before the write was authorized ({ex.Message}).");
        }

        return result is { Granted: true }
            ? new EvaluationAuthorization(true, result.Message, result.AppliedByClient == true)
            : EvaluationAuthorization.Denied(string.IsNullOrWhiteSpace(result?.Message) ? "Writing files was not authorized." : result.Message);
    }
}
