namespace SharpClaw.Protocol.Semantic;

/// <summary>Params of <c>sharpclaw/diagnostics</c>.</summary>
public sealed record DiagnosticsParams : WorkspaceRequestParams
{
    /// <summary>Project name or workspace-relative project path; null: every project.</summary>
    public string? Project { get; init; }

    /// <summary>Exact workspace-relative file, a unique whole-segment suffix, or a glob in the host's one dialect (<c>*</c>, <c>**</c>, <c>?</c>, <c>[abc]</c>, <c>{A,B}</c>; see the server's PathGlob).</summary>
    public string? Path { get; init; }

    /// <summary>Minimum severity, one of <see cref="DiagnosticSeverities"/>; absent: warning (errors and warnings).</summary>
    [OneOf<DiagnosticSeverities>]
    public string? Severity { get; init; }

    /// <summary>Diagnostic codes (case-insensitive), applied before severity.</summary>
    public IReadOnlyList<string>? Ids { get; init; }

    /// <summary>One line per code instead of one per diagnostic.</summary>
    public bool? Summary { get; init; }

    /// <summary>Skip this many diagnostics (or summary lines).</summary>
    [PageOffset]
    public int? Offset { get; init; }

    /// <summary>At most this many diagnostics (or summary lines): more than other lists, since a line is short.</summary>
    [Bounds(1, 250, Default = 50)]
    public int? Limit { get; init; }
}

/// <summary>A project/framework pair that answered.</summary>
public sealed record AnsweringProject(string Project, string? TargetFramework);

/// <summary>One diagnostic.</summary>
/// <param name="Path">Workspace-relative file.</param>
/// <param name="Line">One-based start line.</param>
/// <param name="Character">One-based UTF-16 start character.</param>
/// <param name="EndLine">One-based end line.</param>
/// <param name="EndCharacter">One-based UTF-16 end character (exclusive).</param>
/// <param name="Severity">error, warning, information or hint.</param>
/// <param name="Id">The code, e.g. CS0103.</param>
/// <param name="Message">The message.</param>
/// <param name="Project">Workspace-relative project that reported it.</param>
public sealed record DiagnosticItem(string Path, int Line, int Character, int EndLine, int EndCharacter, string Severity, string Id, string Message, string Project)
{
    /// <summary>
    /// An error in a project whose compilation lacks an excluded generator's output (the generator runs in it or in a
    /// project it references): the generators, named here, may be its cause, so a real build may not have it.
    /// </summary>
    public string? ExcludedGenerator { get; init; }

    /// <summary>With <see cref="ExcludedGenerator"/>: the partial type the error lies in, which a generator of its own project may complete (the likeliest knock-ons).</summary>
    public string? PartialType { get; init; }

    /// <summary>
    /// An error in a project whose restore failed (its assets file logs errors): what the restore could not do
    /// ("NU1101 Jab"), which may be its cause — a build stops at the restore and reports no compiler error there.
    /// </summary>
    public string? RestoreFailed { get; init; }
}

/// <summary>
/// The project-level caveat of a diagnostics answer for a project whose restore failed: its errors may come from the
/// references the restore could not give it.
/// </summary>
/// <param name="Project">Workspace-relative project.</param>
/// <param name="Failure">What the restore could not do, "NU1101 Jab" (the first three, then "+N more").</param>
/// <param name="Errors">The listed errors of the project (in every page).</param>
public sealed record RestoreCaveat(string Project, string Failure, int Errors);

/// <summary>
/// The project-level caveat of a diagnostics answer: an excluded generator whose output the checked projects lack,
/// so their errors may not be real.
/// </summary>
/// <param name="Generator">The generator assembly's name (Markers.Gen).</param>
/// <param name="Origin">"project generator", "package generator Id/version" or "generator".</param>
/// <param name="Errors">The listed errors it may explain (in every page).</param>
/// <param name="ProjectCount">The projects those errors are in.</param>
/// <param name="Projects">The first of them, workspace-relative, in order (at most three).</param>
public sealed record GeneratorCaveat(string Generator, string Origin, int Errors, int ProjectCount, IReadOnlyList<string> Projects);

/// <summary>One summary line: a code, how often it occurs, its severity, one example.</summary>
public sealed record DiagnosticSummaryLine(string Id, int Count, string Severity, SourceLocation Example, string Message)
{
    /// <summary>The excluded generators that may explain every diagnostic of this line (its code's errors in their reach get a line of their own).</summary>
    public string? ExcludedGenerator { get; init; }

    /// <summary>Every diagnostic of this line is in a project whose restore failed (<see cref="DiagnosticItem.RestoreFailed"/>).</summary>
    public bool RestoreFailed { get; init; }
}

/// <summary>Result of <c>sharpclaw/diagnostics</c>.</summary>
/// <param name="Projects">The projects (and frameworks) whose compilations were checked.</param>
/// <param name="Diagnostics">This page of diagnostics: those that stand by path (ordinal), line, character, then those an excluded generator may explain (in partial types first); null in summary mode.</param>
/// <param name="Summary">This page of summary lines: those that stand (count descending, then code), then those an excluded generator may explain; null unless summary.</param>
/// <param name="Severity">The minimum severity applied.</param>
/// <param name="FilteredByIds">True when <c>ids</c> filtered the list (a filtered result without matches does not mean clean).</param>
/// <param name="FilesChecked">C# files checked.</param>
/// <param name="Total">Diagnostics at or above the severity (after ids), in all pages.</param>
/// <param name="FilesWithDiagnostics">Files with at least one of them.</param>
/// <param name="BelowSeverity">Diagnostics (after ids) below the severity, not listed: the compiler's, and those of the analyzers that ran (an analyzer that cannot report at the severity in the files asked is not run).</param>
/// <param name="Offset">The offset applied.</param>
/// <param name="Limit">The limit applied.</param>
/// <param name="Truncated">True when more diagnostics (summary lines) follow this page.</param>
/// <param name="NextOffset">Offset of the next page when truncated.</param>
/// <param name="Incomplete">Matching C# files attached to no project (no semantic diagnostics), workspace-relative.</param>
/// <param name="ExcludedAnalyzers">Excluded project/package analyzers, or null when none.</param>
public sealed record DiagnosticsResult(
    IReadOnlyList<AnsweringProject> Projects,
    IReadOnlyList<DiagnosticItem>? Diagnostics,
    IReadOnlyList<DiagnosticSummaryLine>? Summary,
    string Severity,
    bool FilteredByIds,
    int FilesChecked,
    int Total,
    int FilesWithDiagnostics,
    int BelowSeverity,
    int Offset,
    int Limit,
    bool Truncated,
    int? NextOffset,
    IReadOnlyList<string> Incomplete,
    IReadOnlyList<ExcludedAnalyzers>? ExcludedAnalyzers)
{
    /// <summary>The workspace-relative file a file-name or suffix <c>path</c> resolved to; absent when the path was exact.</summary>
    public string? ResolvedFile { get; init; }

    /// <summary>Of <see cref="Total"/>, the errors marked as possibly from an excluded generator.</summary>
    public int PossiblyFromExcludedGenerators { get; init; }

    /// <summary>One per excluded generator that may explain listed errors, said before them; absent when none.</summary>
    public IReadOnlyList<GeneratorCaveat>? GeneratorCaveats { get; init; }

    /// <summary>Of <see cref="Total"/>, the errors in projects whose restore failed (listed after those that stand).</summary>
    public int PossiblyFromFailedRestores { get; init; }

    /// <summary>One per project whose restore failed and that has listed errors (at most three, most errors first); absent when none.</summary>
    public IReadOnlyList<RestoreCaveat>? RestoreCaveats { get; init; }
}

