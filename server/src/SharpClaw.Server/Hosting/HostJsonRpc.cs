using System.Diagnostics;
using System.Globalization;
using StreamJsonRpc;
using StreamJsonRpc.Protocol;

namespace SharpClaw.Server.Hosting;

/// <summary>
/// JsonRpc with one choke point in front of every handler: the LSP lifecycle gate and the
/// per-request log line (method, id, outcome, duration). Handlers stay free of both concerns.
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
}
