using SharpClaw.Protocol;
using SharpClaw.Protocol.Lifecycle;
using SharpClaw.Server.Infrastructure;
using StreamJsonRpc;

namespace SharpClaw.Server.Handlers;

/// <summary>LSP <c>initialize</c>: records the client, starts watching its process, answers with our identity.</summary>
public sealed class InitializeHandler(HostState state)
{
    // UseSingleObjectParameterDeserialization: the whole LSP InitializeParams object binds to one
    // parameter (unknown members ignored) instead of being matched to parameters by name.
    [JsonRpcMethod(ProtocolMethods.Initialize, UseSingleObjectParameterDeserialization = true)]
    public InitializeResult Initialize(InitializeParams? parameters = null)
    {
        parameters ??= new InitializeParams();
        state.Lifecycle.MarkInitialized();

        string client = parameters.ClientInfo is { Name: { } name } info ? $"{name} {info.Version}".TrimEnd() : "unknown client";
        string clientPid = parameters.ProcessId?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "null";
        state.Log.Debug($"initialize from {client}, client pid {clientPid}, root {parameters.RootUri ?? "(none)"}");

        // The command line wins; initializationOptions only fills in a missing log directory.
        if (state.Options.LogDirectory is null && parameters.InitializationOptions?.LogDirectory is { Length: > 0 } logDirectory)
        {
            state.Log.TryOpenFile(logDirectory);
        }

        if (parameters.ProcessId is int processId)
        {
            state.WatchClientProcess(processId, ClientProcessSource.Initialize);
        }

        return new InitializeResult(new ServerCapabilities(TextDocumentSync: 1), new ServerInfo(HostInfo.ServerName, HostInfo.HostVersion));
    }
}
