using SharpClaw.Protocol;
using SharpClaw.Protocol.Lifecycle;
using SharpClaw.Server.Semantic.OpenDocuments;
using StreamJsonRpc;

namespace SharpClaw.Server.Handlers;

/// <summary>LSP full-text document synchronization: keeps the editor's buffers for queries.</summary>
public sealed class TextDocumentSyncHandler(OpenDocumentStore documents)
{
    [JsonRpcMethod(ProtocolMethods.DidOpenTextDocument, UseSingleObjectParameterDeserialization = true)]
    public void DidOpen(DidOpenTextDocumentParams parameters) => documents.Set(parameters.TextDocument.Uri, parameters.TextDocument.Text);

    [JsonRpcMethod(ProtocolMethods.DidChangeTextDocument, UseSingleObjectParameterDeserialization = true)]
    public void DidChange(DidChangeTextDocumentParams parameters)
    {
        // Full sync: the last change holds the whole text.
        if (parameters.ContentChanges.Count > 0)
        {
            documents.Set(parameters.TextDocument.Uri, parameters.ContentChanges[^1].Text);
        }
    }

    /// <summary>The client sends didSave because full sync implies it; the synchronized buffer already holds the saved text.</summary>
    [JsonRpcMethod(ProtocolMethods.DidSaveTextDocument, UseSingleObjectParameterDeserialization = true)]
    public void DidSave(DidSaveTextDocumentParams parameters) => _ = parameters;

    [JsonRpcMethod(ProtocolMethods.DidCloseTextDocument, UseSingleObjectParameterDeserialization = true)]
    public void DidClose(DidCloseTextDocumentParams parameters) => documents.Remove(parameters.TextDocument.Uri);
}
