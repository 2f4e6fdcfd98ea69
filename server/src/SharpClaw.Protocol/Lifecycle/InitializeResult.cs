namespace SharpClaw.Protocol.Lifecycle;

/// <summary>The <c>initialize</c> result: LSP's <c>InitializeResult</c>.</summary>
public sealed record InitializeResult(ServerCapabilities Capabilities, ServerInfo ServerInfo);

/// <summary>
/// No LSP features yet: an empty object tells vscode-languageclient not to send document sync etc.
/// </summary>
public sealed record ServerCapabilities;

public sealed record ServerInfo(string Name, string Version);
