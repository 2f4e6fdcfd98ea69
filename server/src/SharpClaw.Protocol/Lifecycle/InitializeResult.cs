namespace SharpClaw.Protocol.Lifecycle;

/// <summary>The <c>initialize</c> result: LSP's <c>InitializeResult</c>.</summary>
public sealed record InitializeResult(ServerCapabilities Capabilities, ServerInfo ServerInfo);

/// <summary>
/// The LSP features the host offers: only full-text document synchronization, so queries answer
/// from the editor's unsaved buffers (vscode-languageclient sends didOpen/didChange/didClose).
/// </summary>
/// <param name="TextDocumentSync">LSP <c>TextDocumentSyncKind</c>: 1 = full text on every change.</param>
public sealed record ServerCapabilities(int TextDocumentSync);

public sealed record ServerInfo(string Name, string Version);
