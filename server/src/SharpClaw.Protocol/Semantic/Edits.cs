using System.Text.Json.Serialization;

namespace SharpClaw.Protocol.Semantic;

/// <summary>
/// Params of <c>sharpclaw/edit</c>: compiler-checked rename, file rename and code actions with previews
/// (proposals) and validated writes. Flat like the bridge's <c>edit</c> tool.
/// </summary>
/// <remarks>
/// <list type="bullet">
/// <item><c>rename</c>: the symbol selectors plus <see cref="NewName"/>. Without <see cref="Apply"/>: a preview with a proposal id.</item>
/// <item><c>rename_file</c>: <c>path</c> of the document plus <see cref="NewName"/> (a file name or a workspace-relative path).</item>
/// <item><c>code_actions</c>: <c>path</c> + <c>line</c>/<c>character</c> (+ <see cref="EndLine"/>/<see cref="EndCharacter"/>), or
/// <c>path</c> + <see cref="Diagnostic"/> (+ <c>line</c>): a listing with a proposal id; then <see cref="ProposalId"/> +
/// <see cref="ActionIndex"/>: a preview with a new proposal id.</item>
/// <item>Any action: <see cref="ProposalId"/> + <see cref="Apply"/> applies a preview.</item>
/// </list>
/// </remarks>
public sealed record EditParams : SymbolSelectorParams
{
    /// <summary>rename, rename_file or code_actions.</summary>
    public string? Action { get; init; }

    /// <summary>rename: the new identifier (keywords need @). rename_file: the new file name or workspace-relative path.</summary>
    public string? NewName { get; init; }

    /// <summary>A proposal id from an earlier preview or listing.</summary>
    public string? ProposalId { get; init; }

    /// <summary>True to write: a preview's proposal, or a fresh rename / rename_file / code action with <see cref="ActionIndex"/>.</summary>
    public bool? Apply { get; init; }

    /// <summary>code_actions: the zero-based index of an entry of the listing.</summary>
    public int? ActionIndex { get; init; }

    /// <summary>code_actions: one-based end line of a selection.</summary>
    public int? EndLine { get; init; }

    /// <summary>code_actions: one-based end character of a selection.</summary>
    public int? EndCharacter { get; init; }

    /// <summary>code_actions: a diagnostic code such as CS0168; the fixes for its first occurrence in <c>path</c> (at or after <c>line</c>).</summary>
    public string? Diagnostic { get; init; }

    /// <summary>code_actions: also list the entries under "Suppress or configure issues".</summary>
    public bool? All { get; init; }

    /// <summary>Previews: also return each file's planned before- and after-text (<see cref="EditResult.Files"/>), for a client
    /// that shows the edit in its own diff view and applies it itself (VS Code's refactor preview and WorkspaceEdit).</summary>
    public bool? IncludeTexts { get; init; }
}

/// <summary>Params of <c>sharpclaw/undoEdit</c> and <c>sharpclaw/redoEdit</c>.</summary>
public sealed record EditHistoryParams : WorkspaceRequestParams;

/// <summary>What an edit result is.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<EditResultKind>))]
public enum EditResultKind
{
    /// <summary>A proposed edit, not applied; <c>proposalId</c> applies it.</summary>
    [JsonStringEnumMemberName("preview")]
    Preview,

    /// <summary>A code action listing; <c>proposalId</c> + <c>actionIndex</c> resolves an entry.</summary>
    [JsonStringEnumMemberName("listing")]
    Listing,

    /// <summary>Writes finished (rename, rename_file, code action, undo, redo).</summary>
    [JsonStringEnumMemberName("applied")]
    Applied,
}

/// <summary>One file operation of an edit.</summary>
/// <param name="Operation">change or rename.</param>
/// <param name="Path">Workspace-relative path (before a rename).</param>
/// <param name="NewPath">rename: the new workspace-relative path; else null.</param>
/// <param name="Occurrences">Changed text spans in the file.</param>
public sealed record EditFileOperation(string Operation, string Path, string? NewPath, int Occurrences)
{
    /// <summary>A preview: the changed lines of the file, one excerpt per group of touching lines, in file order; else null.</summary>
    public IReadOnlyList<EditExcerpt>? Excerpts { get; init; }
}

/// <summary>One group of changed lines of a preview: the whole old lines and the whole new lines they became.</summary>
/// <param name="Line">One-based line of the group's first change (old text).</param>
/// <param name="Character">One-based character (UTF-16 code units) of that change.</param>
/// <param name="Removed">The old lines (without line breaks); empty when the change only inserts.</param>
/// <param name="Added">The new lines (without line breaks); empty when the change only deletes.</param>
public sealed record EditExcerpt(int Line, int Character, IReadOnlyList<string> Removed, IReadOnlyList<string> Added);

/// <summary>The errors and warnings of the C# files an applied edit changed (the diagnostics tool's findings for them).</summary>
/// <param name="Files">How many changed C# files there are.</param>
/// <param name="SkippedAbove">The most files the host checks; set when <paramref name="Files"/> is above it and nothing was checked, else null.</param>
/// <param name="Items">Errors and warnings (not suppressed), ordered by workspace-relative path, then position.</param>
public sealed record EditDiagnostics(int Files, int? SkippedAbove, IReadOnlyList<EditDiagnostic> Items);

/// <summary>One error or warning in a changed file.</summary>
/// <param name="Path">Workspace-relative path.</param>
/// <param name="Line">One-based line.</param>
/// <param name="Character">One-based character (UTF-16 code units).</param>
/// <param name="Severity">error or warning.</param>
/// <param name="Id">The diagnostic code, e.g. CS0168.</param>
/// <param name="Message">The message (invariant culture).</param>
public sealed record EditDiagnostic(string Path, int Line, int Character, string Severity, string Id, string Message);

/// <summary>One entry of a code action listing.</summary>
/// <param name="Index">Zero-based, stable: hidden entries count too.</param>
/// <param name="Title">Menu path such as <c>Introduce parameter for 'x' &gt; into new overload</c>.</param>
/// <param name="Hidden">Under "Suppress or configure issues" (listed only with <c>all</c>).</param>
/// <param name="Unverified">Applying it would be refused as <c>unverified</c>: a source generator SharpClaw does not run can see the change.</param>
public sealed record CodeActionEntry(int Index, string Title, bool Hidden, bool Unverified);

/// <summary>
/// The result of <c>sharpclaw/edit</c>, <c>sharpclaw/undoEdit</c> and <c>sharpclaw/redoEdit</c>: typed data only.
/// The client renders the compact text agents read (the TypeScript engine's renderEdits.ts).
/// </summary>
/// <param name="Kind">preview, listing or applied.</param>
/// <param name="ProposalId">preview/listing: the id to send back; applied: null.</param>
/// <param name="Operations">The file operations (preview: proposed, with their excerpts; applied: completed, in order).</param>
/// <param name="Actions">listing: the entries shown (hidden ones only with <c>all</c>); else null.</param>
/// <param name="HiddenActions">listing: how many entries are hidden; else 0.</param>
/// <param name="Refreshed">applied: the host's compilation context reflects the written text.</param>
public sealed record EditResult(
    EditResultKind Kind,
    string? ProposalId,
    IReadOnlyList<EditFileOperation> Operations,
    IReadOnlyList<CodeActionEntry>? Actions,
    int HiddenActions,
    bool Refreshed)
{
    /// <summary>A preview requested with <c>includeTexts</c>: every file's planned texts, in write order; else null.</summary>
    public IReadOnlyList<EditFileText>? Files { get; init; }

    /// <summary>listing: the workspace-relative file the code actions are for; else null.</summary>
    public string? Path { get; init; }

    /// <summary>applied and refreshed: the errors and warnings of the changed C# files; else null.</summary>
    public EditDiagnostics? Diagnostics { get; init; }

    /// <summary>The workspace-relative file a file-name or suffix argument resolved to; null when the path was exact.</summary>
    public string? ResolvedFile { get; init; }

    /// <summary>Edits a killed host left unfinished, recovered (and journaled for undo) before this one; else null.</summary>
    public IReadOnlyList<InterruptedEdit>? Interrupted { get; init; }

    /// <summary>
    /// A preview SharpClaw refuses to write (unverified: a source generator it does not run can see the change): why.
    /// Such a preview has no proposal id; it is shown so a person can read it. Else null.
    /// </summary>
    public string? CannotApply { get; init; }

    /// <summary>With <see cref="CannotApply"/>: the projects and generators behind the refusal; else null.</summary>
    public IReadOnlyList<string>? CannotApplyDetails { get; init; }
}

/// <summary>
/// An apply a killed host left unfinished, found in its durable record at the next edit request.
/// An unreadable record has <see cref="Unreadable"/> set, no files, and stays in <see cref="RecordFolder"/>.
/// </summary>
/// <param name="Record">The record's file name.</param>
/// <param name="RecordFolder">The folder of the records (the workspace's state folder).</param>
/// <param name="Summary">What the apply was, e.g. "rename A to B"; null when unreadable.</param>
/// <param name="Operation">rename, rename_file, code_action, undo or redo; null when unreadable.</param>
/// <param name="StartedAt">When the apply started (ISO 8601, UTC); null when unreadable.</param>
/// <param name="Files">Each planned file and whether its new content is on disk.</param>
/// <param name="RemovedTemporaryFiles">Leftover temporary files of the apply that were removed.</param>
/// <param name="Undoable">True when written files were journaled, so Undo Last Edit reverts them.</param>
public sealed record InterruptedEdit(
    string Record,
    string RecordFolder,
    string? Summary,
    string? Operation,
    string? StartedAt,
    IReadOnlyList<InterruptedEditFile> Files,
    int RemovedTemporaryFiles,
    bool Undoable)
{
    /// <summary>Why the record could not be read; else null.</summary>
    public string? Unreadable { get; init; }
}

/// <summary>The <c>sharpclaw/interruptedEdits</c> result: what was recovered (empty: nothing was interrupted).</summary>
public sealed record InterruptedEditsResult(IReadOnlyList<InterruptedEdit> Interrupted);

/// <summary>One file of an interrupted apply.</summary>
/// <param name="Path">Workspace-relative path (before a move).</param>
/// <param name="NewPath">For a move, the new workspace-relative path; else null.</param>
/// <param name="Written">True when its planned content is on disk.</param>
public sealed record InterruptedEditFile(string Path, string? NewPath, bool Written);

/// <summary>One file of a preview with its planned texts (newlines as in the file).</summary>
/// <param name="Path">Workspace-relative path (before a rename).</param>
/// <param name="NewPath">For a file rename, the new workspace-relative path; else null.</param>
/// <param name="Before">The text the file must still have when the edit is applied.</param>
/// <param name="After">The text it gets.</param>
/// <param name="Occurrences">Changed spans in the file.</param>
public sealed record EditFileText(string Path, string? NewPath, string Before, string After, int Occurrences);

/// <summary>One file a write would touch, for the client's permission prompt.</summary>
/// <param name="Path">Workspace-relative path.</param>
/// <param name="NewPath">For a file rename, the new workspace-relative path; else null.</param>
/// <param name="Occurrences">Changed spans in the file.</param>
public sealed record WriteFile(string Path, string? NewPath, int Occurrences);

/// <summary>
/// Params of the server→client request <c>sharpclaw/authorizeWrite</c>: sent before every semantic write
/// (apply, undo, redo). The host writes nothing unless the client grants it.
/// </summary>
/// <param name="Workspace">The workspace folder (absolute).</param>
/// <param name="Operation">What writes: rename, rename_file, code_actions, undo or redo.</param>
/// <param name="Summary">One line for the prompt, e.g. <c>rename Calculator.Add to Sum</c>.</param>
/// <param name="Files">Every file written, with occurrence counts.</param>
/// <param name="Tool">The tool the request came from, or null.</param>
/// <param name="Call">The client's id of the call whose request writes (its <c>call</c> param), or null.</param>
public sealed record AuthorizeWriteParams(
    string Workspace,
    string Operation,
    string Summary,
    IReadOnlyList<WriteFile> Files,
    string? Tool,
    string? Call)
{
    /// <summary>
    /// Every file's planned texts, in write order. A client with its own editor model (VS Code) may apply
    /// them itself — keeping open editors, unsaved buffers and its undo coherent — and answer
    /// <c>appliedByClient: true</c>; the host then checks the disk, journals and refreshes as if it had written.
    /// </summary>
    public IReadOnlyList<EditFileText>? Changes { get; init; }
}
