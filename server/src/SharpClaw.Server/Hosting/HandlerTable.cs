using SharpClaw.Protocol;

namespace SharpClaw.Server.Hosting;

/// <summary>What a JSON-RPC method does to the host's semantic state (Roslyn's <c>MutatesSolutionState</c>).</summary>
public enum RequestEffect
{
    /// <summary>LSP lifecycle, status and trace: never waits, so shutdown and status answer during a long edit.</summary>
    Lifecycle,

    /// <summary>Editor buffer sync notifications: never waits (an apply the client performs itself waits for
    /// its own didChange notifications, so they must not queue behind it). The open-document store has its own lock.</summary>
    DocumentSync,

    /// <summary>Never reads the loaded solution, only files and the evaluation cache (which has its own gate): never waits.
    /// The verifier asks these while it holds the workspace lock an apply may be waiting for, so they must not queue behind that apply.</summary>
    OutsideSolution,

    /// <summary>Reads the solution: runs alongside other readers, never while a mutating request runs.</summary>
    ReadOnly,

    /// <summary>Changes files or the solution (edit, undo, redo, reload): runs alone, after the readers before it finish.</summary>
    Mutating,
}

/// <summary>
/// The one table of every method the host answers and its <see cref="RequestEffect"/>. <see cref="HostJsonRpc"/>
/// admits each request through <see cref="RequestGate"/> by this table; a test checks that every
/// <c>[JsonRpcMethod]</c> of the host is listed, so a new handler cannot forget to say what it does.
/// </summary>
public static class HandlerTable
{
    public static IReadOnlyDictionary<string, RequestEffect> Methods { get; } = new Dictionary<string, RequestEffect>(StringComparer.Ordinal)
    {
        [ProtocolMethods.Initialize] = RequestEffect.Lifecycle,
        [ProtocolMethods.Initialized] = RequestEffect.Lifecycle,
        [ProtocolMethods.Shutdown] = RequestEffect.Lifecycle,
        [ProtocolMethods.Exit] = RequestEffect.Lifecycle,
        [ProtocolMethods.SetTrace] = RequestEffect.Lifecycle,
        [ProtocolMethods.Status] = RequestEffect.Lifecycle,
        [GuardedMessageHandler.RejectedMessageMethod] = RequestEffect.Lifecycle,
        [ProtocolMethods.DidOpenTextDocument] = RequestEffect.DocumentSync,
        [ProtocolMethods.DidChangeTextDocument] = RequestEffect.DocumentSync,
        [ProtocolMethods.DidCloseTextDocument] = RequestEffect.DocumentSync,
        [ProtocolMethods.DidSaveTextDocument] = RequestEffect.DocumentSync,
        [ProtocolMethods.ResolveTarget] = RequestEffect.OutsideSolution,
        [ProtocolMethods.SolutionInspect] = RequestEffect.ReadOnly,
        [ProtocolMethods.ProjectGraph] = RequestEffect.OutsideSolution,
        [ProtocolMethods.SymbolResolve] = RequestEffect.ReadOnly,
        [ProtocolMethods.FindReferences] = RequestEffect.ReadOnly,
        [ProtocolMethods.TypeHierarchy] = RequestEffect.ReadOnly,
        [ProtocolMethods.Diagnostics] = RequestEffect.ReadOnly,
        [ProtocolMethods.Navigate] = RequestEffect.ReadOnly,
        [ProtocolMethods.BulkNavigate] = RequestEffect.ReadOnly,
        [ProtocolMethods.Symbols] = RequestEffect.ReadOnly,
        [ProtocolMethods.LspRequest] = RequestEffect.ReadOnly,
        [ProtocolMethods.Edit] = RequestEffect.Mutating,
        [ProtocolMethods.UndoEdit] = RequestEffect.Mutating,
        [ProtocolMethods.RedoEdit] = RequestEffect.Mutating,
        [ProtocolMethods.InterruptedEdits] = RequestEffect.Mutating,
        [ProtocolMethods.SymbolSearch] = RequestEffect.OutsideSolution,
        [ProtocolMethods.WorkspaceSearch] = RequestEffect.OutsideSolution,
        [ProtocolMethods.ClearStore] = RequestEffect.OutsideSolution,
    };

    /// <summary>The effect of <paramref name="method"/>; an unknown method (answered "method not found") waits for nothing.</summary>
    public static RequestEffect EffectOf(string method) =>
        Methods.TryGetValue(method, out RequestEffect effect) ? effect : RequestEffect.Lifecycle;
}
