using System.Globalization;
using Microsoft.CodeAnalysis;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Authorization;
using SharpClaw.Server.Semantic.Cache;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Discovery;
using SharpClaw.Server.Semantic.Symbols;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>
/// <c>sharpclaw/edit</c>, <c>sharpclaw/undoEdit</c>, <c>sharpclaw/redoEdit</c>: previews become proposals,
/// applies ask the client for write permission, take the workspace write lock, write with content checks
/// and rollback, record the edit in the journal and refresh the cached compilation from the new text.
/// </summary>
public sealed class EditService(SemanticContextCache cache, TimeProvider? clock = null, EditWriteHook? writeHook = null, Func<Task>? applySettlingHook = null)
{
    /// <summary>Receipts skip the diagnostics check above this many changed files.</summary>
    public const int MaxDiagnosedFiles = 128;

    public static readonly TimeSpan LockTimeout = TimeSpan.FromSeconds(30);

    public ProposalStore Proposals { get; } = new(clock ?? TimeProvider.System);

    public EditJournal Journal { get; } = new();

    public WorkspaceWriter Writer { get; } = new(writeHook);

    /// <summary>The applies writing now: the host waits for them (each finishes or rolls back) before it ends.</summary>
    public ApplyTracker Applies { get; } = new();

    /// <summary>Records of interrupted applies already put on the undo stack (a report not yet heard is recovered again, journaled once).</summary>
    private readonly HashSet<string> journaledRecords = new(PathUtil.Comparer);

    public async Task<EditResult> EditAsync(EditParams parameters, IEvaluationAuthorizer? evaluation, IWriteAuthorizer? write, CancellationToken cancellationToken)
    {
        ContextRequest request = SemanticWorkspaceService.CreateRequest(parameters) with { ForWrite = true };
        InterruptedEdits.InterruptedReport? interrupted = await this.RecoverAsync(request.Target.Workspace, cancellationToken).ConfigureAwait(false);
        return await Reporting(interrupted, () => this.EditCoreAsync(request, parameters, evaluation, write, cancellationToken)).ConfigureAwait(false);
    }

    /// <summary>
    /// <c>sharpclaw/interruptedEdits</c>: recovers what a killed host left unfinished in the workspace
    /// (clients ask when a host starts, so the person hears of it before the next edit).
    /// </summary>
    public async Task<InterruptedEditsResult> RecoverInterruptedAsync(EditHistoryParams parameters, CancellationToken cancellationToken)
    {
        // The journal is the workspace's: only the workspace is checked, no target is looked for (a workspace with two
        // solutions at its top or none has applies to recover too, and a target walk made every client's start slower).
        string workspace = TargetDiscovery.ValidateWorkspace(parameters.Workspace);
        InterruptedEdits.InterruptedReport? interrupted = await this.RecoverAsync(workspace, cancellationToken).ConfigureAwait(false);
        interrupted?.Acknowledge();
        return new InterruptedEditsResult(interrupted?.Edits ?? []);
    }

    private Task<InterruptedEdits.InterruptedReport?> RecoverAsync(string workspace, CancellationToken cancellationToken) =>
        InterruptedEdits.RecoverAsync(workspace, this.Journal, this.FirstRecovery, log: null, cancellationToken);

    private bool FirstRecovery(string record)
    {
        lock (this.journaledRecords)
        {
            return this.journaledRecords.Add(record);
        }
    }

    /// <summary>
    /// Runs a request that recovered <paramref name="interrupted"/> and reports them in its answer: in its
    /// result, or in its typed error. Either way the records are then deleted; a cancelled request (its answer
    /// reaches nobody) leaves them for the next one.
    /// </summary>
    private static async Task<EditResult> Reporting(InterruptedEdits.InterruptedReport? interrupted, Func<Task<EditResult>> run)
    {
        if (interrupted is null)
        {
            return await run().ConfigureAwait(false);
        }

        EditResult result;
        try
        {
            result = await run().ConfigureAwait(false);
        }
        catch (SemanticException ex)
        {
            interrupted.Acknowledge();
            throw ex.WithInterrupted(interrupted.Edits);
        }

        interrupted.Acknowledge();
        return result with { Interrupted = interrupted.Edits };
    }

    private async Task<EditResult> EditCoreAsync(ContextRequest request, EditParams parameters, IEvaluationAuthorizer? evaluation, IWriteAuthorizer? write, CancellationToken cancellationToken)
    {
        string workspace = request.Target.Workspace;
        string action = (parameters.Action ?? string.Empty).Trim().ToLowerInvariant();
        // A proposal knows its action: proposalId alone applies a preview, and with actionIndex resolves a code action listing.
        if (action.Length == 0 && parameters.ProposalId is not null)
        {
            action = parameters.ActionIndex is null ? string.Empty : "code_actions";
        }
        else if (action is not ("rename" or "rename_file" or "code_actions"))
        {
            throw SemanticException.InvalidRequest($"'action' must be rename, rename_file or code_actions, not '{parameters.Action}'.");
        }

        bool apply = parameters.Apply == true;
        if (parameters.ProposalId is { } id && parameters.ActionIndex is null)
        {
            if (!apply)
            {
                throw SemanticException.InvalidRequest("With proposalId, send apply: true to apply a preview, or actionIndex to resolve a code action listing.");
            }

            EditPlan plan;
            using (ContextLease lease = await cache.AcquireAsync(request, evaluation, cancellationToken).ConfigureAwait(false))
            {
                Proposal proposal = this.Proposals.Take(id, workspace, lease.Context);
                plan = proposal.Plan ?? throw SemanticException.InvalidRequest($"Proposal {proposal.Id} is a code action listing; send actionIndex to resolve one of its entries first.");
                if (action.Length > 0 && !string.Equals(plan.Operation, action, StringComparison.Ordinal))
                {
                    throw SemanticException.InvalidRequest($"Proposal {proposal.Id} is a {plan.Operation} preview; apply it with action {plan.Operation}.");
                }
            }

            EditResult applied = await this.ApplyAsync(plan, request, write, parameters.Tool, cancellationToken).ConfigureAwait(false);
            this.Proposals.Remove(id);
            return applied;
        }

        EditPlan computed;
        ContextSnapshot snapshot;
        string? resolvedFile = null;
        using (ContextLease lease = await cache.AcquireAsync(request, evaluation, cancellationToken).ConfigureAwait(false))
        {
            // The shared file rule: an exact path, else a unique whole-segment suffix announced by a first
            // "resolved file:" line (several matches: ambiguous_file).
            if (!string.IsNullOrWhiteSpace(parameters.Path))
            {
                ResolvedFile resolved = FileResolver.Resolve(lease.Solution, workspace, parameters.Path);
                resolvedFile = resolved.Reported;
                parameters = parameters with { Path = resolved.Relative };
            }

            snapshot = new ContextSnapshot(lease.Context.LoadedAtUtc, ProposalStore.BuildFileStamps(lease));
            switch (action)
            {
                case "rename":
                    computed = await RenameService.PlanAsync(lease, workspace, parameters, cancellationToken).ConfigureAwait(false);
                    break;
                case "rename_file":
                    computed = await FileRenameService.PlanAsync(lease, workspace, parameters, cancellationToken).ConfigureAwait(false);
                    break;
                default:
                    if (parameters.ActionIndex is null)
                    {
                        return Announce(await this.ListCodeActionsAsync(lease, request, parameters, snapshot, cancellationToken).ConfigureAwait(false), resolvedFile);
                    }

                    CodeActionListing listing;
                    if (parameters.ProposalId is { } listingId)
                    {
                        Proposal proposal = this.Proposals.Take(listingId, workspace, lease.Context);
                        listing = proposal.Listing ?? throw SemanticException.InvalidRequest($"Proposal {proposal.Id} is a preview, not a code action listing; apply it with apply: true.");
                    }
                    else
                    {
                        listing = await CodeActionService.ListAsync(lease, workspace, parameters, cancellationToken).ConfigureAwait(false);
                    }

                    computed = await CodeActionService.ResolveAsync(lease, workspace, listing, parameters.ActionIndex.Value, cancellationToken).ConfigureAwait(false);
                    break;
            }
        }

        if (computed.Refusal is { } refusal)
        {
            // Never written; shown (without a proposal id) so the person can read what was refused and why.
            if (apply)
            {
                throw refusal;
            }

            return Announce(
                new EditResult(EditResultKind.Preview, null, EditExcerpts.Preview(computed, workspace), null, 0, false)
                {
                    CannotApply = refusal.Message,
                    CannotApplyDetails = refusal.Error.Details,
                },
                resolvedFile);
        }

        if (apply)
        {
            return Announce(await this.ApplyAsync(computed, request, write, parameters.Tool, cancellationToken).ConfigureAwait(false), resolvedFile);
        }

        Proposal stored = this.StoreProposal(workspace, request, snapshot, SourceHashes(computed.Files), plan: computed);
        EditResult preview = new(EditResultKind.Preview, stored.Id, EditExcerpts.Preview(computed, workspace), null, 0, false)
        {
            Files = parameters.IncludeTexts == true ? computed.FileTexts(workspace) : null,
        };
        return Announce(preview, resolvedFile);
    }

    /// <summary>Names the file a file argument matched by suffix (the <c>resolved file:</c> line).</summary>
    private static EditResult Announce(EditResult result, string? resolvedFile) =>
        resolvedFile is null ? result : result with { ResolvedFile = resolvedFile };

    /// <summary>Keeps a preview (<paramref name="plan"/>) or a code action listing (<paramref name="listing"/>) under a new proposal id.</summary>
    private Proposal StoreProposal(string workspace, ContextRequest request, ContextSnapshot snapshot, Dictionary<string, string?> sourceFiles, EditPlan? plan = null, CodeActionListing? listing = null) =>
        this.Proposals.Add(newId => new Proposal
        {
            Id = newId,
            Workspace = workspace,
            Request = request,
            CreatedAt = this.Proposals.Clock.GetUtcNow(),
            ContextLoadedAtUtc = snapshot.LoadedAtUtc,
            Plan = plan,
            Listing = listing,
            BuildFiles = snapshot.BuildFiles,
            SourceFiles = sourceFiles,
        });

    public Task<EditResult> UndoAsync(EditHistoryParams parameters, IWriteAuthorizer? write, CancellationToken cancellationToken) =>
        this.ReplayAsync(parameters, write, undo: true, cancellationToken);

    public Task<EditResult> RedoAsync(EditHistoryParams parameters, IWriteAuthorizer? write, CancellationToken cancellationToken) =>
        this.ReplayAsync(parameters, write, undo: false, cancellationToken);

    private async Task<EditResult> ReplayAsync(EditHistoryParams parameters, IWriteAuthorizer? write, bool undo, CancellationToken cancellationToken)
    {
        ContextRequest request = SemanticWorkspaceService.CreateRequest(parameters) with { ForWrite = true };
        InterruptedEdits.InterruptedReport? interrupted = await this.RecoverAsync(request.Target.Workspace, cancellationToken).ConfigureAwait(false);
        return await Reporting(interrupted, () => this.ReplayCoreAsync(request, parameters, write, undo, cancellationToken)).ConfigureAwait(false);
    }

    private async Task<EditResult> ReplayCoreAsync(ContextRequest request, EditHistoryParams parameters, IWriteAuthorizer? write, bool undo, CancellationToken cancellationToken)
    {
        string workspace = request.Target.Workspace;
        JournalEntry entry = undo ? this.Journal.PeekUndo(workspace) : this.Journal.PeekRedo(workspace);

        // Undo writes the inverse operations in reverse order; redo writes the original ones again.
        IReadOnlyList<PlannedFile> files = undo ? [.. entry.Files.Reverse().Select(f => f.Inverse())] : entry.Files;
        List<string> changed = [.. files.Where(f => !WorkspaceWriter.BeforeHolds(f)).Select(f => WorkspaceWriter.Describe(workspace, f))];
        if (changed.Count > 0)
        {
            throw SemanticException.Edit(
                SemanticErrorKind.ContentChanged,
                $"Cannot {(undo ? "undo" : "redo")} '{entry.Summary}': {string.Join(", ", changed)} changed since; nothing was written. Edit the file deliberately instead.",
                changed);
        }

        EditPlan plan = new(undo ? "undo" : "redo", $"{(undo ? "undo" : "redo")} {entry.Summary}", workspace, files);
        EditResult result = await this.ApplyAsync(plan, request, write, parameters.Tool, cancellationToken, journal: false).ConfigureAwait(false);
        if (undo)
        {
            this.Journal.CompleteUndo(entry);
        }
        else
        {
            this.Journal.CompleteRedo(entry);
        }

        return result;
    }

    private async Task<EditResult> ListCodeActionsAsync(ContextLease lease, ContextRequest request, EditParams parameters, ContextSnapshot snapshot, CancellationToken cancellationToken)
    {
        string workspace = request.Target.Workspace;
        CodeActionListing listing = await CodeActionService.ListAsync(lease, workspace, parameters, cancellationToken).ConfigureAwait(false);
        Proposal stored = this.StoreProposal(
            workspace, request, snapshot, new Dictionary<string, string?>(PathUtil.Comparer) { [listing.FilePath] = listing.FileHash }, listing: listing);
        bool all = parameters.All == true;
        string relative = PathUtil.ToWorkspaceRelative(workspace, listing.FilePath);
        return new EditResult(
            EditResultKind.Listing,
            stored.Id,
            [],
            [.. listing.Entries.Where(e => all || !e.Hidden)],
            listing.Entries.Count(e => e.Hidden),
            false)
        {
            Path = relative,
        };
    }

    private async Task<EditResult> ApplyAsync(EditPlan plan, ContextRequest request, IWriteAuthorizer? write, string? tool, CancellationToken cancellationToken, bool journal = true)
    {
        string workspace = request.Target.Workspace;
        if (plan.Files.Count == 0)
        {
            throw SemanticException.InvalidRequest("The edit changes nothing.");
        }

        if (write is null)
        {
            throw SemanticException.PermissionDenied("Writing files needs FileSystemWrite permission, and no authorization is available in this context.");
        }

        WorkspaceWriter.CheckPreconditions(workspace, plan.Files);
        WriteOutcome outcome;

        // Marked running from the first write until the apply's record is settled (deleted, or kept for the
        // next request) and its journal entry written: a host that waits for its applies before it ends must
        // not end between the last write and those, or it leaves a record of an apply that finished or rolled back.
        IDisposable? running = null;
        try
        {
            // The lock covers the authorization too: a client that applies the edit itself writes under it.
            using (WorkspaceLock _ = await WorkspaceLock.AcquireAsync(workspace, LockTimeout, cancellationToken).ConfigureAwait(false))
            {
                // Durable before the first write, whoever writes (this host, or the client while it answers):
                // a host killed mid-apply leaves the record for the next request (InterruptedEdits).
                using InterruptedEdits.ApplyRecord record = InterruptedEdits.Begin(plan, this.Proposals.Clock.GetUtcNow());
                try
                {
                    AuthorizeWriteParams authorization = new(workspace, plan.Operation, plan.Summary, plan.WriteFiles(workspace), tool, request.Call) { Changes = plan.FileTexts(workspace) };
                    EvaluationAuthorization answer = await write.AuthorizeAsync(authorization, cancellationToken).ConfigureAwait(false);
                    if (!answer.Granted)
                    {
                        throw SemanticException.PermissionDenied($"Writing {plan.Files.Count} file(s) for '{plan.Summary}' was not authorized: {answer.Message ?? "denied"}");
                    }

                    if (answer.AppliedByClient)
                    {
                        outcome = CheckClientApplied(plan);
                    }
                    else
                    {
                        // From the first write on, the apply finishes or rolls back whatever the client does: the
                        // host waits for it before it ends, and cancels it (a rollback) when it must end.
                        running = this.Applies.Enter();
                        using CancellationTokenSource writing = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, this.Applies.Stopping);
                        outcome = await this.Writer.WriteAsync(plan, writing.Token).ConfigureAwait(false);
                    }
                }
                catch (OperationCanceledException ex) when (ex is not WriteCancelledException { Residual.Count: 0 })
                {
                    // Nobody hears this answer, and files may have changed (a client that was applying, a residual
                    // the rollback left): the next request reports what is on disk.
                    record.Keep();
                    throw;
                }

                if (journal && outcome.Completed.Count > 0)
                {
                    this.Journal.Record(new JournalEntry(plan.Operation, plan.Summary, workspace, outcome.Completed, this.Proposals.Clock.GetUtcNow()));
                }

                if (applySettlingHook is not null)
                {
                    await applySettlingHook().ConfigureAwait(false);
                }

                if (outcome.Completed.Count < plan.Files.Count)
                {
                    HashSet<string> done = new(outcome.Completed.Select(f => f.AfterPath), PathUtil.Comparer);
                    List<string> missing = [.. plan.Files.Where(f => !done.Contains(f.AfterPath)).Select(f => PathUtil.ToWorkspaceRelative(workspace, f.AfterPath))];
                    throw SemanticException.Edit(
                        SemanticErrorKind.ContentChanged,
                        $"The editor applied {outcome.Completed.Count} of {plan.Files.Count} file operations of '{plan.Summary}'; the others do not have the planned text (changed since the edit was planned, or unsaved editor changes). Nothing of theirs was overwritten.",
                        missing);
                }
            }
        }
        finally
        {
            running?.Dispose();
        }

        // Source-only refresh: moved documents are re-attached in place, changed text is re-read by the cache.
        List<(string From, string To)> moves = [.. outcome.Completed.Where(f => f.IsRename).Select(f => (f.Path, f.NewPath!))];
        bool refreshed = false;
        EditDiagnostics? diagnostics = null;
        try
        {
            if (moves.Count > 0)
            {
                await cache.MoveDocumentsAsync(request.Key, moves, CancellationToken.None).ConfigureAwait(false);
            }

            using ContextLease lease = await cache.AcquireAsync(request, authorizer: null, CancellationToken.None).ConfigureAwait(false);
            refreshed = await ReflectsAsync(lease.Solution, outcome.Completed, cancellationToken).ConfigureAwait(false);
            if (refreshed)
            {
                diagnostics = await DiagnoseAsync(lease.Solution, workspace, outcome.Completed, cancellationToken).ConfigureAwait(false);
            }
        }
        catch (SemanticException)
        {
            refreshed = false; // Structural change: the next request reloads (after authorization).
        }

        EditPlan completed = plan with { Files = outcome.Completed };
        return new EditResult(EditResultKind.Applied, null, completed.Operations(workspace), null, 0, refreshed) { Diagnostics = diagnostics };
    }

    /// <summary>What a client that applied the edit itself (VS Code's WorkspaceEdit) actually wrote: the files whose disk content is now the planned after-state.</summary>
    /// <remarks>A file planned from an unsaved editor buffer was saved by the client: its journaled before-state is the buffer's text as saved, so undo restores the buffer, not the older disk content.</remarks>
    private static WriteOutcome CheckClientApplied(EditPlan plan) =>
        new([.. plan.Files
            .Where(f => ContentHash.OfFile(f.AfterPath) == f.AfterHash && (f.NewPath is null || !File.Exists(f.Path)))
            .Select(f => f with { Before = FileText.Encode(f.BeforeText, f.Before) })]);

    private static Dictionary<string, string?> SourceHashes(IReadOnlyList<PlannedFile> files)
    {
        Dictionary<string, string?> hashes = new(PathUtil.Comparer);
        foreach (PlannedFile file in files)
        {
            hashes[file.Path] = file.BeforeHash;
            if (file.NewPath is not null)
            {
                hashes[file.NewPath] = null; // Must still not exist.
            }
        }

        return hashes;
    }

    private static async Task<bool> ReflectsAsync(Solution solution, IReadOnlyList<PlannedFile> files, CancellationToken cancellationToken)
    {
        foreach (PlannedFile file in files.Where(f => IsCSharp(f.AfterPath)))
        {
            DocumentId? id = SolutionPaths.DocumentIdsAt(solution, file.AfterPath).FirstOrDefault();
            if (id is null || solution.GetDocument(id) is not { } document
                || !string.Equals((await document.GetTextAsync(cancellationToken).ConfigureAwait(false)).ToString(), file.AfterText, StringComparison.Ordinal))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Errors and warnings of the changed C# files (none checked above <see cref="MaxDiagnosedFiles"/>).</summary>
    private static async Task<EditDiagnostics> DiagnoseAsync(Solution solution, string workspace, IReadOnlyList<PlannedFile> files, CancellationToken cancellationToken)
    {
        List<string> paths = [.. files.Select(f => f.AfterPath).Where(IsCSharp).Distinct(PathUtil.Comparer)];
        if (paths.Count > MaxDiagnosedFiles)
        {
            return new EditDiagnostics(paths.Count, MaxDiagnosedFiles, []);
        }

        List<EditDiagnostic> items = [];
        foreach (string path in paths.OrderBy(p => PathUtil.ToWorkspaceRelative(workspace, p), StringComparer.Ordinal))
        {
            // A file compiled for several target frameworks has one document per flavour, each with its
            // own #if branches: the receipt lists what any flavour reports, once, in source order.
            string relative = PathUtil.ToWorkspaceRelative(workspace, path);
            HashSet<EditDiagnostic> found = [];
            foreach (DocumentId id in SolutionPaths.DocumentIdsAt(solution, path))
            {
                if (solution.GetDocument(id) is not { } document
                    || await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false) is not { } model)
                {
                    continue;
                }

                foreach (Diagnostic diagnostic in model.GetDiagnostics(cancellationToken: cancellationToken)
                    .Where(d => d.Severity >= DiagnosticSeverity.Warning && !d.IsSuppressed && d.Location.IsInSource))
                {
                    FileLinePositionSpan span = diagnostic.Location.GetLineSpan();
                    found.Add(new EditDiagnostic(
                        relative,
                        span.StartLinePosition.Line + 1,
                        span.StartLinePosition.Character + 1,
                        diagnostic.Severity == DiagnosticSeverity.Error ? "error" : "warning",
                        diagnostic.Id,
                        diagnostic.GetMessage(CultureInfo.InvariantCulture)));
                }
            }

            items.AddRange(found
                .OrderBy(d => d.Line)
                .ThenBy(d => d.Character)
                .ThenBy(d => d.Id, StringComparer.Ordinal)
                .ThenBy(d => d.Message, StringComparer.Ordinal));
        }

        return new EditDiagnostics(paths.Count, null, items);
    }

    private static bool IsCSharp(string path) =>
        path.EndsWith(".cs", StringComparison.OrdinalIgnoreCase) || path.EndsWith(".csx", StringComparison.OrdinalIgnoreCase);

    private sealed record ContextSnapshot(DateTime LoadedAtUtc, IReadOnlyDictionary<string, Fingerprints.FileStamp> BuildFiles);
}
