using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using SharpClaw.Protocol;
using SharpClaw.Server.Semantic;
using StreamJsonRpc;
using StreamJsonRpc.Protocol;

namespace SharpClaw.Server.Hosting;

/// <summary>
/// JsonRpc with one choke point in front of every handler: the LSP lifecycle gate and the
/// per-request log line (method, id, outcome, duration). Handlers stay free of both concerns.
/// An argument the host cannot read (a number beyond a C# int, a wrong type) is answered as a
/// typed InvalidRequest naming the argument, never as a raw .NET message.
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

    protected override JsonRpcError.ErrorDetail CreateErrorDetails(JsonRpcRequest request, Exception exception)
    {
        for (Exception? inner = exception; inner is not null; inner = inner.InnerException)
        {
            if (inner is JsonException json)
            {
                string argument = json.Path is { Length: > 2 } path && path.StartsWith("$.", StringComparison.Ordinal) ? path[2..] : "the parameters";
                string detail = json.Message.Split(" Path:", 2)[0].Replace("SharpClaw.Protocol.Semantic.", string.Empty, StringComparison.Ordinal);
                SemanticException typed = SemanticException.InvalidRequest($"Cannot read argument '{argument}' of {request.Method}: {detail}");
                return new JsonRpcError.ErrorDetail { Code = (JsonRpcErrorCode)ProtocolErrorCodes.SemanticError, Message = typed.Message, Data = typed.Error };
            }
        }

        return base.CreateErrorDetails(request, exception);
    }
}
