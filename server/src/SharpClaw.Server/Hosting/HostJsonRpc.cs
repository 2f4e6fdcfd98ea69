using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using SharpClaw.Protocol;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Infrastructure;
using StreamJsonRpc;
using StreamJsonRpc.Protocol;

namespace SharpClaw.Server.Hosting;

/// <summary>
/// JsonRpc with one choke point in front of every handler: the LSP lifecycle gate, the
/// per-request log line (method, id, outcome, duration) and the one place a typed
/// <see cref="SemanticException"/> becomes its JSON-RPC error (code -32001 with the documented data).
/// An argument the host cannot read (a number beyond a C# int, a wrong type) becomes a typed
/// InvalidRequest naming the argument, never a raw .NET message. Every request is admitted through
/// the <see cref="RequestGate"/> by its <see cref="HandlerTable"/> scheduling, so edit, undo and redo never
/// overlap a reader or each other. Handlers stay free of all of it.
/// </summary>
internal sealed class HostJsonRpc(IJsonRpcMessageHandler messageHandler, HostLifecycle lifecycle, HostLog log)
    : JsonRpc(messageHandler)
{
    /// <summary>Serializes mutating requests against readers (see <see cref="HandlerTable"/>).</summary>
    public RequestGate Gate { get; } = new();

    /// <summary>Awaited before each response leaves: the progress reported before it goes first (<see cref="Semantic.Loading.JsonRpcLoadProgressSink.FlushAsync"/>).</summary>
    public Func<Task>? BeforeResponse { get; set; }

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
        IDisposable admission;
        try
        {
            admission = await this.Gate.EnterAsync(HandlerTable.SchedulingOf(method), cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            log.Debug($"{kind} cancelled while it waited for a running edit");
            return new JsonRpcError
            {
                RequestId = request.RequestId,
                Error = new JsonRpcError.ErrorDetail { Code = JsonRpcErrorCode.RequestCanceled, Message = "The request was cancelled while it waited for a running edit." },
            };
        }

        JsonRpcMessage response;
        using (admission)
        {
            response = await base.DispatchRequestAsync(request, targetMethod, cancellationToken).ConfigureAwait(false);
        }

        if (request.IsResponseExpected && this.BeforeResponse is { } beforeResponse)
        {
            await beforeResponse().ConfigureAwait(false);
        }

        string outcome = response is JsonRpcError error
            ? $"failed ({(int?)error.Error?.Code}: {error.Error?.Message})"
            : "ok";
        // Every call, one line: a person's log shows it only at debug (loads and verifications log their own info line).
        log.Debug(string.Create(
            CultureInfo.InvariantCulture,
            $"{kind} {outcome} in {Stopwatch.GetElapsedTime(started).TotalMilliseconds:0.0} ms"));
        return response;
    }

    /// <summary>The host's typed failures travel as <see cref="SemanticException.ToRpcException"/> says; unreadable arguments as InvalidRequest; others as StreamJsonRpc's default.</summary>
    protected override JsonRpcError.ErrorDetail CreateErrorDetails(JsonRpcRequest request, Exception exception) =>
        base.CreateErrorDetails(request, Typed(request, exception) is { } semantic ? semantic.ToRpcException() : exception);

    private static SemanticException? Typed(JsonRpcRequest request, Exception exception)
    {
        if (exception is SemanticException semantic)
        {
            return semantic;
        }

        for (Exception? inner = exception; inner is not null; inner = inner.InnerException)
        {
            if (inner is JsonException json)
            {
                string argument = json.Path is { Length: > 2 } path && path.StartsWith("$.", StringComparison.Ordinal) ? path[2..] : "the parameters";
                string detail = json.Message.Split(" Path:", 2)[0].Replace("SharpClaw.Protocol.Semantic.", string.Empty, StringComparison.Ordinal);
                return SemanticException.InvalidRequest($"Cannot read argument '{argument}' of {request.Method}: {detail}");
            }
        }

        return null;
    }
}
