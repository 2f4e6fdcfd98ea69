namespace SharpClaw.Protocol;

/// <summary>
/// How the host admits a request beside the others in flight (Roslyn's <c>MutatesSolutionState</c>). This is
/// scheduling only, not what a call may do to the workspace: that is the client's authorization effect (read,
/// write, build), which the permission policy asks about. <see cref="ProtocolSchema"/> exports each request's
/// scheduling (<c>x-scheduling</c>) and the drift test checks that the two agree (a call that may write is
/// <see cref="Exclusive"/>, and only such a call is).
/// </summary>
public enum RequestScheduling
{
    /// <summary>LSP lifecycle, status and trace: never waits, so shutdown and status answer during a long edit.</summary>
    Lifecycle,

    /// <summary>Editor buffer sync notifications: never waits (an apply the client performs itself waits for
    /// its own didChange notifications, so they must not queue behind it). The open-document store has its own lock.</summary>
    DocumentSync,

    /// <summary>Never reads the loaded solution, only files, the store and the evaluation cache (which have their own
    /// gates): never waits. The verifier asks some of these while it holds the workspace lock an apply may be
    /// waiting for, so they must not queue behind that apply.</summary>
    OutsideSolution,

    /// <summary>Reads the loaded solution: runs alongside other shared requests, never while an exclusive one runs.</summary>
    Shared,

    /// <summary>Changes files or the solution (edit, undo, redo, recovery): runs alone, after the shared requests before it finish.</summary>
    Exclusive,
}

/// <summary>The scheduling of every method of the protocol: the one table the host admits requests by.</summary>
public static class MethodScheduling
{
    public static IReadOnlyDictionary<string, RequestScheduling> Methods { get; } = new Dictionary<string, RequestScheduling>(StringComparer.Ordinal)
    {
        [ProtocolMethods.Initialize] = RequestScheduling.Lifecycle,
        [ProtocolMethods.Initialized] = RequestScheduling.Lifecycle,
        [ProtocolMethods.Shutdown] = RequestScheduling.Lifecycle,
        [ProtocolMethods.Exit] = RequestScheduling.Lifecycle,
        [ProtocolMethods.SetTrace] = RequestScheduling.Lifecycle,
        [ProtocolMethods.Status] = RequestScheduling.Lifecycle,
        [ProtocolMethods.DidOpenTextDocument] = RequestScheduling.DocumentSync,
        [ProtocolMethods.DidChangeTextDocument] = RequestScheduling.DocumentSync,
        [ProtocolMethods.DidCloseTextDocument] = RequestScheduling.DocumentSync,
        [ProtocolMethods.DidSaveTextDocument] = RequestScheduling.DocumentSync,
        [ProtocolMethods.ResolveTarget] = RequestScheduling.OutsideSolution,
        [ProtocolMethods.ResolveSdk] = RequestScheduling.OutsideSolution,
        [ProtocolMethods.ProjectGraph] = RequestScheduling.OutsideSolution,
        [ProtocolMethods.SymbolSearch] = RequestScheduling.OutsideSolution,
        [ProtocolMethods.WorkspaceSearch] = RequestScheduling.OutsideSolution,
        [ProtocolMethods.ClearStore] = RequestScheduling.OutsideSolution,
        [ProtocolMethods.SolutionInspect] = RequestScheduling.Shared,
        [ProtocolMethods.SymbolResolve] = RequestScheduling.Shared,
        [ProtocolMethods.FindReferences] = RequestScheduling.Shared,
        [ProtocolMethods.TypeHierarchy] = RequestScheduling.Shared,
        [ProtocolMethods.Diagnostics] = RequestScheduling.Shared,
        [ProtocolMethods.Navigate] = RequestScheduling.Shared,
        [ProtocolMethods.BulkNavigate] = RequestScheduling.Shared,
        [ProtocolMethods.Symbols] = RequestScheduling.Shared,
        [ProtocolMethods.ReachedTests] = RequestScheduling.Shared,
        [ProtocolMethods.LspRequest] = RequestScheduling.Shared,
        [ProtocolMethods.Edit] = RequestScheduling.Exclusive,
        [ProtocolMethods.UndoEdit] = RequestScheduling.Exclusive,
        [ProtocolMethods.RedoEdit] = RequestScheduling.Exclusive,
        [ProtocolMethods.InterruptedEdits] = RequestScheduling.Exclusive,
    };

    /// <summary>How the scheduling is spelled in the exported schema (<c>outside_solution</c>).</summary>
    public static string Name(RequestScheduling scheduling) => System.Text.Json.JsonNamingPolicy.SnakeCaseLower.ConvertName(scheduling.ToString());
}
