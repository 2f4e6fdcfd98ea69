namespace SharpClaw.Protocol.Semantic;

/// <summary>One changed member of <c>sharpclaw/reachedTests</c>: a symbol name, or file + line + character (as navigate takes them).</summary>
public sealed record ReachedTestsSymbol
{
    public string? Name { get; init; }

    public string? Path { get; init; }

    public int? Line { get; init; }

    public int? Character { get; init; }
}

/// <summary>
/// Params of <c>sharpclaw/reachedTests</c>, the verifier's request: the union of the tests that reach any of the
/// symbols (navigate's tests walk, one walk over all of them).
/// </summary>
public sealed record ReachedTestsParams : WorkspaceRequestParams
{
    /// <summary>The changed members.</summary>
    [Bounds(1, 1000)]
    public IReadOnlyList<ReachedTestsSymbol>? Symbols { get; init; }

    /// <summary>Changed C# files: the host compares each with its text in the workspace and walks from the members whose bodies changed.</summary>
    [Bounds(1, 1000)]
    public IReadOnlyList<ReachedTestsChange>? Changes { get; init; }
}

/// <summary>One changed C# file of <c>sharpclaw/reachedTests</c>: its workspace-relative path and its text before the change (null: the file is new).</summary>
public sealed record ReachedTestsChange
{
    public string? Path { get; init; }

    public string? Before { get; init; }
}

/// <summary>A reached test.</summary>
/// <param name="Name">Namespace.Class.Method, as navigate's tests lines name it.</param>
/// <param name="FullyQualifiedName">The name runners filter on: nested classes joined with <c>+</c> (VSTest's FullyQualifiedName), a generic class with its arity (<c>Fixture`1</c>), no parameters.</param>
/// <param name="ClassName">Namespace.Class (with <c>+</c> for nested classes, <c>`N</c> for generic ones) of each class the test runs in: its own, or the concrete classes deriving from an abstract one.</param>
/// <param name="Project">Workspace-relative path of its project.</param>
/// <param name="Path">Workspace-relative file of its declaration.</param>
/// <param name="Line">One-based line.</param>
public sealed record ReachedTest(string Name, string FullyQualifiedName, IReadOnlyList<string> ClassName, string Project, string Path, int Line);

/// <summary>A symbol of the request that could not be resolved (the verifier must then run every test).</summary>
/// <param name="Index">Its zero-based position in the request.</param>
/// <param name="Code">The error kind (ambiguous_symbol, symbol_not_found, ...).</param>
/// <param name="Message">What happened.</param>
public sealed record ReachedTestsFailure(int Index, SemanticErrorKind Code, string Message);

/// <summary>Result of <c>sharpclaw/reachedTests</c>.</summary>
/// <param name="Tests">Every reached test once, ordered by project, file and line (not paged: the verifier needs all).</param>
/// <param name="Unfollowable">Where the walk met code it cannot follow, or null: tests reaching a symbol only through it are missing.</param>
/// <param name="LimitReached">True when the walk stopped at its member limit: tests may be missing.</param>
/// <param name="GeneratorGaps">Excluded generators whose code could call the symbols, or null.</param>
/// <param name="Failures">The symbols that did not resolve; empty when all did.</param>
/// <param name="Visited">How many members the walk visited.</param>
/// <param name="ChangedMembers">How many members the changes named (the walk's starts from <c>changes</c>).</param>
/// <param name="Fallbacks">Why the changes cannot be reduced to changed member bodies (every test must run); empty when they can.</param>
/// <param name="ProjectTests">How many tests each test project has, counted like <paramref name="Tests"/>' runner names (empty when nothing was walked).</param>
public sealed record ReachedTestsResult(IReadOnlyList<ReachedTest> Tests, UnfollowableNote? Unfollowable, bool LimitReached, IReadOnlyList<GeneratorGap>? GeneratorGaps, IReadOnlyList<ReachedTestsFailure> Failures, int Visited, int ChangedMembers, IReadOnlyList<string> Fallbacks, IReadOnlyList<ProjectTestCount> ProjectTests);

/// <summary>How many tests a test project has: one per test method and concrete class that runs it.</summary>
/// <param name="Project">Workspace-relative path of the project.</param>
/// <param name="Tests">Its test count.</param>
public sealed record ProjectTestCount(string Project, int Tests);
