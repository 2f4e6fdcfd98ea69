using SharpClaw.Protocol;

namespace SharpClaw.Server.Hosting;

/// <summary>
/// Every method the host answers and its <see cref="RequestScheduling"/>: the protocol's table
/// (<see cref="MethodScheduling"/>, exported with the protocol schema and checked against the client's
/// authorization effects) plus the host's own internal method. <see cref="HostJsonRpc"/> admits each request
/// through <see cref="RequestGate"/> by this table; a test checks that every <c>[JsonRpcMethod]</c> of the
/// host is listed, so a new handler cannot forget to say how it is scheduled.
/// </summary>
public static class HandlerTable
{
    public static IReadOnlyDictionary<string, RequestScheduling> Methods { get; } =
        new Dictionary<string, RequestScheduling>(MethodScheduling.Methods, StringComparer.Ordinal)
        {
            [GuardedMessageHandler.RejectedMessageMethod] = RequestScheduling.Lifecycle,
        };

    /// <summary>The scheduling of <paramref name="method"/>; an unknown method (answered "method not found") waits for nothing.</summary>
    public static RequestScheduling SchedulingOf(string method) =>
        Methods.TryGetValue(method, out RequestScheduling scheduling) ? scheduling : RequestScheduling.Lifecycle;
}
