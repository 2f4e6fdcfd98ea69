using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// fixtures/SiblingImplementations (netstandard2.0 and net10.0): two implementations of an interface member, two
/// overrides of a virtual method, two value types whose operators implement <c>IComparisonOperators</c> in net10.0
/// only. Roslyn's reference search cascades up to the interface or base member and down to every other
/// implementation, so the references of <c>Circle.Area</c> held <c>new Square().Area()</c>, and on NodaTime those of
/// <c>LocalDate.operator &lt;</c> held every <c>&lt;</c> of Instant, Duration and BigInteger. The references of a
/// member are its own and those through a member a call may go through to run it.
/// </summary>
public sealed class SiblingReferencesTests
{
    [Fact]
    public async Task References_OfOneImplementation_LeaveOutItsSiblings_AndKeepCallsThroughTheInterface()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("SiblingImplementations", "SiblingImplementations.csproj");
        using TempDirectory state = new();
        await using SemanticHost host = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = state.Path });

        string[] usage = fixture.Read("Usage.cs").ReplaceLineEndings("\n").Split('\n');
        string At(int line, string marked)
        {
            int caret = marked.IndexOf("$$", StringComparison.Ordinal);
            int column = usage[line - 1].IndexOf(marked.Remove(caret, 2), StringComparison.Ordinal);
            Assert.True(column >= 0, marked);
            return $"Usage.cs:{line}:{column + caret + 1}";
        }

        (string Name, string[] Expected)[] cases =
        [
            ("Circle.Area", [At(5, "new Circle().$$Area()"), At(5, "shape.$$Area()")]),
            ("Square.Area", [At(5, "new Square().$$Area()"), At(5, "shape.$$Area()")]),
            ("IShape.Area", [At(5, "shape.$$Area()")]),
            ("Dog.Sound", [At(7, "new Dog().$$Sound()"), At(7, "animal.$$Sound()")]),
            ("Animal.Sound", [At(7, "animal.$$Sound()")]),
            ("Meters.CompareTo", [At(9, "a.$$CompareTo(b)")]),
            ("Meters.operator <(Meters, Meters)", [At(9, "a $$< b &&"), At(12, "a $$< b;")]),
            ("Seconds.operator <(Seconds, Seconds)", [At(9, "c $$< d"), At(12, "a $$< b;")]),
        ];
        foreach ((string name, string[] expected) in cases)
        {
            NavigateResult navigate = await host.NavigateAsync(fixture.Root, new NavigateParams { Action = "references", Name = name });
            Assert.True(expected.SequenceEqual(navigate.Locations!.Select(l => $"{l.Path}:{l.Line}:{l.Character}")), $"{name}: {string.Join(", ", navigate.Locations!.Select(l => $"{l.Path}:{l.Line}:{l.Character}"))}");

            FindReferencesResult references = await host.FindReferencesAsync(fixture.Root, new FindReferencesParams { Name = name });
            Assert.Equal(expected, references.References.Select(l => $"{l.Path}:{l.Line}:{l.Character}"));
        }
    }
}
