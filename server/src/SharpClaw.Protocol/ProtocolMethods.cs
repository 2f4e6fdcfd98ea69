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

    // LSP document synchronization (full text): the editor's unsaved buffers.
    public const string DidOpenTextDocument = "textDocument/didOpen";
    public const string DidChangeTextDocument = "textDocument/didChange";
    public const string DidCloseTextDocument = "textDocument/didClose";
    public const string DidSaveTextDocument = "textDocument/didSave";

    // SharpClaw's own requests.
    public const string Status = "sharpclaw/status";
    public const string SolutionInspect = "sharpclaw/solutionInspect";
    public const string ProjectGraph = "sharpclaw/projectGraph";
    public const string ResolveTarget = "sharpclaw/resolveTarget";

    /// <summary>The SDK dotnet would pick in the target's folder, by the .NET host's resolver in process (the verifier's SDK check).</summary>
    public const string ResolveSdk = "sharpclaw/resolveSdk";
    public const string SymbolResolve = "sharpclaw/symbolResolve";
    public const string FindReferences = "sharpclaw/findReferences";
    public const string TypeHierarchy = "sharpclaw/typeHierarchy";
    public const string Diagnostics = "sharpclaw/diagnostics";
    public const string Navigate = "sharpclaw/navigate";
    public const string BulkNavigate = "sharpclaw/bulkNavigate";
    public const string Symbols = "sharpclaw/symbols";

    /// <summary>The verifier's request: the union of the tests that reach a list of symbols.</summary>
    public const string ReachedTests = "sharpclaw/reachedTests";
    public const string LspRequest = "sharpclaw/lspRequest";
    public const string Edit = "sharpclaw/edit";
    public const string UndoEdit = "sharpclaw/undoEdit";

    /// <summary>Recovers the applies a killed host left unfinished (journaled for undo) and reports them.</summary>
    public const string InterruptedEdits = "sharpclaw/interruptedEdits";
    public const string RedoEdit = "sharpclaw/redoEdit";

    /// <summary>Declarations by name from the syntax-only store: no MSBuild, no authorization.</summary>
    public const string SymbolSearch = "sharpclaw/symbolSearch";

    /// <summary>Text or regex over the workspace's C# files from the syntax-only store: no MSBuild, no authorization.</summary>
    public const string WorkspaceSearch = "sharpclaw/workspaceSearch";

    /// <summary>Deletes the workspace's store (SharpClaw: Clear Cache); the next search rebuilds it.</summary>
    public const string ClearStore = "sharpclaw/clearStore";

    // Server → client.
    /// <summary>Request: the host asks before evaluating MSBuild (see <c>AuthorizeEvaluationParams</c>).</summary>
    public const string AuthorizeEvaluation = "sharpclaw/authorizeEvaluation";

    /// <summary>Request: the host asks before every semantic write (see <c>AuthorizeWriteParams</c>); answered like authorizeEvaluation.</summary>
    public const string AuthorizeWrite = "sharpclaw/authorizeWrite";

    /// <summary>Notification: project i of n while a workspace loads (see <c>LoadProgressParams</c>).</summary>
    public const string LoadProgress = "sharpclaw/loadProgress";
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

    /// <summary>
    /// Every typed semantic failure (target_ambiguous, no_target, permission_denied, missing_prerequisites, load_failed,
    /// partial_load, invalid_request, ambiguous_symbol, symbol_not_found, the edit kinds: <c>SemanticErrorKind</c>).
    /// The error's <c>data</c> is a <c>SemanticErrorData</c>.
    /// </summary>
    public const int SemanticError = -32001;
}
