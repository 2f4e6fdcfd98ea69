using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Semantic.Navigation;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>sharpclaw/navigate, sharpclaw/bulkNavigate, sharpclaw/symbols and the shared file rule on fixtures/ReadTools.</summary>
[Collection(ReadToolsCollection.Name)]
public sealed class NavigateTests(ReadToolsFixture fx)
{
    private const string Calculator = "Core/Calculator.cs";
    private const string Counter = "App/Counter.cs";
    private const string Flow = "App/Flow.cs";

    private static SourceLocation At(NavigateLocation location) => new(location.Path, location.Line, location.Character);

    [Fact]
    public async Task Definition_TypeDefinition_Implementation_NameTheProjectThatAnswered()
    {
        NavigateResult definition = await fx.NavigateAsync("definition", "Calculator.Add(int, int)");
        Assert.Equal([fx.At(Calculator, "public int $$Add(int a")], definition.Locations!.Select(At));
        Assert.Equal(("definition", "ReadTools.Core.Calculator.Add(int, int)", "Core/Core.csproj", "net10.0"), (definition.Action, definition.Symbol.Name, definition.Project, definition.TargetFramework));
        Assert.Equal((1, false, (int?)null), (definition.Total, definition.Truncated, definition.NextOffset));
        Assert.Null(definition.ExcludedAnalyzers);
        Assert.Null(definition.ResolvedFile);

        SourceLocation parameter = fx.At(Counter, "Run(Calculator $$calculator)");
        NavigateResult typeDefinition = await fx.NavigateAsync(new NavigateParams { Action = "type_definition", Path = Counter, Line = parameter.Line, Character = parameter.Character });
        Assert.Equal([fx.At(Calculator, "public class $$Calculator")], typeDefinition.Locations!.Select(At));
        Assert.Equal("App/App.csproj", typeDefinition.Project);

        NavigateResult implementation = await fx.NavigateAsync("implementation", "IShape.Area");
        Assert.Equal(
            [fx.At("App/Square.cs", "public double $$Area()"), fx.At("Core/Parts/Shapes.Part2.cs", "public double $$Area()")],
            implementation.Locations!.Select(At));

        await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => fx.NavigateAsync("teleport", "Flow"));

        // A qualified unknown name says which part failed.
        SemanticErrorData member = await SemanticErrors.ExpectAsync(SemanticErrorKind.SymbolNotFound, () => fx.NavigateAsync("definition", "Flow.Midle"));
        Assert.StartsWith("The type ReadTools.App.Flow has no member 'Midle'.", member.Message, StringComparison.Ordinal);
        Assert.Equal(["Flow.Middle()"], member.Candidates);

        // A framework type by name said "No type matches the container 'System'": System is a namespace of the references.
        SemanticErrorData framework = await SemanticErrors.ExpectAsync(SemanticErrorKind.SymbolNotFound, () => fx.NavigateAsync("implementation", "System.IDisposable"));
        Assert.StartsWith("System.IDisposable is declared outside the workspace's source (a framework or package type); names resolve to what the workspace declares. Ask at a position", framework.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task References_LeaveOutGenerated_PageInFixedOrder_Context()
    {
        NavigateResult order = await fx.NavigateAsync("references", "Core.Order");
        Assert.True(order.OmittedGenerated > 0, "the System.Text.Json generator refers to Order");
        Assert.All(order.Locations!, l => Assert.Equal("Core/Json.cs", l.Path));

        NavigateResult first = await fx.NavigateAsync("references", "Many.Ping");
        Assert.Equal((50, 100, true, (int?)50), (first.Locations!.Count, first.Total, first.Truncated, first.NextOffset));
        NavigateResult second = await fx.NavigateAsync(new NavigateParams { Action = "references", Name = "Many.Ping", Offset = 50, Limit = 200 });
        Assert.Equal((50, 100, false, (int?)null), (second.Locations!.Count, second.Total, second.Truncated, second.NextOffset));
        List<NavigateLocation> all = [.. first.Locations!, .. second.Locations!];
        Assert.Equal(all.OrderBy(l => l.Line), all);
        Assert.Equal(100, all.Distinct().Count());

        NavigateResult past = await fx.NavigateAsync(new NavigateParams { Action = "references", Name = "Many.Ping", Offset = 500 });
        Assert.Equal((0, 100, false), (past.Locations!.Count, past.Total, past.Truncated));
        await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => fx.NavigateAsync(new NavigateParams { Action = "references", Name = "Many.Ping", Offset = -1 }));
        await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => fx.NavigateAsync(new NavigateParams { Action = "references", Name = "Many.Ping", Limit = 201 }));

        NavigateResult context = await fx.NavigateAsync(new NavigateParams { Action = "references", Name = "Many.Ping", Limit = 1, Context = true });
        Assert.Equal("total += Ping();", Assert.Single(context.Locations!).Context);
    }

    [Fact]
    public async Task GeneratedLocations_KeepTheirAbsoluteUri_WorkspaceFilesStayRelative()
    {
        // OrderJsonContext is hand-written in Core/Json.cs and completed by the System.Text.Json generator.
        string generatedFolder = new Uri(Path.Combine(fx.Workspace.Root, "Core", "obj")).AbsoluteUri + "/";
        void IsGenerated(string path) => Assert.StartsWith(generatedFolder, path, StringComparison.Ordinal);

        SymbolResolveResult context = await fx.ResolveAsync("OrderJsonContext");
        SourceLocation handWritten = context.Symbol.Locations[0];
        Assert.Equal((fx.At("Core/Json.cs", "public sealed partial class $$OrderJsonContext"), (bool?)null), (handWritten with { Generated = null }, handWritten.Generated));
        Assert.True(context.Symbol.Locations.Count > 1, "the generator declares more parts of OrderJsonContext");
        Assert.All(context.Symbol.Locations.Skip(1), l => { IsGenerated(l.Path); Assert.True(l.Generated); });

        // definition of the partial type: the hand-written part relative, the generated parts absolute.
        NavigateResult definition = await fx.NavigateAsync("definition", "OrderJsonContext");
        Assert.Equal("Core/Json.cs", definition.Locations![0].Path);
        Assert.All(definition.Locations.Skip(1), l => IsGenerated(l.Path));
        Assert.Equal(context.Symbol.Locations.Select(l => l with { Generated = null }), definition.Locations.Select(At));

        // A member only the generator declares: definition, type_definition, source header, members.
        NavigateResult member = await fx.NavigateAsync("definition", "OrderJsonContext.Order");
        IsGenerated(Assert.Single(member.Locations!).Path);
        IsGenerated(Assert.Single(member.Symbol.Locations).Path);
        NavigateResult typeDefinition = await fx.NavigateAsync("type_definition", "OrderJsonContext.Default");
        IsGenerated(Assert.Single(typeDefinition.Symbol.Locations).Path);
        Assert.Equal(definition.Locations, typeDefinition.Locations);
        NavigateResult source = await fx.NavigateAsync("source", "OrderJsonContext.Order");
        IsGenerated(Assert.Single(source.Sources!).Path);
        Assert.Equal(["Core/Json.cs"], (await fx.NavigateAsync("source", "OrderJsonContext")).Sources!.Select(p => p.Path));
        NavigateResult members = await fx.NavigateAsync("members", "OrderJsonContext");
        Assert.Equal("Core/Json.cs", members.Symbol.Locations[0].Path);
        MemberItem order = Assert.Single(members.Members!, m => m.Name == "Order");
        IsGenerated(order.Path);
        Assert.All(members.Members!, m => IsGenerated(m.Path));
    }

    [Fact]
    public async Task ReadsAndWrites_FollowTheClassificationTable()
    {
        static int[] Lines(NavigateResult result) => [.. result.Locations!.Select(l => l.Line)];

        // 12 this.level; 20 End(this.level); 28 += 1; 29 ++; 30 Volatile.Write; 31 Interlocked.Exchange; 32 Volatile.Read; 35 Peek(ref); 36 nameof.
        NavigateResult reads = await fx.NavigateAsync("reads", "Flow.level");
        NavigateResult writes = await fx.NavigateAsync("writes", "Flow.level");
        Assert.Equal([12, 20, 31, 32, 35], Lines(reads));
        Assert.Equal([28, 29, 30, 31, 35], Lines(writes));
        Assert.Equal(fx.At(Flow, "this.$$level += 1").Character, writes.Locations![0].Character);

        // Interlocked.Read reads; Interlocked.Increment reads and writes.
        Assert.Equal(new[] { 33, 34 }, Lines(await fx.NavigateAsync("reads", "Flow.ticks")));
        Assert.Equal(new[] { 34 }, Lines(await fx.NavigateAsync("writes", "Flow.ticks")));

        // Counter: Interlocked.Increment(ref), Volatile.Read(ref), Bump(ref) (a method that only reads: still a write), Fill(out), Add(hits, ...).
        Assert.Equal(new[] { 12, 13, 14, 17 }, Lines(await fx.NavigateAsync("reads", "Counter.hits")));
        Assert.Equal(new[] { 12, 14, 15 }, Lines(await fx.NavigateAsync("writes", "Counter.hits")));

        // A property written through an object member and read elsewhere.
        Assert.Equal(new[] { fx.At(Counter, "calculator.$$Total = ").Line }, Lines(await fx.NavigateAsync("writes", "Calculator.Total")));

        SemanticErrorData method = await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => fx.NavigateAsync("reads", "Flow.End"));
        Assert.Contains("field, property, local, parameter or event", method.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task CallersAndCallees_WithCallSites_Constructors_EmptyAnswers()
    {
        NavigateResult callers = await fx.NavigateAsync(new NavigateParams { Action = "callers", Name = "Flow.End", Context = true });
        RelatedSymbol middle = Assert.Single(callers.Related!);
        Assert.Equal(("ReadTools.App.Flow.Middle()", "method", fx.At(Flow, "public int $$Middle()")), (middle.Name, middle.Kind, middle.Location));
        NavigateLocation site = Assert.Single(middle.CallSites!);
        Assert.Equal(fx.At(Flow, "this.$$End(this.level)"), At(site));
        Assert.Equal("int result = this.End(this.level);", site.Context);

        NavigateResult none = await fx.NavigateAsync("callers", "Flow.NeverCalled");
        Assert.Equal((0, 0), (none.Related!.Count, none.Total));

        NavigateResult callees = await fx.NavigateAsync("callees", "Flow.Middle");
        RelatedSymbol end = Assert.Single(callees.Related!);
        Assert.Equal("ReadTools.App.Flow.End(int)", end.Name);
        Assert.Equal([fx.At(Flow, "this.$$End(this.level)")], end.CallSites!.Select(At));
        Assert.Equal(2, callees.OmittedAccesses); // this.level, this.Level
        Assert.Equal(1, (await fx.NavigateAsync("callees", "Flow.Start")).OmittedAccesses); // Step

        NavigateResult run = await fx.NavigateAsync("callees", "Counter.Run");
        Assert.Equal(
            [
                ("ReadTools.App.Counter.Bump(ref int)", "method"),
                ("ReadTools.App.Counter.Fill(out int)", "method"),
                ("ReadTools.Core.Calculator.Add(int, int)", "method"),
                ("ReadTools.Core.Box.Box(int)", "constructor"),
                ("ReadTools.Core.Point", "constructor"),
            ],
            run.Related!.Where(r => r.Location is not null).Select(r => (r.Name, r.Kind)));
        Assert.Equal(fx.At(Calculator, "class $$Point(").Line, run.Related!.Single(r => r.Name == "ReadTools.Core.Point").Location!.Line);
        Assert.Equal(2, run.Related!.Single(r => r.Name == "ReadTools.Core.Calculator.Add(int, int)").CallSites!.Count);
        Assert.All(run.Related!.SkipWhile(r => r.Location is not null), r => Assert.Null(r.Location)); // metadata callees last
        Assert.Contains(run.Related!, r => r.Name.StartsWith("System.Threading.Interlocked.Increment", StringComparison.Ordinal));

        NavigateResult boxCallers = await fx.NavigateAsync("callers", "Box.Box(int)");
        Assert.Equal([("ReadTools.App.Counter.Run(ReadTools.Core.Calculator)", "method")], boxCallers.Related!.Select(r => (r.Name, r.Kind)));
        NavigateResult pointCallers = await fx.NavigateAsync("callers", "Point.Point(int, int)");
        Assert.Equal([fx.At(Counter, "new $$Point(1, 2)")], Assert.Single(pointCallers.Related!).CallSites!.Select(At));
    }

    [Fact]
    public async Task SupertypesAndSubtypes_OfTypesAndMembers()
    {
        NavigateResult supertypes = await fx.NavigateAsync("supertypes", "Square");
        Assert.Equal([("ReadTools.Core.IShape", "interface"), ("object", "class")], supertypes.Related!.Select(r => (r.Name, r.Kind)));

        NavigateResult subtypes = await fx.NavigateAsync("subtypes", "IShape");
        Assert.Equal(["ReadTools.App.Square", "ReadTools.App.Tile", "ReadTools.Core.Circle"], subtypes.Related!.Select(r => r.Name));

        Assert.Equal(["ReadTools.Core.IShape.Area()"], (await fx.NavigateAsync("supertypes", "Circle.Area")).Related!.Select(r => r.Name));
        Assert.Empty((await fx.NavigateAsync("subtypes", "Tile")).Related!);
    }

    [Fact]
    public async Task Hover_Source_Members_FileAndLineAlone()
    {
        NavigateResult hover = await fx.NavigateAsync("hover", "Flow.Start");
        Assert.Equal("(method) public int ReadTools.App.Flow.Start()\nStarts the chain.\nreturns: The level plus Flow.Step.", hover.Hover);
        Assert.StartsWith("(method) public string ReadTools.Core.Calculator.Describe(string? label)", (await fx.NavigateAsync("hover", "Describe(string)")).Hover, StringComparison.Ordinal);

        SourcePart start = Assert.Single((await fx.NavigateAsync("source", "Flow.Start")).Sources!);
        Assert.Equal((Flow, 14, 16, "method", "ReadTools.App.Flow.Start()"), (start.Path, start.FirstLine, start.LastLine, start.Kind, start.Name));
        Assert.StartsWith("    /// <summary>Starts the chain.</summary>\n", start.Text.ReplaceLineEndings("\n"), StringComparison.Ordinal);
        Assert.EndsWith("public int Start() => this.Middle() + Step;", start.Text, StringComparison.Ordinal);

        NavigateResult circle = await fx.NavigateAsync("source", "Circle");
        Assert.Equal(["Core/Parts/Shapes.Part1.cs", "Core/Parts/Shapes.Part2.cs"], circle.Sources!.Select(s => s.Path));

        SourcePart field = Assert.Single((await fx.NavigateAsync("source", "Flow.level")).Sources!);
        Assert.Equal("    private int level = 1;", field.Text);

        // File and line alone: the innermost declaration around the line; a file name resolves by suffix.
        NavigateResult inMiddle = await fx.NavigateAsync(new NavigateParams { Action = "source", Path = "Flow.cs", Line = 20 });
        Assert.Equal(("ReadTools.App.Flow.Middle()", Flow), (inMiddle.Symbol.Name, inMiddle.ResolvedFile));
        Assert.Equal((18, 22), (inMiddle.Sources![0].FirstLine, inMiddle.Sources[0].LastLine));

        NavigateResult members = await fx.NavigateAsync("members", "Circle");
        Assert.Equal("ReadTools.Core.Circle", members.Symbol.Name);
        Assert.Equal(
            [("Core/Parts/Shapes.Part1.cs", "property", "Radius"), ("Core/Parts/Shapes.Part2.cs", "method", "Area()")],
            members.Members!.Select(m => (m.Path, m.Kind, m.Name)));

        NavigateResult flowMembers = await fx.NavigateAsync(new NavigateParams { Action = "members", Path = Flow, Line = 20 });
        Assert.Equal("ReadTools.App.Flow", flowMembers.Symbol.Name);
        Assert.Equal(["Step", "level", "ticks", "Level", "Start()", "Middle()", "End(int)", "Touch()", "NeverCalled()", "Peek(ref int)"], flowMembers.Members!.Select(m => m.Name));

        NavigateResult point = await fx.NavigateAsync("members", "Point");
        Assert.Equal([("constructor", "Point(int, int)"), ("property", "X"), ("property", "Y")], point.Members!.Select(m => (m.Kind, m.Name)));

        await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => fx.NavigateAsync(new NavigateParams { Action = "references", Path = Flow, Line = 20 }));
    }

    [Fact]
    public async Task Impact_SectionsPerKind_LargestLeftOutToFit()
    {
        NavigateResult end = await fx.NavigateAsync("impact", "Flow.End");
        Assert.Equal([("references", 1), ("callers", 1), ("implementations", 0)], end.Sections!.Select(s => (s.Action, s.Total)));
        Assert.Empty(end.OmittedToFit!);

        NavigateResult shape = await fx.NavigateAsync("impact", "IShape");
        Assert.Equal(["references", "subtypes"], shape.Sections!.Select(s => s.Action));
        Assert.Equal(3, shape.Sections![1].Total);

        // 100 references and one caller with 100 call sites: the callers section is the largest and goes.
        NavigateResult ping = await fx.NavigateAsync("impact", "Many.Ping");
        Assert.Equal([("references", 100), ("implementations", 0)], ping.Sections!.Select(s => (s.Action, s.Total)));
        Assert.Equal([new OmittedSection("callers", 1, 101)], ping.OmittedToFit);
    }

    [Fact]
    public async Task FileArguments_ExactSuffixAmbiguousMissing_EverywhereTheyAreAccepted()
    {
        SourceLocation twice = fx.At("Core/B/Helpers.cs", "public static int $$Twice");
        SemanticErrorData ambiguous = await SemanticErrors.ExpectAsync(
            SemanticErrorKind.AmbiguousFile, () => fx.NavigateAsync(new NavigateParams { Action = "definition", Path = "Helpers.cs", Line = twice.Line, Character = twice.Character }));
        Assert.Equal(["Core/A/Helpers.cs", "Core/B/Helpers.cs"], ambiguous.Candidates);

        NavigateResult bySuffix = await fx.NavigateAsync(new NavigateParams { Action = "definition", Path = "B/Helpers.cs", Line = twice.Line, Character = twice.Character });
        Assert.Equal(("ReadTools.Core.B.Helpers.Twice(int)", "Core/B/Helpers.cs"), (bySuffix.Symbol.Name, bySuffix.ResolvedFile));
        Assert.Null((await fx.NavigateAsync(new NavigateParams { Action = "definition", Path = "Core/B/Helpers.cs", Line = twice.Line, Character = twice.Character })).ResolvedFile);
        Assert.Null((await fx.NavigateAsync(new NavigateParams { Action = "definition", Path = Path.Combine(fx.Workspace.Root, "Core/B/Helpers.cs"), Line = twice.Line, Character = twice.Character })).ResolvedFile);

        // "Helpers.cs" must match whole segments: "ers.cs" names no file.
        SemanticErrorData missing = await SemanticErrors.ExpectAsync(
            SemanticErrorKind.InvalidRequest, () => fx.NavigateAsync(new NavigateParams { Action = "definition", Path = "ers.cs", Line = 1, Character = 1 }));
        Assert.Contains("No workspace file matches 'ers.cs'", missing.Message, StringComparison.Ordinal);

        // The selector path of the other read tools follows the same rule.
        SymbolResolveResult resolved = await fx.ResolveAsync(new SymbolResolveParams { Name = "Helpers.Twice", Path = "B/Helpers.cs" });
        Assert.Equal("Core/B/Helpers.cs", resolved.ResolvedFile);
        await SemanticErrors.ExpectAsync(SemanticErrorKind.AmbiguousFile, () => fx.ResolveAsync(new SymbolResolveParams { Name = "Helpers.Twice", Path = "Helpers.cs" }));

        // A file outside every project has no semantic information.
        SemanticErrorData loose = await SemanticErrors.ExpectAsync(
            SemanticErrorKind.InvalidRequest, () => fx.NavigateAsync(new NavigateParams { Action = "hover", Path = "Loose.cs", Line = 3, Character = 21 }));
        Assert.Contains("Scratch/Loose.cs is not compiled", loose.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task BulkNavigate_SectionsInRequestOrder_AFailureFillsOnlyItsSection()
    {
        SourceLocation twice = fx.At("Core/B/Helpers.cs", "public static int $$Twice");
        BulkNavigateResult result = await fx.BulkNavigateAsync(new BulkNavigateParams
        {
            Queries =
            [
                new BulkNavigateQuery { Action = "callers", Name = "Flow.End" },
                new BulkNavigateQuery { Action = "definition", Path = "Helpers.cs", Line = twice.Line, Character = twice.Character },
                new BulkNavigateQuery { Action = "hover", Name = "Nope.Missing" },
                new BulkNavigateQuery { Action = "references", Name = "Many.Ping" },
                new BulkNavigateQuery { Action = "definition", Path = "B/Helpers.cs", Line = twice.Line, Character = twice.Character },
            ],
            Limit = 10,
            Context = true,
        });

        Assert.False(result.TimedOut);
        Assert.Equal([1, 2, 3, 4, 5], result.Sections.Select(s => s.Index));
        Assert.Equal(
            [("callers", "Flow.End"), ("definition", $"Helpers.cs:{twice.Line}:{twice.Character}"), ("hover", "Nope.Missing"), ("references", "Many.Ping"), ("definition", $"B/Helpers.cs:{twice.Line}:{twice.Character}")],
            result.Sections.Select(s => (s.Action, s.Target)));
        Assert.Equal("ReadTools.App.Flow.Middle()", Assert.Single(result.Sections[0].Result!.Related!).Name);
        Assert.Equal(SemanticErrorKind.AmbiguousFile, result.Sections[1].Error!.Code);
        Assert.Equal(["Core/A/Helpers.cs", "Core/B/Helpers.cs"], result.Sections[1].Error!.Candidates);
        Assert.Null(result.Sections[1].Result);
        Assert.Equal(SemanticErrorKind.SymbolNotFound, result.Sections[2].Error!.Code);
        Assert.StartsWith("No type matches the container 'Nope'.", result.Sections[2].Error!.Message, StringComparison.Ordinal);
        NavigateResult references = result.Sections[3].Result!;
        Assert.Equal((10, 100, true, (int?)10, "total += Ping();"), (references.Locations!.Count, references.Total, references.Truncated, references.NextOffset, references.Locations[0].Context));
        Assert.Equal("Core/B/Helpers.cs", result.Sections[4].Result!.ResolvedFile);

        await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => fx.BulkNavigateAsync(new BulkNavigateParams { Queries = [] }));
        await SemanticErrors.ExpectAsync(
            SemanticErrorKind.InvalidRequest,
            () => fx.BulkNavigateAsync(new BulkNavigateParams { Queries = [.. Enumerable.Range(0, 17).Select(_ => new BulkNavigateQuery { Action = "hover", Name = "Flow" })] }));
    }

    [Fact]
    public async Task BulkNavigate_TimeOut_KeepsFinishedSections_TheRestReportTimeout()
    {
        // The cached context answers without an authorizer; the lone navigate loads it and gives the normal answer.
        NavigateResult alone = await fx.NavigateAsync("definition", "Calculator.Add(int, int)");

        // Query 2 never finishes by itself; the overall timeout fires (by hand) only once query 1 has finished.
        ManualTimers clock = new();
        TaskCompletionSource<Task<BulkNavigateSection>> fastQuery = new(TaskCreationOptions.RunContinuationsAsynchronously);
        BulkNavigateService service = new(fx.Host.Cache, clock, (index, run, ct) =>
        {
            if (index == 2)
            {
                return NeverAsync(ct);
            }

            Task<BulkNavigateSection> query = run(ct);
            fastQuery.SetResult(query);
            return query;
        });

        Task<BulkNavigateResult> call = service.BulkNavigateAsync(
            new BulkNavigateParams
            {
                Workspace = fx.Workspace.Root,
                Tool = "test-tool",
                Queries =
                [
                    new BulkNavigateQuery { Action = "definition", Name = "Calculator.Add(int, int)" },
                    new BulkNavigateQuery { Action = "references", Name = "Many.Ping" },
                ],
                TimeoutSeconds = 30,
            },
            authorizer: null,
            CancellationToken.None);
        await (await fastQuery.Task).WaitAsync(SemanticHost.Timeout);
        Assert.False(call.IsCompleted);
        Assert.Equal(TimeSpan.FromSeconds(30), await clock.FireAsync());
        BulkNavigateResult result = await call.WaitAsync(SemanticHost.Timeout);

        Assert.True(result.TimedOut);
        Assert.Equal([(1, "definition", "Calculator.Add(int, int)"), (2, "references", "Many.Ping")], result.Sections.Select(s => (s.Index, s.Action, s.Target)));
        BulkNavigateSection fast = result.Sections[0];
        Assert.Null(fast.Error);
        Assert.Equal(alone.Locations, fast.Result!.Locations);
        Assert.Equal(alone.Symbol.Name, fast.Result.Symbol.Name);
        BulkNavigateSection slow = result.Sections[1];
        Assert.Null(slow.Result);
        Assert.Equal(SemanticErrorKind.Timeout, slow.Error!.Code);
        Assert.StartsWith("The bulk call timed out before this query finished.", slow.Error.Message, StringComparison.Ordinal);

        static async Task<BulkNavigateSection> NeverAsync(CancellationToken cancellationToken)
        {
            await Task.Delay(Timeout.Infinite, cancellationToken);
            throw new InvalidOperationException("unreachable: only the timeout ends this query");
        }
    }

    [Fact]
    public async Task Symbols_DocumentRangesNested_WorkspaceByMatchQuality_Paged()
    {
        SymbolsResult document = await fx.SymbolsAsync(new SymbolsParams { Path = Calculator });
        Assert.Null(document.ResolvedFile);
        Assert.Equal([new AnsweringProject("Core/Core.csproj", "net10.0")], document.Projects);
        SymbolItem shape = document.Items[0];
        Assert.Equal(("ReadTools.Core.IShape", "interface", 3, 18, 6, 2, 0), (shape.Name, shape.Kind, shape.Line, shape.Character, shape.EndLine, shape.EndCharacter, shape.Depth));
        SymbolItem area = document.Items[1];
        Assert.Equal(("ReadTools.Core.IShape.Area()", 5, 12, 5, 19, 1), (area.Name, area.Line, area.Character, area.EndLine, area.EndCharacter, area.Depth));
        Assert.Equal(("ReadTools.Core.Calculator", 0), (document.Items[2].Name, document.Items[2].Depth));
        Assert.Contains(document.Items, i => i.Name == "ReadTools.Core.Calculator.Total" && i.Kind == "field" && i.Depth == 1);
        Assert.Contains(document.Items, i => i.Name == "ReadTools.Core.Box.Box(int)" && i.Kind == "constructor" && i.Depth == 1);

        SymbolsResult bySuffix = await fx.SymbolsAsync(new SymbolsParams { Path = "Flow.cs", Limit = 2 });
        Assert.Equal((Flow, Flow, 2, true, (int?)2), (bySuffix.Path, bySuffix.ResolvedFile, bySuffix.Items.Count, bySuffix.Truncated, bySuffix.NextOffset));

        SymbolsResult loose = await fx.SymbolsAsync(new SymbolsParams { Path = "Scratch/Loose.cs" });
        Assert.True(loose.Incomplete);
        Assert.Equal(["ReadTools.Scratch.Loose"], loose.Items.Select(i => i.Name));

        await SemanticErrors.ExpectAsync(SemanticErrorKind.AmbiguousFile, () => fx.SymbolsAsync(new SymbolsParams { Path = "Helpers.cs" }));
        await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => fx.SymbolsAsync(new SymbolsParams()));

        SymbolsResult areas = await fx.SymbolsAsync(new SymbolsParams { Query = "Area" });
        Assert.Equal(
            [("ReadTools.App.Square.Area()", "App/Square.cs"), ("ReadTools.Core.IShape.Area()", Calculator), ("ReadTools.Core.Circle.Area()", "Core/Parts/Shapes.Part2.cs")],
            areas.Items.Select(i => (i.Name, i.Path)));

        // Exact before prefix before camel humps before substring.
        SymbolsResult flow = await fx.SymbolsAsync(new SymbolsParams { Query = "Flow" });
        Assert.Equal("ReadTools.App.Flow", flow.Items[0].Name);
        SymbolsResult humps = await fx.SymbolsAsync(new SymbolsParams { Query = "NeCa" });
        Assert.Equal(["ReadTools.App.Flow.NeverCalled()"], humps.Items.Select(i => i.Name));
        SymbolsResult paged = await fx.SymbolsAsync(new SymbolsParams { Query = "Area", Limit = 1, Offset = 1 });
        Assert.Equal("ReadTools.Core.IShape.Area()", Assert.Single(paged.Items).Name);
        Assert.Equal((3, true, (int?)2), (paged.Total, paged.Truncated, paged.NextOffset));
        Assert.Equal(["Core/Core.csproj"], paged.Projects.Select(p => p.Project)); // The page's projects, not every match's (App's Square.Area).
    }
}

/// <summary>A clock whose timers fire only when a test fires them.</summary>
internal sealed class ManualTimers : TimeProvider
{
    private readonly TaskCompletionSource<ManualTimer> created = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
    {
        ManualTimer timer = new(callback, state, dueTime);
        this.created.TrySetResult(timer);
        return timer;
    }

    /// <summary>Fires the first timer created (waiting for it if need be) and returns its due time.</summary>
    public async Task<TimeSpan> FireAsync()
    {
        ManualTimer timer = await this.created.Task.WaitAsync(SemanticHost.Timeout);
        timer.Fire();
        return timer.DueTime;
    }

    private sealed class ManualTimer(TimerCallback callback, object? state, TimeSpan dueTime) : ITimer
    {
        public TimeSpan DueTime => dueTime;

        public void Fire() => callback(state);

        public bool Change(TimeSpan dueTime, TimeSpan period) => true;

        public void Dispose()
        {
        }

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }
}
