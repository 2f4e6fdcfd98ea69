namespace SharpClaw.Protocol.Semantic;

/// <summary>
/// Params of <c>sharpclaw/navigate</c>: the symbol selectors (name, or path + line + character; path + line
/// alone for source and members) plus the action and the paging options.
/// </summary>
public sealed record NavigateParams : SymbolSelectorParams
{
    /// <summary>One of <see cref="NavigateActions"/>.</summary>
    [OneOf<NavigateActions>]
    public string? Action { get; init; }

    /// <summary>Show each position on its own line with its trimmed source line.</summary>
    public bool? Context { get; init; }

    /// <summary>Skip this many results of the filtered list.</summary>
    [PageOffset]
    public int? Offset { get; init; }

    /// <summary>At most this many results.</summary>
    [PageLimit]
    public int? Limit { get; init; }
}

/// <summary>One position in a navigate result.</summary>
/// <param name="Path">Workspace-relative path; the absolute <c>file://</c> URI for generated or external files.</param>
/// <param name="Line">One-based line.</param>
/// <param name="Character">One-based UTF-16 character.</param>
/// <param name="Context">The trimmed source line when <c>context</c> was requested, else null.</param>
public sealed record NavigateLocation(string Path, int Line, int Character, string? Context);

/// <summary>A related symbol (callers, callees, supertypes, subtypes, implementations) with its call sites.</summary>
/// <param name="Name">Display name usable as a symbol name unchanged (a primary constructor names its type).</param>
/// <param name="Kind">Symbol kind (constructor for every constructor).</param>
/// <param name="Location">Its first source declaration, or null for metadata symbols.</param>
/// <param name="CallSites">callers: the call sites in the caller's file; callees: in the requested file; else null.</param>
public sealed record RelatedSymbol(string Name, string Kind, SourceLocation? Location, IReadOnlyList<NavigateLocation>? CallSites)
{
    /// <summary>callers: the interface or base member the caller calls, which dispatches to the requested one (e.g. <c>Lib.IShape.Area()</c>); absent for a direct call.</summary>
    public string? Via { get; init; }
}

/// <summary>The saved text of one declaration (documentation comment included).</summary>
/// <param name="Path">Workspace-relative file; the absolute <c>file://</c> URI for a generated or external file.</param>
/// <param name="FirstLine">One-based first line (of the documentation comment when there is one).</param>
/// <param name="LastLine">One-based last line.</param>
/// <param name="Kind">Kind of the declared symbol.</param>
/// <param name="Name">Its display name.</param>
/// <param name="Text">The lines, as saved.</param>
public sealed record SourcePart(string Path, int FirstLine, int LastLine, string Kind, string Name, string Text);

/// <summary>A member a type declares.</summary>
/// <param name="Path">File of the declaration: workspace-relative, or the absolute <c>file://</c> URI for a generated or external file.</param>
/// <param name="Line">One-based line.</param>
/// <param name="Character">One-based UTF-16 character.</param>
/// <param name="Kind">Member kind.</param>
/// <param name="Name">Name relative to the type, e.g. <c>Add(int, int)</c>.</param>
public sealed record MemberItem(string Path, int Line, int Character, string Kind, string Name);

/// <summary>One section of an impact result.</summary>
/// <param name="Action">references, callers, implementations or subtypes.</param>
/// <param name="Total">How many items the section has.</param>
/// <param name="Locations">references: the locations; else null.</param>
/// <param name="Related">callers, implementations, subtypes: the symbols; else null.</param>
/// <param name="OmittedGenerated">references: occurrences in source-generated code, left out; callers: call sites there.</param>
public sealed record ImpactSection(string Action, int Total, IReadOnlyList<NavigateLocation>? Locations, IReadOnlyList<RelatedSymbol>? Related, int OmittedGenerated);

/// <summary>An impact section left out because the answer would not fit.</summary>
/// <param name="Action">The section's action: request it alone.</param>
/// <param name="Total">Its item count (locations or symbols).</param>
/// <param name="Lines">The lines it would have taken (one per location or symbol, plus one per call site).</param>
public sealed record OmittedSection(string Action, int Total, int Lines);

/// <summary>Result of <c>sharpclaw/navigate</c>. Exactly the member of the action is filled.</summary>
/// <param name="Action">The action answered.</param>
/// <param name="Symbol">The symbol the action ran on.</param>
/// <param name="Project">Workspace-relative path of the project that answered.</param>
/// <param name="TargetFramework">Its framework, or null.</param>
/// <param name="Locations">definition, type_definition, implementation, references, reads, writes: this page in file and position order.</param>
/// <param name="Related">callers, callees, supertypes, subtypes, tests (kind test, named Namespace.Class.Method): this page in file and position order (metadata symbols last, by name).</param>
/// <param name="Hover">hover: plain text.</param>
/// <param name="Sources">source: every declaration.</param>
/// <param name="Members">members: this page of the declared members, in file and position order.</param>
/// <param name="Sections">impact: the sections that fit.</param>
/// <param name="OmittedToFit">impact: the sections left out to fit, largest first.</param>
/// <param name="Total">Items of the filtered list in all pages (0 for hover and source).</param>
/// <param name="Offset">Offset applied.</param>
/// <param name="Limit">Limit applied.</param>
/// <param name="Truncated">True when items after this page exist.</param>
/// <param name="NextOffset">Offset of the next page when truncated, else null.</param>
/// <param name="OmittedGenerated">references, reads, writes: occurrences in source-generated code, left out; callers: call sites in source-generated code, left out.</param>
/// <param name="OmittedAccesses">callees: property, field and constant accesses left out.</param>
/// <param name="ExcludedAnalyzers">Excluded project/package analyzers and generators, or null when none.</param>
public sealed record NavigateResult(
    string Action,
    ResolvedSymbol Symbol,
    string Project,
    string? TargetFramework,
    IReadOnlyList<NavigateLocation>? Locations,
    IReadOnlyList<RelatedSymbol>? Related,
    string? Hover,
    IReadOnlyList<SourcePart>? Sources,
    IReadOnlyList<MemberItem>? Members,
    IReadOnlyList<ImpactSection>? Sections,
    IReadOnlyList<OmittedSection>? OmittedToFit,
    int Total,
    int Offset,
    int Limit,
    bool Truncated,
    int? NextOffset,
    int OmittedGenerated,
    int OmittedAccesses,
    IReadOnlyList<ExcludedAnalyzers>? ExcludedAnalyzers)
{
    /// <summary>The workspace-relative file a file-name or suffix argument resolved to; absent when the path was exact.</summary>
    public string? ResolvedFile { get; init; }

    /// <summary>As in <see cref="SymbolResolveResult.Flavours"/>.</summary>
    public FlavourNote? Flavours { get; init; }

    /// <summary>
    /// implementation, subtypes, references, reads, writes, callers, impact: excluded generators whose code could add
    /// to the list (they run in projects that can see the symbol); absent when none could.
    /// </summary>
    public IReadOnlyList<GeneratorGap>? GeneratorGaps { get; init; }

    /// <summary>tests: where the walk met code it cannot follow (reflection, DI by type, ...); absent when it met none.</summary>
    public UnfollowableNote? Unfollowable { get; init; }

    /// <summary>tests: the walk's member limit when it stopped there (tests past it are missing); absent when it finished.</summary>
    public int? WalkLimit { get; init; }
}

/// <summary>Where a test walk met code it cannot follow, so tests reaching the symbol only through it are missing.</summary>
/// <param name="Total">How many such places it met.</param>
/// <param name="Kinds">Their kinds, once each in order: reflection, Activator, Type.GetType, DI registration by type, dynamic, expression tree.</param>
/// <param name="Places">The first of them in file and position order (at most <see cref="MaxPlaces"/>).</param>
public sealed record UnfollowableNote(int Total, IReadOnlyList<string> Kinds, IReadOnlyList<UnfollowablePlace> Places)
{
    public const int MaxPlaces = 5;
}

/// <summary>One place a test walk cannot follow.</summary>
/// <param name="Kind">reflection, Activator, Type.GetType, DI registration by type, dynamic or expression tree.</param>
/// <param name="Path">Workspace-relative path.</param>
/// <param name="Line">One-based line.</param>
/// <param name="Character">One-based UTF-16 character.</param>
public sealed record UnfollowablePlace(string Kind, string Path, int Line, int Character);

/// <summary>One query of <c>sharpclaw/bulkNavigate</c>.</summary>
public sealed record BulkNavigateQuery
{
    /// <summary>One of <see cref="NavigateActions"/>; a bad one fails only this query's section.</summary>
    [OneOf<NavigateActions>]
    public string? Action { get; init; }

    /// <summary>Symbol name (like <c>name</c> of navigate).</summary>
    public string? Name { get; init; }

    /// <summary>File: workspace-relative path or unique whole-segment suffix.</summary>
    public string? Path { get; init; }

    public int? Line { get; init; }

    public int? Character { get; init; }
}

/// <summary>Params of <c>sharpclaw/bulkNavigate</c>: the queries; context, offset and limit apply to each.</summary>
public sealed record BulkNavigateParams : WorkspaceRequestParams
{
    /// <summary>The queries, run concurrently on one snapshot.</summary>
    [Bounds(1, 16)]
    public IReadOnlyList<BulkNavigateQuery>? Queries { get; init; }

    public bool? Context { get; init; }

    [PageOffset]
    public int? Offset { get; init; }

    [PageLimit]
    public int? Limit { get; init; }

    /// <summary>Overall time budget in seconds; unfinished queries report timeout.</summary>
    [Bounds(1, 600, Default = 120)]
    public int? TimeoutSeconds { get; init; }
}

/// <summary>A failed bulk query.</summary>
/// <param name="Code">The error kind: ambiguous_symbol, symbol_not_found, ambiguous_file, invalid_request, ..., timeout or cancelled.</param>
/// <param name="Message">What happened.</param>
/// <param name="Candidates">Names or paths to send back, one per line.</param>
public sealed record BulkNavigateError(SemanticErrorKind Code, string Message, IReadOnlyList<string>? Candidates);

/// <summary>One section of a bulk result, in request order.</summary>
/// <param name="Index">One-based position of the query.</param>
/// <param name="Action">The query's action.</param>
/// <param name="Target">The query's symbol, or file:line:character as sent.</param>
/// <param name="Result">The answer, or null when it failed.</param>
/// <param name="Error">The failure, or null.</param>
public sealed record BulkNavigateSection(int Index, string Action, string Target, NavigateResult? Result, BulkNavigateError? Error);

/// <summary>Result of <c>sharpclaw/bulkNavigate</c>.</summary>
/// <param name="Sections">One per query, in request order.</param>
/// <param name="TimedOut">True when the overall timeout stopped unfinished queries.</param>
public sealed record BulkNavigateResult(IReadOnlyList<BulkNavigateSection> Sections, bool TimedOut);

/// <summary>Params of <c>sharpclaw/symbols</c>: <c>path</c> for document symbols or <c>query</c> for workspace symbols.</summary>
public sealed record SymbolsParams : WorkspaceRequestParams
{
    /// <summary>A file: workspace-relative path or unique whole-segment suffix.</summary>
    public string? Path { get; init; }

    /// <summary>A name to search in the workspace.</summary>
    public string? Query { get; init; }

    /// <summary>Only this project (name or path).</summary>
    public string? Project { get; init; }

    [PageOffset]
    public int? Offset { get; init; }

    [PageLimit]
    public int? Limit { get; init; }
}

/// <summary>A document or workspace symbol.</summary>
/// <param name="Name">Display name usable as a symbol name unchanged.</param>
/// <param name="Kind">Symbol kind.</param>
/// <param name="Path">File.</param>
/// <param name="Line">One-based line of the name.</param>
/// <param name="Character">One-based character of the name.</param>
/// <param name="EndLine">Document symbols: one-based last line of the declaration; else null.</param>
/// <param name="EndCharacter">Document symbols: one-based character after the declaration's end; else null.</param>
/// <param name="Depth">Document symbols: nesting under containers (0 at the top); workspace symbols: 0.</param>
public sealed record SymbolItem(string Name, string Kind, string Path, int Line, int Character, int? EndLine, int? EndCharacter, int Depth);

/// <summary>Result of <c>sharpclaw/symbols</c>.</summary>
/// <param name="Path">The file (document symbols), else null.</param>
/// <param name="Query">The query (workspace symbols), else null.</param>
/// <param name="Items">This page: document order, or match quality then file and position.</param>
/// <param name="Total">All items.</param>
/// <param name="Offset">Offset applied.</param>
/// <param name="Limit">Limit applied.</param>
/// <param name="Truncated">True when items after this page exist.</param>
/// <param name="NextOffset">Offset of the next page when truncated, else null.</param>
/// <param name="Projects">The projects that answered.</param>
/// <param name="Incomplete">True when the file is in no project (declarations from its syntax alone).</param>
/// <param name="ExcludedAnalyzers">As in other results.</param>
public sealed record SymbolsResult(
    string? Path,
    string? Query,
    IReadOnlyList<SymbolItem> Items,
    int Total,
    int Offset,
    int Limit,
    bool Truncated,
    int? NextOffset,
    IReadOnlyList<AnsweringProject> Projects,
    bool Incomplete,
    IReadOnlyList<ExcludedAnalyzers>? ExcludedAnalyzers)
{
    /// <summary>As in <see cref="NavigateResult.ResolvedFile"/>.</summary>
    public string? ResolvedFile { get; init; }
}
