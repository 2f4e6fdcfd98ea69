using System.Diagnostics;
using System.Globalization;
using SharpClaw.Protocol;
using SharpClaw.Server.Infrastructure;
using StreamJsonRpc;

namespace SharpClaw.Server.Hosting;

/// <summary>
/// Routes StreamJsonRpc's TraceSource (protocol warnings such as unparsable messages or unknown
/// notifications) into the host log instead of the default listener. A typed rejection (a
/// <see cref="SemanticException"/>, or a <see cref="LocalRpcException"/> with the semantic error code: new_errors, symbol_not_found, …)
/// is an expected answer, already logged as one line by <see cref="HostJsonRpc"/>: its exception
/// trace and the "not serializable" warning that follows it are dropped.
/// </summary>
internal sealed class HostLogTraceListener(HostLog log) : TraceListener
{
    public override void TraceEvent(TraceEventCache? eventCache, string source, TraceEventType eventType, int id, string? message)
    {
        if (IsTypedRejectionNoise(id, message))
        {
            return;
        }

        log.Write(ToLevel(eventType), $"[jsonrpc] {message}");
    }

    public override void TraceEvent(TraceEventCache? eventCache, string source, TraceEventType eventType, int id, string? format, params object?[]? args)
    {
        string? text = args is { Length: > 0 } && format is not null ? string.Format(CultureInfo.InvariantCulture, format, args) : format;
        if (args?.Any(IsTypedRejection) == true || IsTypedRejectionNoise(id, text))
        {
            return;
        }

        log.Write(ToLevel(eventType), "[jsonrpc] " + text);
    }

    public override void TraceData(TraceEventCache? eventCache, string source, TraceEventType eventType, int id, object? data)
    {
        if (IsTypedRejection(data))
        {
            return;
        }

        log.Write(ToLevel(eventType), $"[jsonrpc] {data}");
    }

    public override void TraceData(TraceEventCache? eventCache, string source, TraceEventType eventType, int id, params object?[]? data)
    {
        if (data?.Any(IsTypedRejection) == true)
        {
            return;
        }

        log.Write(ToLevel(eventType), "[jsonrpc] " + (data is null ? string.Empty : string.Join(", ", data)));
    }

    /// <summary>The exception a handler threw for a typed rejection (possibly wrapped).</summary>
    private static bool IsTypedRejection(object? value)
    {
        for (Exception? exception = value as Exception; exception is not null; exception = exception.InnerException)
        {
            if (exception is SemanticException or LocalRpcException { ErrorCode: ProtocolErrorCodes.SemanticError })
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>"An exception of type StreamJsonRpc.LocalRpcException … was thrown but is not serializable": its error data is sent anyway.</summary>
    private static bool IsTypedRejectionNoise(int id, string? text) =>
        id == (int)JsonRpc.TraceEvents.ExceptionNotSerializable
        && (text?.Contains(nameof(LocalRpcException), StringComparison.Ordinal) == true || text?.Contains(nameof(SemanticException), StringComparison.Ordinal) == true);

    public override void Write(string? message) => log.Debug($"[jsonrpc] {message}");

    public override void WriteLine(string? message) => log.Debug($"[jsonrpc] {message}");

    private static HostLogLevel ToLevel(TraceEventType eventType) => eventType switch
    {
        TraceEventType.Critical or TraceEventType.Error => HostLogLevel.Error,
        TraceEventType.Warning => HostLogLevel.Warning,
        _ => HostLogLevel.Info,
    };
}
