using System.Diagnostics;
using System.Globalization;

namespace SharpClaw.Server.Hosting;

/// <summary>
/// Routes StreamJsonRpc's TraceSource (protocol warnings such as unparsable messages or unknown
/// notifications) into the host log instead of the default listener.
/// </summary>
internal sealed class HostLogTraceListener(HostLog log) : TraceListener
{
    public override void TraceEvent(TraceEventCache? eventCache, string source, TraceEventType eventType, int id, string? message) =>
        log.Write(ToLevel(eventType), $"[jsonrpc] {message}");

    public override void TraceEvent(TraceEventCache? eventCache, string source, TraceEventType eventType, int id, string? format, params object?[]? args) =>
        log.Write(ToLevel(eventType), "[jsonrpc] " + (args is { Length: > 0 } && format is not null ? string.Format(CultureInfo.InvariantCulture, format, args) : format));

    public override void TraceData(TraceEventCache? eventCache, string source, TraceEventType eventType, int id, object? data) =>
        log.Write(ToLevel(eventType), $"[jsonrpc] {data}");

    public override void TraceData(TraceEventCache? eventCache, string source, TraceEventType eventType, int id, params object?[]? data) =>
        log.Write(ToLevel(eventType), "[jsonrpc] " + (data is null ? string.Empty : string.Join(", ", data)));

    public override void Write(string? message) => log.Info($"[jsonrpc] {message}");

    public override void WriteLine(string? message) => log.Info($"[jsonrpc] {message}");

    private static HostLogLevel ToLevel(TraceEventType eventType) => eventType switch
    {
        TraceEventType.Critical or TraceEventType.Error => HostLogLevel.Error,
        TraceEventType.Warning => HostLogLevel.Warning,
        _ => HostLogLevel.Info,
    };
}
