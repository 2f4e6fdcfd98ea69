namespace SharpClaw.Protocol.Store;

/// <summary>
/// Params of <c>sharpclaw/symbolSearch</c>: declarations by name from the syntax-only index (no MSBuild, no
/// compilation, so never an authorization request). All members optional on the wire; a missing or bad one is
/// a typed InvalidRequest.
/// </summary>
public sealed record SymbolSearchParams
{
    /// <summary>The workspace folder, absolute. Required.</summary>
    public string? Workspace { get; init; }

    /// <summary>The calling tool's name (logs only: nothing here asks for authorization).</summary>
    public string? Tool { get; init; }

    /// <summary>The name to find: exact, prefix, camel humps (CoCa for CountCalls) or substring. Required.</summary>
    public string? Query { get; init; }

    /// <summary>Only declarations of this kind (class, interface, struct, record, enum, delegate, method, property, field, event, constructor, namespace, enum_member).</summary>
    public string? Kind { get; init; }

    /// <summary>Only declarations whose container (dotted, namespace included) ends with this (Calculator, Calc.Core.Calculator).</summary>
    public string? Container { get; init; }

    /// <summary>
    /// When the answer is due, in Unix milliseconds (an MCP call's load wait, counted from its arrival): a build of the
    /// index that would pass it stops after the chunk that does, the answer comes from the files indexed so far
    /// (<c>pendingFiles</c> says how many were not), and the build goes on in the background. Null: the answer waits
    /// for the whole build.
    /// </summary>
    public long? AnswerBy { get; init; }

    [PageOffset]
    public int? Offset { get; init; }

    [PageLimit]
    public int? Limit { get; init; }
}

/// <summary>One declaration from the syntax index; positions one-based, the path workspace-relative.</summary>
/// <param name="Name">The declared name (Add, Calculator, Box&lt;T&gt; as Box).</param>
/// <param name="Kind">class, method, property, ...</param>
/// <param name="Container">The dotted container (namespace and enclosing types), or null at the top.</param>
/// <param name="Signature">The declaration's header text (modifiers, type, name, parameters), one line.</param>
public sealed record SymbolSearchItem(string Name, string Kind, string? Container, string Signature, string Path, int Line, int Character, int EndLine, int EndCharacter)
{
    /// <summary>The <c>#if</c> condition the declaration is under (<c>NET</c>, <c>!NET</c>); absent when unconditional.</summary>
    public string? Condition { get; init; }
}

/// <summary>Result of <c>sharpclaw/symbolSearch</c>.</summary>
/// <param name="Items">This page, best match first (exact, prefix, camel humps, substring), then by path and position.</param>
/// <param name="IndexedFiles">How many C# files the index holds as they are now.</param>
/// <param name="ReindexedFiles">How many of them this query re-parsed (new or changed since the last query).</param>
public sealed record SymbolSearchResult(
    string Query,
    IReadOnlyList<SymbolSearchItem> Items,
    int Total,
    int Offset,
    int Limit,
    bool Truncated,
    int? NextOffset,
    int IndexedFiles,
    int ReindexedFiles)
{
    /// <summary>New or changed C# files not indexed yet: the build passed the request's <c>answerBy</c> and goes on in the background. Absent when none.</summary>
    public int? PendingFiles { get; init; }
}

/// <summary>Params of <c>sharpclaw/workspaceSearch</c>: text or a regular expression over the workspace's C# files.</summary>
public sealed record WorkspaceSearchParams
{
    /// <summary>The workspace folder, absolute. Required.</summary>
    public string? Workspace { get; init; }

    /// <summary>The calling tool's name (logs only: nothing here asks for authorization).</summary>
    public string? Tool { get; init; }

    /// <summary>The text (or, with <see cref="Regex"/>, the .NET regular expression) to find on one line. Required.</summary>
    public string? Query { get; init; }

    /// <summary>True: <see cref="Query"/> is a regular expression.</summary>
    public bool? Regex { get; init; }

    /// <summary>True: letter case must match (default false).</summary>
    public bool? CaseSensitive { get; init; }

    /// <summary>Workspace-relative globs in the host's one dialect, as diagnostics' <c>path</c> reads them (src/**/*.cs, **/Tests/**, src/{A,B}.cs, [abc]); a file matches when any matches. Null: every indexed file.</summary>
    public IReadOnlyList<string>? Paths { get; init; }

    /// <summary>
    /// When the answer is due, in Unix milliseconds (an MCP call's load wait, counted from its arrival): a build of the
    /// index that would pass it stops after the chunk that does, the answer comes from the files indexed so far
    /// (<c>pendingFiles</c> says how many were not), and the build goes on in the background. Null: the answer waits
    /// for the whole build.
    /// </summary>
    public long? AnswerBy { get; init; }

    [PageOffset]
    public int? Offset { get; init; }

    [PageLimit]
    public int? Limit { get; init; }
}

/// <summary>One matching line: one-based line and character of the match's start, and the trimmed line text.</summary>
public sealed record WorkspaceSearchMatch(string Path, int Line, int Character, string Text);

/// <summary>Result of <c>sharpclaw/workspaceSearch</c>.</summary>
/// <param name="Matches">This page, by path then position.</param>
/// <param name="Files">How many files have a match.</param>
public sealed record WorkspaceSearchResult(
    string Query,
    IReadOnlyList<WorkspaceSearchMatch> Matches,
    int Total,
    int Offset,
    int Limit,
    bool Truncated,
    int? NextOffset,
    int Files,
    int IndexedFiles,
    int ReindexedFiles)
{
    /// <summary>New or changed C# files not indexed yet: the build passed the request's <c>answerBy</c> and goes on in the background. Absent when none.</summary>
    public int? PendingFiles { get; init; }

    /// <summary>
    /// With <c>paths</c> and no match: how many of the indexed C# files the globs let through, the files searched (0: the
    /// globs match no file). Absent otherwise.
    /// </summary>
    public int? PathsMatchedFiles { get; init; }
}

/// <summary>Params of <c>sharpclaw/clearStore</c>: deletes the workspace's store (SharpClaw: Clear Cache).</summary>
public sealed record ClearStoreParams
{
    /// <summary>The workspace folder, absolute. Required.</summary>
    public string? Workspace { get; init; }
}

/// <summary>Result of <c>sharpclaw/clearStore</c>.</summary>
/// <param name="Path">The store file that was (or would have been) deleted.</param>
/// <param name="Deleted">True when a store existed and is gone; the next search rebuilds it.</param>
/// <param name="Bytes">Its size before, with its WAL file.</param>
public sealed record ClearStoreResult(string Path, bool Deleted, long Bytes);
