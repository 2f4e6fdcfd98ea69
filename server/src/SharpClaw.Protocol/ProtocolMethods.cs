namespace SharpClaw.Protocol;

/// <summary>
/// JSON-RPC method names understood by the host. The TypeScript client uses the same strings.
/// </summary>
public static class ProtocolMethods
{
    // LSP lifecycle (vscode-languageclient drives these).
    public const string Initialize = "initialize";
    public const string Initialized = "initialized";
    public const string Shutdown = "shutdown";
    public const string Exit = "exit";
    public const string SetTrace = "$/setTrace";

    // SharpClaw's own requests.
    public const string Status = "sharpclaw/status";
}

/// <summary>
/// JSON-RPC error codes the host returns besides the standard ones StreamJsonRpc produces itself.
/// </summary>
public static class ProtocolErrorCodes
{
    /// <summary>JSON-RPC 2.0 "Invalid Request": LSP uses it for requests after <c>shutdown</c>.</summary>
    public const int InvalidRequest = -32600;

    /// <summary>LSP "ServerNotInitialized": a request arrived before <c>initialize</c>.</summary>
    public const int ServerNotInitialized = -32002;
}
