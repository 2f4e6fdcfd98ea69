namespace SharpClaw.Protocol.Semantic;

/// <summary>The symbol selectors every symbol query accepts (besides the workspace context).</summary>
public interface ISymbolSelector : IWorkspaceRequest
{
    /// <summary>Exact symbol name; a qualified name matches the end of the fully qualified name. A parameter list selects an overload.</summary>
    string? Name { get; }

    /// <summary>Containing type (matches the end of its qualified name).</summary>
    string? Container { get; }

    /// <summary>Symbol kind: class, record, struct, interface, enum, delegate, method, constructor, property, field, event, namespace.</summary>
    string? Kind { get; }

    /// <summary>Project name or workspace-relative project path.</summary>
    string? Project { get; }

    /// <summary>File of a declaration: workspace-relative path or a unique whole-segment suffix. With line/character and no name: the file to look at.</summary>
    string? Path { get; }

    /// <summary>Parameter list such as <c>(int, int)</c> (parentheses optional).</summary>
    string? Signature { get; }

    /// <summary>One-based line of a declaration (or, without name, of any occurrence).</summary>
    int? Line { get; }

    /// <summary>One-based UTF-16 character (with <see cref="Line"/>).</summary>
    int? Character { get; }
}

/// <summary>The workspace context and symbol selectors shared by the params of every symbol query.</summary>
public abstract record SymbolSelectorParams : WorkspaceRequestParams, ISymbolSelector
{
    public string? Name { get; init; }

    public string? Container { get; init; }

    public string? Kind { get; init; }

    public string? Project { get; init; }

    public string? Path { get; init; }

    public string? Signature { get; init; }

    public int? Line { get; init; }

    public int? Character { get; init; }
}

/// <summary>Params of <c>sharpclaw/symbolResolve</c>.</summary>
public sealed record SymbolResolveParams : SymbolSelectorParams;

/// <summary>Params of <c>sharpclaw/findReferences</c>.</summary>
public sealed record FindReferencesParams : SymbolSelectorParams
{
    /// <summary>Skip this many references.</summary>
    [PageOffset]
    public int? Offset { get; init; }

    /// <summary>At most this many references.</summary>
    [PageLimit]
    public int? Limit { get; init; }

    /// <summary>Include the trimmed source line of each location.</summary>
    public bool? Context { get; init; }
}

/// <summary>Params of <c>sharpclaw/typeHierarchy</c>.</summary>
public sealed record TypeHierarchyParams : SymbolSelectorParams
{
    /// <summary>At most this many items per collection.</summary>
    [PageLimit]
    public int? Limit { get; init; }
}

/// <summary>A source position: workspace-relative path (forward slashes; the absolute <c>file://</c> URI for a generated document or a file outside the workspace), one-based line and UTF-16 character.</summary>
public sealed record SourceLocation(string Path, int Line, int Character)
{
    /// <summary>True for a source-generated document (its path is the URI of Roslyn's virtual path, not a file on disk); otherwise absent.</summary>
    public bool? Generated { get; init; }
}

/// <summary>A symbol as the read tools report it.</summary>
/// <param name="Name">Display name usable as <c>name</c> unchanged, e.g. <c>ReadTools.Core.Calculator.Add(int, int)</c>.</param>
/// <param name="Kind">class, record, struct, interface, enum, delegate, method, constructor, property, field, event, namespace, operator, other.</param>
/// <param name="Container">Display name of the containing type or namespace, or null.</param>
/// <param name="Locations">Source declarations (partial types have several), in file and position order; empty for metadata symbols.</param>
public sealed record ResolvedSymbol(string Name, string Kind, string? Container, IReadOnlyList<SourceLocation> Locations);

/// <summary>
/// Which flavours (target framework compilations) of a multi-targeted declaring project an answer used; absent
/// when the project has one.
/// </summary>
/// <param name="Frameworks">Every framework the declaring project compiles for in this context, in order.</param>
/// <param name="Searched">True when the answer searched every flavour and merged the results; false when one flavour (the result's <c>targetFramework</c>) answered.</param>
/// <param name="Dependents">Projects that depend on the declaring project, directly or transitively.</param>
/// <param name="CompileAgainst">How many of them compile against the answering flavour (the default flavour is the one most compile against).</param>
public sealed record FlavourNote(IReadOnlyList<string> Frameworks, bool Searched, int Dependents, int CompileAgainst);

/// <summary>Result of <c>sharpclaw/symbolResolve</c>.</summary>
/// <param name="Symbol">The symbol.</param>
/// <param name="Project">Workspace-relative path of the project that answered.</param>
/// <param name="TargetFramework">Framework of that project's compilation, or null when unknown.</param>
/// <param name="ExcludedAnalyzers">Excluded project/package analyzers and generators, or null when none.</param>
public sealed record SymbolResolveResult(
    ResolvedSymbol Symbol,
    string Project,
    string? TargetFramework,
    IReadOnlyList<ExcludedAnalyzers>? ExcludedAnalyzers)
{
    /// <summary>The workspace-relative file a file-name or suffix <c>path</c> resolved to; absent when the path was exact.</summary>
    public string? ResolvedFile { get; init; }

    /// <summary>The flavours of a multi-targeted declaring project this answer used; absent for a project with one.</summary>
    public FlavourNote? Flavours { get; init; }
}


/// <summary>
/// An excluded source generator that could add to a list answer (implementations, subtypes, references,
/// callers): it runs in projects that can see the symbol, and SharpClaw does not run it, so what it generates
/// there is missing from the list.
/// </summary>
/// <param name="Generator">The generator assembly's name (Markers.Gen).</param>
/// <param name="Origin">"project generator", "package generator Id/version" or "generator".</param>
/// <param name="ProjectCount">How many projects that can see the symbol run it.</param>
/// <param name="Projects">
/// The first of them, workspace-relative (at most <see cref="MaxProjects"/>): by path, or with <see cref="Declares"/>
/// the projects with the most uses that bind to nothing first.
/// </param>
public sealed record GeneratorGap(string Generator, string Origin, int ProjectCount, IReadOnlyList<string> Projects)
{
    /// <summary>
    /// Enough to name every project of most solutions, so each answer names where its list differs from the
    /// generators' truth (3 hid the test project that held most of MemoryPack's implementations); a path is about
    /// 60 bytes, so a gap line stays under 1 KB of the 8 KB answer.
    /// </summary>
    public const int MaxProjects = 12;

    /// <summary>
    /// The type the generator may declare itself (<c>IServiceProvider&lt;T&gt;</c>, post-initialization output): in
    /// <see cref="Projects"/> base types, attributes or typeof operands name it and bind to nothing, so what implements or uses it there
    /// cannot be listed at all; null for a generator that could only add to the list.
    /// </summary>
    public string? Declares { get; init; }

    /// <summary>With <see cref="Declares"/>: how many base types, attributes and typeof operands in those projects name it and bind to nothing.</summary>
    public int? UnresolvedUses { get; init; }
}

/// <summary>One reference.</summary>
/// <param name="Path">Workspace-relative path.</param>
/// <param name="Line">One-based line.</param>
/// <param name="Character">One-based UTF-16 character.</param>
/// <param name="Context">The trimmed source line when requested, else null.</param>
public sealed record SymbolReference(string Path, int Line, int Character, string? Context);

/// <summary>Result of <c>sharpclaw/findReferences</c>.</summary>
/// <param name="Symbol">The resolved symbol.</param>
/// <param name="Project">Project that answered.</param>
/// <param name="TargetFramework">Its framework.</param>
/// <param name="References">This page, ordered by path (ordinal), line, character.</param>
/// <param name="Total">All references (source-generated ones excluded).</param>
/// <param name="Offset">The offset applied.</param>
/// <param name="Limit">The limit applied.</param>
/// <param name="Truncated">True when references after this page exist.</param>
/// <param name="NextOffset">Offset of the next page when truncated, else null.</param>
/// <param name="OmittedGenerated">References in source-generated code, left out.</param>
/// <param name="ExcludedAnalyzers">As in <see cref="SymbolResolveResult"/>.</param>
public sealed record FindReferencesResult(
    ResolvedSymbol Symbol,
    string Project,
    string? TargetFramework,
    IReadOnlyList<SymbolReference> References,
    int Total,
    int Offset,
    int Limit,
    bool Truncated,
    int? NextOffset,
    int OmittedGenerated,
    IReadOnlyList<ExcludedAnalyzers>? ExcludedAnalyzers)
{
    /// <summary>The workspace-relative file a file-name or suffix <c>path</c> resolved to; absent when the path was exact.</summary>
    public string? ResolvedFile { get; init; }

    /// <summary>The flavours of a multi-targeted declaring project this answer used; absent for a project with one.</summary>
    public FlavourNote? Flavours { get; init; }

    /// <summary>Excluded generators whose code could also reference the symbol; absent when none could.</summary>
    public IReadOnlyList<GeneratorGap>? GeneratorGaps { get; init; }
}


/// <summary>One bounded relationship collection.</summary>
/// <param name="Items">Up to <c>limit</c> symbols, in file and position order (metadata symbols last, by name).</param>
/// <param name="Total">How many there are.</param>
/// <param name="Truncated">True when <see cref="Total"/> exceeds the items.</param>
public sealed record SymbolCollection(IReadOnlyList<ResolvedSymbol> Items, int Total, bool Truncated);

/// <summary>Result of <c>sharpclaw/typeHierarchy</c>.</summary>
/// <param name="Symbol">The type.</param>
/// <param name="Project">Project that answered.</param>
/// <param name="TargetFramework">Its framework.</param>
/// <param name="BaseTypes">Base classes, nearest first (System.Object included).</param>
/// <param name="Interfaces">All implemented (or, for an interface, inherited) interfaces.</param>
/// <param name="DerivedTypes">Classes deriving from it (transitively), or interfaces deriving from an interface.</param>
/// <param name="Implementations">Types implementing the interface (transitively), empty for classes.</param>
/// <param name="Limit">The limit applied to every collection.</param>
/// <param name="ExcludedAnalyzers">As in <see cref="SymbolResolveResult"/>.</param>
public sealed record TypeHierarchyResult(
    ResolvedSymbol Symbol,
    string Project,
    string? TargetFramework,
    SymbolCollection BaseTypes,
    SymbolCollection Interfaces,
    SymbolCollection DerivedTypes,
    SymbolCollection Implementations,
    int Limit,
    IReadOnlyList<ExcludedAnalyzers>? ExcludedAnalyzers)
{
    /// <summary>The workspace-relative file a file-name or suffix <c>path</c> resolved to; absent when the path was exact.</summary>
    public string? ResolvedFile { get; init; }

    /// <summary>The flavours of a multi-targeted declaring project this answer used; absent for a project with one.</summary>
    public FlavourNote? Flavours { get; init; }

    /// <summary>Excluded generators whose code could also derive from or implement the type; absent when none could.</summary>
    public IReadOnlyList<GeneratorGap>? GeneratorGaps { get; init; }
}

