namespace SharpClaw.Protocol.Lifecycle;

// The LSP text document synchronization notifications (full sync), as vscode-languageclient sends them.

/// <summary>LSP <c>TextDocumentItem</c>.</summary>
public sealed record TextDocumentItem(string Uri, string LanguageId, int Version, string Text);

/// <summary>LSP <c>TextDocumentIdentifier</c> (also used for the versioned identifier: the version is ignored).</summary>
public sealed record TextDocumentIdentifier(string Uri);

/// <summary>One full-text change (ranges are never sent: the host asks for full sync).</summary>
public sealed record TextDocumentContentChangeEvent(string Text);

/// <summary>Params of <c>textDocument/didOpen</c>.</summary>
public sealed record DidOpenTextDocumentParams(TextDocumentItem TextDocument);

/// <summary>Params of <c>textDocument/didChange</c>.</summary>
public sealed record DidChangeTextDocumentParams(TextDocumentIdentifier TextDocument, IReadOnlyList<TextDocumentContentChangeEvent> ContentChanges);

/// <summary>Params of <c>textDocument/didClose</c>.</summary>
public sealed record DidCloseTextDocumentParams(TextDocumentIdentifier TextDocument);

/// <summary>Params of <c>textDocument/didSave</c> (the text is not asked for: the buffer is already synchronized).</summary>
public sealed record DidSaveTextDocumentParams(TextDocumentIdentifier TextDocument);
