using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>The read-tool test classes share one <see cref="ReadToolsFixture"/>.</summary>
[CollectionDefinition(Name)]
public sealed class ReadToolsCollection : ICollectionFixture<ReadToolsFixture>
{
    public const string Name = "ReadTools";
}

/// <summary>One restored copy of fixtures/ReadTools and one host, shared by the read-tool tests.</summary>
public sealed class ReadToolsFixture : IAsyncLifetime
{
    private FixtureWorkspace? fixture;
    private SemanticHost? host;

    internal FixtureWorkspace Workspace => this.fixture!;

    internal SemanticHost Host => this.host!;

    public async Task InitializeAsync()
    {
        this.fixture = FixtureWorkspace.Restored("ReadTools", "ReadTools.slnx");
        this.host = await SemanticHost.StartAsync();
    }

    public async Task DisposeAsync()
    {
        if (this.host is not null)
        {
            await this.host.DisposeAsync();
        }

        this.fixture?.Dispose();
    }

    /// <summary>
    /// One-based (line, UTF-16 character) of the <c>$$</c> caret in <paramref name="marked"/>, found in the
    /// fixture file (the marked text with the caret removed must occur exactly once).
    /// </summary>
    internal SourceLocation At(string relative, string marked)
    {
        int caret = marked.IndexOf("$$", StringComparison.Ordinal);
        Assert.True(caret >= 0, "marker needs $$");
        string needle = marked.Remove(caret, 2);
        string text = this.Workspace.Read(relative).ReplaceLineEndings("\n");
        int index = text.IndexOf(needle, StringComparison.Ordinal);
        Assert.True(index >= 0, $"'{needle}' not in {relative}");
        Assert.True(text.IndexOf(needle, index + 1, StringComparison.Ordinal) < 0, $"'{needle}' occurs twice in {relative}");
        int position = index + caret;
        int lineStart = text.LastIndexOf('\n', Math.Max(0, position - 1)) + 1;
        if (position == 0)
        {
            lineStart = 0;
        }

        int line = text[..lineStart].Count(c => c == '\n') + 1;
        return new SourceLocation(relative, line, position - lineStart + 1);
    }

    internal Task<SymbolResolveResult> ResolveAsync(SymbolResolveParams parameters) =>
        Poll.WithTimeout(
            this.Host.Host.Client.InvokeWithParameterObjectAsync<SymbolResolveResult>(ProtocolMethods.SymbolResolve, parameters with { Workspace = this.Workspace.Root, Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.SymbolResolve);

    internal Task<SymbolResolveResult> ResolveAsync(string name) => this.ResolveAsync(new SymbolResolveParams { Name = name });

    internal Task<FindReferencesResult> ReferencesAsync(FindReferencesParams parameters) =>
        Poll.WithTimeout(
            this.Host.Host.Client.InvokeWithParameterObjectAsync<FindReferencesResult>(ProtocolMethods.FindReferences, parameters with { Workspace = this.Workspace.Root, Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.FindReferences);

    internal Task<DiagnosticsResult> DiagnosticsAsync(DiagnosticsParams parameters) =>
        Poll.WithTimeout(
            this.Host.Host.Client.InvokeWithParameterObjectAsync<DiagnosticsResult>(ProtocolMethods.Diagnostics, parameters with { Workspace = this.Workspace.Root, Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.Diagnostics);

    internal Task<NavigateResult> NavigateAsync(NavigateParams parameters) =>
        Poll.WithTimeout(
            this.Host.Host.Client.InvokeWithParameterObjectAsync<NavigateResult>(ProtocolMethods.Navigate, parameters with { Workspace = this.Workspace.Root, Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.Navigate);

    internal Task<NavigateResult> NavigateAsync(string action, string name) => this.NavigateAsync(new NavigateParams { Action = action, Name = name });

    internal Task<BulkNavigateResult> BulkNavigateAsync(BulkNavigateParams parameters) =>
        Poll.WithTimeout(
            this.Host.Host.Client.InvokeWithParameterObjectAsync<BulkNavigateResult>(ProtocolMethods.BulkNavigate, parameters with { Workspace = this.Workspace.Root, Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.BulkNavigate);

    internal Task<SymbolsResult> SymbolsAsync(SymbolsParams parameters) =>
        Poll.WithTimeout(
            this.Host.Host.Client.InvokeWithParameterObjectAsync<SymbolsResult>(ProtocolMethods.Symbols, parameters with { Workspace = this.Workspace.Root, Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.Symbols);

    internal Task<TypeHierarchyResult> HierarchyAsync(TypeHierarchyParams parameters) =>
        Poll.WithTimeout(
            this.Host.Host.Client.InvokeWithParameterObjectAsync<TypeHierarchyResult>(ProtocolMethods.TypeHierarchy, parameters with { Workspace = this.Workspace.Root, Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.TypeHierarchy);
}

/// <summary>sharpclaw/symbolResolve, sharpclaw/findReferences, sharpclaw/typeHierarchy on fixtures/ReadTools.</summary>
[Collection(ReadToolsCollection.Name)]
public sealed class ReadToolsTests(ReadToolsFixture fx)
{
    private const string Calculator = "Core/Calculator.cs";
    private const string Counter = "App/Counter.cs";

    [Fact]
    public async Task Resolve_QualifiedName_Overload_AnswersWithProjectFrameworkAndDeclaration()
    {
        SymbolResolveResult add = await fx.ResolveAsync("Calculator.Add(int, int)");

        Assert.Equal("ReadTools.Core.Calculator.Add(int, int)", add.Symbol.Name);
        Assert.Equal(("method", "ReadTools.Core.Calculator"), (add.Symbol.Kind, add.Symbol.Container));
        Assert.Equal(("Core/Core.csproj", "net10.0"), (add.Project, add.TargetFramework));
        Assert.Equal([fx.At(Calculator, "public int $$Add(int a")], add.Symbol.Locations);
        Assert.Null(add.ExcludedAnalyzers);

        // The display name goes back unchanged; the signature selector picks the other overload.
        SymbolResolveResult again = await fx.ResolveAsync(add.Symbol.Name);
        Assert.Equal(add.Symbol.Name, again.Symbol.Name);
        Assert.Equal(add.Symbol.Locations, again.Symbol.Locations);
        SymbolResolveResult viaSignature = await fx.ResolveAsync(new SymbolResolveParams { Name = "Add", Container = "Calculator", Signature = "(double, double)" });
        Assert.Equal("ReadTools.Core.Calculator.Add(double, double)", viaSignature.Symbol.Name);

        // A parameter type also matches its nullable form.
        Assert.Equal("ReadTools.Core.Calculator.Describe(string?)", (await fx.ResolveAsync("Describe(string)")).Symbol.Name);
    }

    [Fact]
    public async Task Resolve_OverloadsAreAmbiguous_EachCandidateResolvesUnchanged()
    {
        SemanticErrorData error = await SemanticErrors.ExpectAsync(SemanticErrorKind.AmbiguousSymbol, () => fx.ResolveAsync("Calculator.Add"));

        // The shortest names that resolve to one symbol each (parameter types without namespaces), each once.
        Assert.Equal(["Calculator.Add(double, double)", "Calculator.Add(int, int)"], error.Candidates);
        Assert.Equal("'Calculator.Add' matches 2 symbols. Ask again with one of these names, exactly as written.", error.Message);
        Assert.Equal(error.Candidates, error.Symbols!.Select(s => s.Name));
        Assert.All(error.Symbols!, s => Assert.Equal(("method", Calculator, false), (s.Kind, s.Path, s.NeedsPath)));
        // The line every surface prints (the host's one definition of it): name, kind and declaration.
        Assert.All(error.Symbols!, s => Assert.Equal($"{s.Name} (method, {Calculator}:{s.Line}:{s.Character})", s.Text));
        foreach (SymbolCandidate candidate in error.Symbols!)
        {
            Assert.Equal("ReadTools.Core." + candidate.Name, (await fx.ResolveAsync(candidate.Name)).Symbol.Name);
        }
    }

    [Fact]
    public async Task Resolve_GenericTwin_Constructors_PartialTypes_SameFileName_Position()
    {
        SemanticErrorData twin = await SemanticErrors.ExpectAsync(SemanticErrorKind.AmbiguousSymbol, () => fx.ResolveAsync("Box"));
        Assert.Equal(["ReadTools.Core.Box", "Box<T>"], twin.Candidates); // "Box" alone also names Box<T>
        Assert.Equal("ReadTools.Core.Box", (await fx.ResolveAsync("ReadTools.Core.Box")).Symbol.Name);
        Assert.Equal("ReadTools.Core.Box<T>", (await fx.ResolveAsync("Box<T>")).Symbol.Name);
        Assert.Equal("ReadTools.Core.Box<T>", (await fx.ResolveAsync("Core.Box<TValue>")).Symbol.Name);

        SymbolResolveResult constructor = await fx.ResolveAsync("Box.Box(int)");
        Assert.Equal(("ReadTools.Core.Box.Box(int)", "constructor"), (constructor.Symbol.Name, constructor.Symbol.Kind));
        Assert.Equal([fx.At(Calculator, "public $$Box(int size)")], constructor.Symbol.Locations);

        // A primary constructor has no declaration of its own: its location is the type's.
        SymbolResolveResult primary = await fx.ResolveAsync("Point.Point(int, int)");
        Assert.Equal(("ReadTools.Core.Point.Point(int, int)", "constructor"), (primary.Symbol.Name, primary.Symbol.Kind));
        Assert.Equal(fx.At(Calculator, "class $$Point(").Line, Assert.Single(primary.Symbol.Locations).Line);

        SymbolResolveResult circle = await fx.ResolveAsync("Circle");
        Assert.Equal(
            [fx.At("Core/Parts/Shapes.Part1.cs", "partial class $$Circle"), fx.At("Core/Parts/Shapes.Part2.cs", "partial class $$Circle")],
            circle.Symbol.Locations);

        SemanticErrorData helpers = await SemanticErrors.ExpectAsync(SemanticErrorKind.AmbiguousSymbol, () => fx.ResolveAsync("Helpers.Twice"));
        Assert.Equal(["Core/A/Helpers.cs", "Core/B/Helpers.cs"], helpers.Symbols!.Select(s => s.Path));
        // Two types of one name in two namespaces: each candidate takes the namespace segment that tells it apart.
        Assert.Equal([("A.Helpers.Twice(int)", false), ("B.Helpers.Twice(int)", false)], helpers.Symbols!.Select(s => (s.Name, s.NeedsPath)));
        Assert.Equal("ReadTools.Core.A.Helpers.Twice(int)", (await fx.ResolveAsync("A.Helpers.Twice(int)")).Symbol.Name);
        SymbolResolveResult inB = await fx.ResolveAsync(new SymbolResolveParams { Name = "Helpers.Twice", Path = "B/Helpers.cs" });
        Assert.Equal("ReadTools.Core.B.Helpers.Twice(int)", inB.Symbol.Name);

        // Same display name in two projects: each candidate says it needs its path, and the path selects it.
        SemanticErrorData shared = await SemanticErrors.ExpectAsync(SemanticErrorKind.AmbiguousSymbol, () => fx.ResolveAsync("Settings"));
        Assert.Equal("'Settings' matches 2 symbols. Ask again with one of these names, exactly as written (where two share a name, with the file listed beside it).", shared.Message);
        Assert.Equal(
            [("Settings", "App/Settings.cs", true), ("Settings", "Core/Settings.cs", true)],
            shared.Symbols!.Select(s => (s.Name, s.Path, s.NeedsPath)).OrderBy(s => s.Path, StringComparer.Ordinal));
        SymbolResolveResult inCore = await fx.ResolveAsync(new SymbolResolveParams { Name = "ReadTools.Shared.Settings", Path = "Core/Settings.cs" });
        Assert.Equal(("Core/Core.csproj", "Core/Settings.cs"), (inCore.Project, Assert.Single(inCore.Symbol.Locations).Path));
        SymbolResolveResult inApp = await fx.ResolveAsync(new SymbolResolveParams { Name = "Settings", Project = "App" });
        Assert.Equal(("App/App.csproj", "App/Settings.cs"), (inApp.Project, Assert.Single(inApp.Symbol.Locations).Path));
        await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => fx.ResolveAsync(new SymbolResolveParams { Name = "Settings", Project = "Nope" }));

        SourceLocation use = fx.At(Counter, "calculator.$$Add(seen, 1)");
        SymbolResolveResult atPosition = await fx.ResolveAsync(new SymbolResolveParams { Path = Counter, Line = use.Line, Character = use.Character });
        Assert.Equal("ReadTools.Core.Calculator.Add(int, int)", atPosition.Symbol.Name);
        Assert.Equal("Core/Core.csproj", atPosition.Project);

        // A framework (metadata) symbol at a position: no source locations, the position's project answers.
        SourceLocation volatileRead = fx.At(Counter, "Volatile.$$Read(ref hits)");
        SymbolResolveResult metadata = await fx.ResolveAsync(new SymbolResolveParams { Path = Counter, Line = volatileRead.Line, Character = volatileRead.Character });
        Assert.Equal(("method", "App/App.csproj"), (metadata.Symbol.Kind, metadata.Project));
        Assert.StartsWith("System.Threading.Volatile.Read", metadata.Symbol.Name, StringComparison.Ordinal);
        Assert.Empty(metadata.Symbol.Locations);

        SymbolResolveResult kind = await fx.ResolveAsync(new SymbolResolveParams { Name = "Box", Kind = "class", Path = Calculator, Line = fx.At(Calculator, "class $$Box<T>").Line });
        Assert.Equal("ReadTools.Core.Box<T>", kind.Symbol.Name);
    }

    [Fact]
    public async Task Resolve_NotFound_SuggestsSimilarNames_ContainerAndMemberMessages()
    {
        SemanticErrorData typo = await SemanticErrors.ExpectAsync(SemanticErrorKind.SymbolNotFound, () => fx.ResolveAsync("Calculater"));
        Assert.Contains("Calculator", typo.Candidates!);
        Assert.True(typo.Candidates!.Count <= 10);

        SemanticErrorData container = await SemanticErrors.ExpectAsync(
            SemanticErrorKind.SymbolNotFound, () => fx.ResolveAsync(new SymbolResolveParams { Name = "Add", Container = "Calculater" }));
        Assert.Contains("no type matches the container", container.Message, StringComparison.OrdinalIgnoreCase);
        Assert.Equal(["Calculator"], container.Candidates);

        SemanticErrorData member = await SemanticErrors.ExpectAsync(
            SemanticErrorKind.SymbolNotFound, () => fx.ResolveAsync(new SymbolResolveParams { Name = "Ad", Container = "Calculator" }));
        Assert.Contains("has no member", member.Message, StringComparison.Ordinal);
        Assert.Equal(["Calculator.Add(double, double)", "Calculator.Add(int, int)"], member.Candidates);

        SemanticErrorData none = await SemanticErrors.ExpectAsync(
            SemanticErrorKind.SymbolNotFound, () => fx.ResolveAsync(new SymbolResolveParams { Name = "Zzyzx", Container = "Calculator" }));
        Assert.Contains("members action", none.Message, StringComparison.Ordinal);
        Assert.Empty(none.Candidates!);
    }

    [Fact]
    public async Task References_CrossProject_FixedOrder_Paging_Context()
    {
        FindReferencesResult all = await fx.ReferencesAsync(new FindReferencesParams { Name = "Calculator.Add(int, int)", Context = true });

        Assert.Equal(
            [
                fx.At(Counter, "calculator.Total = calculator.$$Add(seen, 1)"),
                fx.At(Counter, "return calculator.$$Add(hits"),
                fx.At(Calculator, "this.$$Add(first, second)"),
            ],
            all.References.Select(r => new SourceLocation(r.Path, r.Line, r.Character)));
        Assert.Equal((3, false, (int?)null, 0), (all.Total, all.Truncated, all.NextOffset, all.OmittedGenerated));
        Assert.Equal("calculator.Total = calculator.Add(seen, 1);", all.References[0].Context);

        FindReferencesResult first = await fx.ReferencesAsync(new FindReferencesParams { Name = "Calculator.Add(int, int)", Limit = 2 });
        FindReferencesResult second = await fx.ReferencesAsync(new FindReferencesParams { Name = "Calculator.Add(int, int)", Limit = 2, Offset = 2 });
        Assert.Equal((3, true, (int?)2), (first.Total, first.Truncated, first.NextOffset));
        Assert.Null(first.References[0].Context);
        Assert.Equal((3, false), (second.Total, second.Truncated));
        Assert.Equal(all.References.Select(r => r with { Context = null }), [.. first.References, .. second.References]);

        await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => fx.ReferencesAsync(new FindReferencesParams { Name = "Calculator", Offset = -1 }));
        await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => fx.ReferencesAsync(new FindReferencesParams { Name = "Calculator", Limit = 201 }));

        // ref/out/Volatile/Interlocked uses are references like any other.
        FindReferencesResult hits = await fx.ReferencesAsync(new FindReferencesParams { Name = "Counter.hits" });
        Assert.Equal(5, hits.Total);
        Assert.Equal(("field", "App/App.csproj"), (hits.Symbol.Kind, hits.Project));
    }

    [Fact]
    public async Task References_SourceGeneratedOccurrences_AreOmittedAndCounted()
    {
        FindReferencesResult order = await fx.ReferencesAsync(new FindReferencesParams { Name = "Core.Order" });

        Assert.True(order.OmittedGenerated > 0, "the System.Text.Json generator refers to Order");
        Assert.All(order.References, r => Assert.Equal("Core/Json.cs", r.Path));

        // The generated member itself resolves (SDK generators are kept).
        SymbolResolveResult generated = await fx.ResolveAsync("OrderJsonContext.Order");
        Assert.Equal("property", generated.Symbol.Kind);
        SourceLocation inGenerated = Assert.Single(generated.Symbol.Locations);
        Assert.StartsWith(new Uri(Path.Combine(fx.Workspace.Root, "Core", "obj")).AbsoluteUri + "/", inGenerated.Path, StringComparison.Ordinal);
        Assert.True(inGenerated.Generated);
        Assert.Null(Assert.Single((await fx.ResolveAsync("Core.Order")).Symbol.Locations).Generated);
    }

    [Fact]
    public async Task Hierarchy_InterfaceAcrossProjects_BaseTypes_Derived_Truncation()
    {
        TypeHierarchyResult shape = await fx.HierarchyAsync(new TypeHierarchyParams { Name = "IShape" });
        Assert.Equal("interface", shape.Symbol.Kind);
        Assert.Equal(["ReadTools.App.Square", "ReadTools.App.Tile", "ReadTools.Core.Circle"], shape.Implementations.Items.Select(i => i.Name));
        Assert.Equal((3, false), (shape.Implementations.Total, shape.Implementations.Truncated));
        Assert.Empty(shape.BaseTypes.Items);

        TypeHierarchyResult limited = await fx.HierarchyAsync(new TypeHierarchyParams { Name = "IShape", Limit = 1 });
        Assert.Equal((1, 3, true), (limited.Implementations.Items.Count, limited.Implementations.Total, limited.Implementations.Truncated));

        TypeHierarchyResult square = await fx.HierarchyAsync(new TypeHierarchyParams { Name = "Square" });
        Assert.Equal(("App/App.csproj", "net10.0"), (square.Project, square.TargetFramework));
        Assert.Equal(["object"], square.BaseTypes.Items.Select(i => i.Name));
        Assert.Equal(["ReadTools.Core.IShape"], square.Interfaces.Items.Select(i => i.Name));
        Assert.Equal(["ReadTools.App.Tile"], square.DerivedTypes.Items.Select(i => i.Name));
        Assert.Empty(square.Implementations.Items);

        await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => fx.HierarchyAsync(new TypeHierarchyParams { Name = "Calculator.Total" }));
    }

    [Fact]
    public async Task Diagnostics_NewFile_JoinsItsProject_ANewLooseFileIsIncompleteAfterItsGrace()
    {
        // A file created in a project folder joins that project (the cache sees the new compile item).
        fx.Workspace.Write("Core/Fresh.cs", "namespace ReadTools.Core;\n\npublic class Fresh { public void M() { int unused; } }\n");
        try
        {
            DiagnosticsResult joined = await fx.DiagnosticsAsync(new DiagnosticsParams { Path = "Core/Fresh.cs" });
            Assert.Empty(joined.Incomplete);
            Assert.Equal((1, "CS0168"), (joined.FilesChecked, Assert.Single(joined.Diagnostics!).Id));
        }
        finally
        {
            File.Delete(fx.Workspace.Path("Core/Fresh.cs"));
        }

        await fx.DiagnosticsAsync(new DiagnosticsParams { Path = "Scratch/Loose.cs" }); // reloads without Fresh.cs, so the timing below is the grace alone

        // A file outside every project is reported as incomplete only after its few seconds of grace.
        fx.Workspace.Write("Scratch/JustCreated.cs", "class JustCreated { }\n");
        try
        {
            System.Diagnostics.Stopwatch elapsed = System.Diagnostics.Stopwatch.StartNew();
            DiagnosticsResult loose = await fx.DiagnosticsAsync(new DiagnosticsParams { Path = "Scratch/JustCreated.cs" });
            Assert.Equal(["Scratch/JustCreated.cs"], loose.Incomplete);
            Assert.True(elapsed.Elapsed >= TimeSpan.FromSeconds(1), $"answered after {elapsed.Elapsed}, before the new file's grace ran out");
        }
        finally
        {
            File.Delete(fx.Workspace.Path("Scratch/JustCreated.cs"));
        }
    }

    [Fact]
    public async Task Diagnostics_DefaultSeverity_SortedWithTotals_IncompleteFiles()
    {
        DiagnosticsResult result = await fx.DiagnosticsAsync(new DiagnosticsParams());

        Assert.Equal(
            [
                ("CS0103", "error", fx.At("App/Broken.cs", "=> $$UndefinedThing")),
                ("CS0168", "warning", fx.At("App/Warn.cs", "int $$unused")),
            ],
            result.Diagnostics!.Select(d => (d.Id, d.Severity, new SourceLocation(d.Path, d.Line, d.Character))));
        Assert.All(result.Diagnostics!, d => Assert.Equal("App/App.csproj", d.Project));
        Assert.Equal(("warning", false, 2, 2, false), (result.Severity, result.FilteredByIds, result.Total, result.FilesWithDiagnostics, result.Truncated));
        Assert.True(result.FilesChecked >= 10, $"{result.FilesChecked} files checked");
        Assert.Equal(["Scratch/Loose.cs"], result.Incomplete);
        Assert.Equal([new AnsweringProject("App/App.csproj", "net10.0"), new AnsweringProject("Core/Core.csproj", "net10.0")], result.Projects);
        Assert.Null(result.Summary);
        Assert.Null(result.ExcludedAnalyzers);

        DiagnosticsResult errors = await fx.DiagnosticsAsync(new DiagnosticsParams { Severity = "error" });
        Assert.Equal(["CS0103"], errors.Diagnostics!.Select(d => d.Id));
        Assert.True(errors.BelowSeverity >= 1);

        DiagnosticsResult paged = await fx.DiagnosticsAsync(new DiagnosticsParams { Limit = 1, Offset = 1 });
        Assert.Equal(["CS0168"], paged.Diagnostics!.Select(d => d.Id));
        Assert.Equal((2, false, (int?)null), (paged.Total, paged.Truncated, paged.NextOffset));
        DiagnosticsResult firstPage = await fx.DiagnosticsAsync(new DiagnosticsParams { Limit = 1 });
        Assert.Equal((true, (int?)1), (firstPage.Truncated, firstPage.NextOffset));

        await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => fx.DiagnosticsAsync(new DiagnosticsParams { Limit = 251 }));
        await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => fx.DiagnosticsAsync(new DiagnosticsParams { Severity = "fatal" }));
    }

    [Fact]
    public async Task Diagnostics_PathGlobSuffix_Ids_Summary()
    {
        DiagnosticsResult braces = await fx.DiagnosticsAsync(new DiagnosticsParams { Path = "App/{Broken,Warn}.cs" });
        Assert.Equal((2, 2), (braces.FilesChecked, braces.Total));
        Assert.Empty(braces.Incomplete);

        DiagnosticsResult suffix = await fx.DiagnosticsAsync(new DiagnosticsParams { Path = "Warn.cs" });
        Assert.Equal((1, "CS0168"), (suffix.FilesChecked, Assert.Single(suffix.Diagnostics!).Id));
        Assert.Equal([new AnsweringProject("App/App.csproj", "net10.0")], suffix.Projects);

        Assert.Equal("App/Warn.cs", suffix.ResolvedFile);
        SemanticErrorData twoFiles = await SemanticErrors.ExpectAsync(SemanticErrorKind.AmbiguousFile, () => fx.DiagnosticsAsync(new DiagnosticsParams { Path = "Helpers.cs" }));
        Assert.Equal(["Core/A/Helpers.cs", "Core/B/Helpers.cs"], twoFiles.Candidates);
        Assert.Null((await fx.DiagnosticsAsync(new DiagnosticsParams { Path = "App/Warn.cs" })).ResolvedFile);

        DiagnosticsResult outside = await fx.DiagnosticsAsync(new DiagnosticsParams { Path = "Scratch/Loose.cs" });
        Assert.Equal(0, outside.FilesChecked);
        Assert.Equal(["Scratch/Loose.cs"], outside.Incomplete);

        DiagnosticsResult ids = await fx.DiagnosticsAsync(new DiagnosticsParams { Ids = ["cs0168"], Severity = "error" });
        Assert.True(ids.FilteredByIds);
        Assert.Equal((0, 1), (ids.Total, ids.BelowSeverity)); // ids apply before severity

        DiagnosticsResult summary = await fx.DiagnosticsAsync(new DiagnosticsParams { Summary = true });
        Assert.Null(summary.Diagnostics);
        Assert.Equal(
            [("CS0103", 1, "error", "App/Broken.cs"), ("CS0168", 1, "warning", "App/Warn.cs")],
            summary.Summary!.Select(s => (s.Id, s.Count, s.Severity, s.Example.Path)));
        Assert.Equal(2, summary.Total);
    }
}
