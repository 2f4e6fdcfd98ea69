using System.Text.Json.Serialization;

namespace SharpClaw.Protocol.Semantic;

/// <summary>
/// What went wrong in a semantic request: the one set of error kinds the host sends, each spelled in snake_case
/// (the agent-facing code, passed through unchanged). Travels as the <c>kind</c> of <see cref="SemanticErrorData"/>
/// (JSON-RPC error code <see cref="ProtocolErrorCodes.SemanticError"/>) and as the <c>code</c> of a failed bulk query.
/// </summary>
[JsonConverter(typeof(JsonStringEnumConverter<SemanticErrorKind>))]
public enum SemanticErrorKind
{
    /// <summary>Several top-level candidates; <c>candidates</c> lists them (workspace-relative). Pass <c>target</c>.</summary>
    [JsonStringEnumMemberName("target_ambiguous")]
    TargetAmbiguous,

    /// <summary>No .sln/.slnx/.csproj at the top of the workspace; <c>candidates</c> lists nested ones, if any.</summary>
    [JsonStringEnumMemberName("no_target")]
    NoTarget,

    /// <summary>Evaluation was needed and the client did not authorize it (or failed to answer).</summary>
    [JsonStringEnumMemberName("permission_denied")]
    PermissionDenied,

    /// <summary>A .NET SDK or restore assets are missing; <c>command</c> names what to run, when there is one.</summary>
    [JsonStringEnumMemberName("missing_prerequisites")]
    MissingPrerequisites,

    /// <summary>Nothing usable could be loaded; <c>projects</c> says why per project when known.</summary>
    [JsonStringEnumMemberName("load_failed")]
    LoadFailed,

    /// <summary>
    /// Some projects failed to load. Normally a warning inside a successful result (<c>loadStatus: "partial"</c>);
    /// it is an error only where a request needs a project that failed.
    /// </summary>
    [JsonStringEnumMemberName("partial_load")]
    PartialLoad,

    /// <summary>The request itself is wrong (missing workspace, target outside the workspace, ...).</summary>
    [JsonStringEnumMemberName("invalid_request")]
    InvalidRequest,

    /// <summary>A symbol query matched several symbols; <c>symbols</c> (and <c>candidates</c>) list up to 20, each sendable back unchanged.</summary>
    [JsonStringEnumMemberName("ambiguous_symbol")]
    AmbiguousSymbol,

    /// <summary>A symbol query matched nothing; <c>symbols</c> (and <c>candidates</c>) list up to 10 similar names.</summary>
    [JsonStringEnumMemberName("symbol_not_found")]
    SymbolNotFound,

    /// <summary>A file name or path suffix matched several workspace files; <c>candidates</c> lists up to 20 workspace-relative paths.</summary>
    [JsonStringEnumMemberName("ambiguous_file")]
    AmbiguousFile,

    /// <summary>A proposal expired (5 minutes), is unknown, or a file it edits / a project, props, targets, solution or .editorconfig file changed since the preview.</summary>
    [JsonStringEnumMemberName("stale_edit")]
    StaleEdit,

    /// <summary>Project/package generators were excluded, so the edit cannot be verified; nothing was written.</summary>
    [JsonStringEnumMemberName("unverified")]
    Unverified,

    /// <summary>The new name is not a valid C# identifier (a keyword needs @).</summary>
    [JsonStringEnumMemberName("invalid_identifier")]
    InvalidIdentifier,

    /// <summary>Roslyn reported rename conflicts it could not resolve; <c>details</c> lists them.</summary>
    [JsonStringEnumMemberName("rename_conflict")]
    RenameConflict,

    /// <summary>The edit would introduce compiler errors; <c>details</c> lists them.</summary>
    [JsonStringEnumMemberName("new_errors")]
    NewErrors,

    /// <summary>The edit would write outside the canonical workspace (or through a symbolic link below it).</summary>
    [JsonStringEnumMemberName("outside_workspace")]
    OutsideWorkspace,

    /// <summary>The edit would change a generated document.</summary>
    [JsonStringEnumMemberName("generated_document")]
    GeneratedDocument,

    /// <summary>A file shared by several projects or target frameworks would get different edits.</summary>
    [JsonStringEnumMemberName("linked_document_conflict")]
    LinkedDocumentConflict,

    /// <summary>The edit exceeds 256 files, 8 MiB per file or 64 MiB in total.</summary>
    [JsonStringEnumMemberName("edit_too_large")]
    EditTooLarge,

    /// <summary>A write failed or was cancelled; <c>details</c> lists the completed writes, the rollback and residual changes by path.</summary>
    [JsonStringEnumMemberName("write_failed")]
    WriteFailed,

    /// <summary>A file changed outside the edit (before a write, or since the edit being undone/redone); it was left as it is.</summary>
    [JsonStringEnumMemberName("content_changed")]
    ContentChanged,

    /// <summary>Nothing to undo or redo.</summary>
    [JsonStringEnumMemberName("nothing_to_undo")]
    NothingToUndo,

    /// <summary>A file the edit would change is read-only; <c>details</c> lists the paths. Nothing was written.</summary>
    [JsonStringEnumMemberName("read_only_file")]
    ReadOnlyFile,

    /// <summary>Bulk navigate sections only: the overall timeout passed before this query finished.</summary>
    [JsonStringEnumMemberName("timeout")]
    Timeout,

    /// <summary>Bulk navigate sections only: the query was cancelled.</summary>
    [JsonStringEnumMemberName("cancelled")]
    Cancelled,
}

/// <summary>The <c>data</c> of every semantic JSON-RPC error (code -32001).</summary>
/// <param name="Kind">The error kind.</param>
/// <param name="Message">What happened and what to do about it, for a person.</param>
/// <param name="Candidates">Workspace-relative target candidates (target_ambiguous, no_target) or files (ambiguous_file), else null.</param>
/// <param name="Projects">Per-project reasons (load_failed, partial_load, missing_prerequisites), else null.</param>
/// <param name="Command">The exact command that fixes it (e.g. <c>dotnet restore "App.slnx"</c>, run in the workspace folder), else null.</param>
public sealed record SemanticErrorData(
    SemanticErrorKind Kind,
    string Message,
    IReadOnlyList<string>? Candidates,
    IReadOnlyList<ProjectIssue>? Projects,
    string? Command)
{
    /// <summary>
    /// ambiguous_symbol / symbol_not_found: the candidate symbols (absent otherwise). Send <c>name</c> back
    /// unchanged as the request's <c>name</c>, with <c>path</c> when <c>needsPath</c> is true.
    /// Omitted from the JSON for the other kinds, so their shape is unchanged.
    /// </summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public IReadOnlyList<SymbolCandidate>? Symbols { get; init; }

    /// <summary>
    /// Edit errors: one line per new error, conflict, residual change or rollback error (absent otherwise).
    /// </summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public IReadOnlyList<string>? Details { get; init; }

    /// <summary>
    /// Edit, undo and redo errors: applies an earlier host left unfinished, recovered by this request (absent
    /// otherwise). A failed request still reports them, so the report is never lost with the request.
    /// </summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public IReadOnlyList<InterruptedEdit>? Interrupted { get; init; }
}

/// <summary>A candidate symbol in an ambiguous_symbol or symbol_not_found error.</summary>
/// <param name="Name">Display name usable as <c>name</c> unchanged.</param>
/// <param name="Kind">Symbol kind (see <c>ResolvedSymbol.Kind</c>).</param>
/// <param name="Path">Workspace-relative file of its first declaration, or null (metadata).</param>
/// <param name="Line">One-based line of that declaration, or null.</param>
/// <param name="Character">One-based UTF-16 character of that declaration, or null.</param>
/// <param name="NeedsPath">True when another candidate has the same name: send <c>path</c> too.</param>
public sealed record SymbolCandidate(string Name, string Kind, string? Path, int? Line, int? Character, bool NeedsPath)
{
    /// <summary>
    /// The candidate as every surface writes it, "name (kind, path:line:char)" with a reminder to send the file
    /// when two candidates share the name. The one definition: the CLI, MCP and bulk sections print this.
    /// A required member (set by <see cref="Of"/>), so the wire schema says it is always there.
    /// </summary>
    public required string Text { get; init; }

    public static SymbolCandidate Of(string name, string kind, string? path, int? line, int? character, bool needsPath)
    {
        string where = path is null ? string.Empty : line is { } at ? $"{path}:{at}:{character ?? 1}" : path;
        string text = $"{name} ({kind}{(where.Length > 0 ? ", " + where : string.Empty)}){(needsPath && path is not null ? " — give its file too" : string.Empty)}";
        return new SymbolCandidate(name, kind, path, line, character, needsPath) { Text = text };
    }
}

/// <summary>A project and why it is a problem.</summary>
/// <param name="Path">Workspace-relative project path (forward slashes), or absolute when outside the workspace.</param>
/// <param name="Reason">Why, in words.</param>
public sealed record ProjectIssue(string Path, string Reason);
