using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// fixtures/TestReach: navigate's tests action walks callers up to the test methods of four frameworks (xunit.v3
/// on MTP, xunit 2, NUnit, MSTest) through interface dispatch, lambdas and method groups passed by the tests, a
/// member declared only in one flavour (#if NET), a field initializer, an indexer, operators and a conversion; a DI
/// registration by type and reflection by name are named as places it cannot follow. Exact lists.
/// </summary>
[Collection(TestReachCollection.Name)]
public sealed class TestReachTests(LoadedFixture.TestReach fx)
{
    private Task<NavigateResult> Tests(string name) =>
        fx.Invoke<NavigateResult>(ProtocolMethods.Navigate, new NavigateParams { Workspace = fx.Workspace.Root, Action = "tests", Name = name, Tool = "test-tool" });

    private static List<string> Names(NavigateResult result) => [.. result.Related!.Select(r => r.Name)];

    [Fact]
    public async Task InterfaceDispatch_LambdasAndMethodGroups_ReachTestsOfEveryFramework()
    {
        NavigateResult result = await Tests("Circle.Area");
        Assert.Equal(
            [
                "Shapes.MSTest.SquareTests.Area_ThroughTheInterface",
                "Shapes.MSTest.SquareTests.Doubled_IsTwiceTheArea",
                "Shapes.XunitV3.CircleTests.UnitCircle_HasAreaPi",
                "Shapes.XunitV3.CircleTests.Total_AddsEveryShape",
                "Shapes.XunitVstest.PassedCodeTests.Largest_ByLambda",
                "Shapes.XunitVstest.PassedCodeTests.Largest_ByMethodGroup",
                "Shapes.XunitVstest.PassedCodeTests.Describe_OnlyInNet",
            ],
            Names(result));
        Assert.All(result.Related!, r => Assert.Equal("test", r.Kind));
        Assert.Equal("tests/Shapes.XunitV3/CircleTests.cs", result.Related![2].Location!.Path);
        Assert.Null(result.Unfollowable);
        Assert.Null(result.WalkLimit);
    }

    [Fact]
    public async Task Pages_OfOneAnswer_ListEveryTestOnce_InTheOrderOfTheWholeList()
    {
        // Each page of a tests answer is served from the walk of the first (planted faults on Parlot: a page walked
        // the call graph anew, over a minute each, 10 lines a page for a member most of 1,042 tests reach).
        List<string> whole = Names(await Tests("Circle.Area"));
        List<string> paged = [];
        for (int offset = 0; ;)
        {
            NavigateResult page = await fx.Invoke<NavigateResult>(ProtocolMethods.Navigate, new NavigateParams { Workspace = fx.Workspace.Root, Action = "tests", Name = "Circle.Area", Offset = offset, Limit = 2, Tool = "test-tool" });
            paged.AddRange(Names(page));
            if (page.NextOffset is not { } next)
            {
                break;
            }

            offset = next;
        }

        Assert.Equal(whole, paged);
    }

    [Fact]
    public async Task ATestDeclaredInAnAbstractClass_IsListedUnderEachConcreteClassThatRunsIt()
    {
        // Runners name an inherited test by the class that runs it (Parlot's CalcTests.TestAddition ran and failed as
        // FluentParserTests.TestAddition, while the list named only the abstract CalcTests).
        Assert.Equal(
            ["Shapes.XunitVstest.DoublingOfOneTests.Twice_IsDouble", "Shapes.XunitVstest.DoublingOfTwoTests.Twice_IsDouble"],
            Names(await Tests("Doubling.Twice")));
    }

    [Fact]
    public async Task AMemberOnlyInOneFlavour_IsWalkedThrough()
    {
        NavigateResult result = await Tests("Units.Scale");
        Assert.Equal(
            ["Shapes.MSTest.SquareTests.Doubled_IsTwiceTheArea", "Shapes.XunitVstest.PassedCodeTests.Largest_ByMethodGroup", "Shapes.XunitVstest.PassedCodeTests.Describe_OnlyInNet"],
            Names(result));
    }

    [Fact]
    public async Task FieldInitializers_Indexers_Operators_AndConversions_ReachNUnitTests()
    {
        Assert.Equal(["Shapes.NUnit.CartTests.NewCart_IsEmpty", "Shapes.NUnit.CartTests.Indexer_ReturnsTheAddedMoney"], Names(await Tests("Seed.Items")));
        Assert.Equal(["Shapes.NUnit.CartTests.NewCart_IsEmpty"], Names(await Tests("Counting.Of")));
        Assert.Equal(["Shapes.NUnit.CartTests.Indexer_ReturnsTheAddedMoney"], Names(await Tests("Cart.this[int]")));
        Assert.Equal(["Shapes.NUnit.CartTests.Plus_AddsAmounts"], Names(await Tests("Money.operator +(Money, Money)")));
        Assert.Equal(["Shapes.NUnit.CartTests.Conversion_RoundsToCents"], Names(await Tests("Rounding.Cents")));
    }

    [Fact]
    public async Task AStaticConstructorsCall_ReachesWhateverUsesItsType()
    {
        // Nothing calls a static constructor by name: the runtime runs it at the type's first use (Rounding.Cents
        // here). Before, the walk stopped at the constructor and listed no test for what it calls.
        Assert.Equal(["Shapes.NUnit.CartTests.Conversion_RoundsToCents"], Names(await Tests("Precision.Digits")));
    }

    [Fact]
    public async Task SetupSharedBeyondItsClass_ReachesTheTestsItRunsFor()
    {
        // xunit: a class fixture reaches the tests of the class that takes it; a collection fixture those of the collection's classes.
        Assert.Equal(["Shapes.XunitVstest.ClassFixtureTests.Seed_IsOne"], Names(await Tests("Calibration.ClassFixtureSeed")));
        Assert.Equal(["Shapes.XunitVstest.CollectionFixtureTests.Seed_IsTwo"], Names(await Tests("Calibration.CollectionSeed")));

        // An xunit.v3 assembly fixture and MSTest's AssemblyInitialize run before every test of their assembly; NUnit's SetUpFixture before every test of its namespace.
        Assert.Equal(
            ["Shapes.XunitV3.CircleTests.UnitCircle_HasAreaPi", "Shapes.XunitV3.CircleTests.Square_AreaIsSideSquared", "Shapes.XunitV3.CircleTests.Total_AddsEveryShape", "Shapes.XunitV3.CircleTests.Name_OfSquare"],
            Names(await Tests("Calibration.AssemblyFixtureSeed")));
        Assert.Equal(
            ["Shapes.MSTest.DynamicSeedTests.Dynamic_IsNine", "Shapes.MSTest.SquareTests.Area_ThroughTheInterface", "Shapes.MSTest.SquareTests.Doubled_IsTwiceTheArea", "Shapes.MSTest.SquareTests.Money_HasItsAmount"],
            Names(await Tests("Calibration.AssemblySeed")));
        List<string> nunit = Names(await Tests("Calibration.NamespaceSeed"));
        Assert.Contains("Shapes.NUnit.CartTests.NewCart_IsEmpty", nunit);
        Assert.All(nunit, name => Assert.StartsWith("Shapes.NUnit.CartTests.", name, StringComparison.Ordinal));
        Assert.Equal(File.ReadAllLines(fx.Workspace.Path("tests/Shapes.NUnit/CartTests.cs")).Count(line => line.TrimStart().StartsWith("[Test", StringComparison.Ordinal)), nunit.Count);
    }

    [Fact]
    public async Task DataSources_ReachTheTheoriesTheyFeed()
    {
        // The framework runs a theory's data before the theory: xunit MemberData and ClassData, NUnit TestCaseSource,
        // MSTest DynamicData name their source (nameof, typeof) and never call it. Before, each answer was empty.
        Assert.Equal(["Shapes.XunitVstest.DataSourceTests.MemberData_IsSix"], Names(await Tests("Calibration.MemberDataSeed")));

        // SeedRows.GetEnumerator implements IEnumerable<T>.GetEnumerator, which Geometry.Total's foreach calls through the
        // interface (the walk does not tell IEnumerable<object[]> from IEnumerable<IShape>: a superset, never a miss).
        Assert.Equal(
            ["Shapes.XunitV3.CircleTests.Total_AddsEveryShape", "Shapes.XunitVstest.DataSourceTests.ClassData_IsSeven"],
            Names(await Tests("Calibration.ClassDataSeed")));
        Assert.Equal(["Shapes.NUnitData.SourceTests.Source_IsEight"], Names(await Tests("Calibration.SourceSeed")));
        Assert.Equal(["Shapes.MSTest.DynamicSeedTests.Dynamic_IsNine"], Names(await Tests("Calibration.DynamicSeed")));
    }

    [Fact]
    public async Task ADiRegistrationByType_IsNamedAsUnfollowable()
    {
        NavigateResult result = await Tests("Stamp.Now");
        Assert.Empty(result.Related!);
        UnfollowableNote note = Assert.IsType<UnfollowableNote>(result.Unfollowable);
        Assert.Equal(["DI registration by type"], note.Kinds);
        UnfollowablePlace place = Assert.Single(note.Places);
        Assert.Equal(("src/App/Composition.cs", 30), (place.Path, place.Line));
    }

    [Fact]
    public async Task ReflectionByName_IsNamedAsUnfollowable()
    {
        NavigateResult result = await Tests("Formatter.Format");
        Assert.Empty(result.Related!);
        UnfollowableNote note = Assert.IsType<UnfollowableNote>(result.Unfollowable);
        Assert.Equal(["reflection"], note.Kinds);
        Assert.Equal(("src/App/Printer.cs", 13), (note.Places[0].Path, note.Places[0].Line));

        // Printer itself is followed: the xunit test calls it.
        Assert.Equal(["Shapes.XunitVstest.PassedCodeTests.Print_ByReflection"], Names(await Tests("Printer.Print")));
    }

    [Fact]
    public async Task ReflectionWithoutAName_IsNamedAsUnfollowable_ForTheKindsOfMemberItFinds()
    {
        // typeof(Labels).GetMethods() and typeof(Sample).GetConstructor(...): reflection that names no member. Before,
        // neither was seen, and a walk to what they run ended with no test and no word of it.
        NavigateResult methods = await Tests("Labels.Short");
        Assert.Empty(methods.Related!);
        UnfollowablePlace listing = Assert.Single(Assert.IsType<UnfollowableNote>(methods.Unfollowable).Places);
        Assert.Equal(("src/App/Printer.cs", 26), (listing.Path, listing.Line));

        NavigateResult constructed = await Tests("Seeds.First");
        Assert.Empty(constructed.Related!);
        UnfollowablePlace catalog = Assert.Single(Assert.IsType<UnfollowableNote>(constructed.Unfollowable).Places);
        Assert.Equal(("src/App/Printer.cs", 43), (catalog.Path, catalog.Line));

        // A field looked up by a name computed at run time (Catalog.Level) concerns walks that visited a field only:
        // Formatter.Format's walk meets its own GetMethod("Format") and nothing else.
        NavigateResult format = await Tests("Formatter.Format");
        Assert.Equal([("src/App/Printer.cs", 13)], Assert.IsType<UnfollowableNote>(format.Unfollowable).Places.Select(p => (p.Path, p.Line)));
    }

    [Fact]
    public async Task ReachedTests_TheVerifiersRequest_GivesTheUnion_RunnerNames_AndWhatItCouldNotFollow()
    {
        ReachedTestsResult result = await fx.Invoke<ReachedTestsResult>(ProtocolMethods.ReachedTests, new ReachedTestsParams
        {
            Workspace = fx.Workspace.Root,
            Tool = "test-tool",
            Symbols = [new ReachedTestsSymbol { Name = "Seed.Items" }, new ReachedTestsSymbol { Name = "Stamp.Now" }, new ReachedTestsSymbol { Name = "Units.Scale" }, new ReachedTestsSymbol { Name = "Nope.Missing" }],
        });
        Assert.Equal(
            [
                "Shapes.MSTest.SquareTests.Doubled_IsTwiceTheArea",
                "Shapes.NUnit.CartTests.NewCart_IsEmpty",
                "Shapes.NUnit.CartTests.Indexer_ReturnsTheAddedMoney",
                "Shapes.XunitVstest.PassedCodeTests.Largest_ByMethodGroup",
                "Shapes.XunitVstest.PassedCodeTests.Describe_OnlyInNet",
            ],
            result.Tests.Select(t => t.FullyQualifiedName));
        ReachedTest first = result.Tests[0];
        Assert.Equal(("tests/Shapes.MSTest/Shapes.MSTest.csproj", "tests/Shapes.MSTest/SquareTests.cs"), (first.Project, first.Path));
        Assert.Equal(["Shapes.MSTest.SquareTests"], first.ClassName);
        Assert.Equal(["DI registration by type"], result.Unfollowable!.Kinds);
        ReachedTestsFailure failure = Assert.Single(result.Failures);
        Assert.Equal((3, SemanticErrorKind.SymbolNotFound), (failure.Index, failure.Code));
        Assert.False(result.LimitReached);
    }
}
