using System.Diagnostics;
using System.Globalization;
using StreamJsonRpc;
using SharpClaw.Server.Semantic;
using StreamJsonRpc.Protocol;

namespace SharpClaw.Server.Hosting;

/// <summary>
/// JsonRpc with one choke point in front of every handler: the LSP lifecycle gate, the
/// per-request log line (method, id, outcome, duration) and the one place a typed
/// <see cref="SemanticException"/> becomes its JSON-RPC error (code -32001 with the documented data).
/// Handlers stay free of all three concerns.
/// </summary>
internal sealed class HostJsonRpc(IJsonRpcMessageHandler messageHandler, HostLifecycle lifecycle, HostLog log)
    : JsonRpc(messageHandler)
{
    protected override async ValueTask<JsonRpcMessage> DispatchRequestAsync(
        JsonRpcRequest request,
        TargetMethod targetMethod,
        CancellationToken cancellationToken)
    {
        string method = request.Method ?? string.Empty;
        string kind = request.IsResponseExpected ? $"request {method} #{request.RequestId}" : $"notification {method}";

        if (lifecycle.Reject(method) is { } rejection)
        {
            log.Warn(request.IsResponseExpected
                ? $"{kind} rejected ({rejection.Code}): {rejection.Message}"
                : $"{kind} dropped: {rejection.Message}");
            return new JsonRpcError
            {
                RequestId = request.RequestId,
                Error = new JsonRpcError.ErrorDetail
                {
                    Code = (JsonRpcErrorCode)rejection.Code,
                    Message = rejection.Message,
                },
            };
        }

        long started = Stopwatch.GetTimestamp();
        JsonRpcMessage response = await base.DispatchRequestAsync(request, targetMethod, cancellationToken).ConfigureAwait(false);
        string outcome = response is JsonRpcError error
            ? $"failed ({(int?)error.Error?.Code}: {error.Error?.Message})"
            : "ok";
        log.Info(string.Create(
            CultureInfo.InvariantCulture,
            $"{kind} {outcome} in {Stopwatch.GetElapsedTime(started).TotalMilliseconds:0.0} ms"));
        return response;
    }

    /// <summary>The host's typed failures travel as <see cref="SemanticException.ToRpcException"/> says; others as StreamJsonRpc's default.</summary>
    protected override JsonRpcError.ErrorDetail CreateErrorDetails(JsonRpcRequest request, Exception exception) =>
        base.CreateErrorDetails(request, exception is SemanticException semantic ? semantic.ToRpcException() : exception);
}
