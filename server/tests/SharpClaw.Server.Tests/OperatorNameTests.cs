using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// fixtures/ComparisonOperators: a value type with comparison, shift and conversion operators, as real value objects
/// have. Before, the '&lt;' of <c>operator &lt;</c> was read as the start of type arguments and the symbol index of the
/// whole solution failed to build, so every name-based query answered <c>internal_error</c>; and the dots of
/// <c>implicit operator Ledger.Money</c> split it into segments, so the bare type name <c>Money</c> was ambiguous.
/// </summary>
public sealed class OperatorNameTests
{
    [Fact]
    public async Task OperatorNames_DoNotBreakTheIndex_AndResolveAsDisplayed()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("ComparisonOperators", "ComparisonOperators.csproj");
        using TempDirectory state = new();
        await using SemanticHost host = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = state.Path });

        Assert.Equal("Ledger.Accounts.Within(Ledger.Money, Ledger.Money)", (await host.NavigateAsync(fixture.Root, new NavigateParams { Action = "definition", Name = "Accounts.Within" })).Symbol.Name);
        Assert.Equal("Ledger.Money", (await host.NavigateAsync(fixture.Root, new NavigateParams { Action = "definition", Name = "Money" })).Symbol.Name);

        // Each operator by the name the tools display it with, and by a shorter one; its one use in Accounts.Within.
        (string Name, string Use)[] operators =
        [
            ("Money.operator <(Money, Money)", "balance < 5m"),
            ("Money.operator >(Money, Money)", "balance > limit"),
            ("Money.operator <=(Money, Money)", "balance <= limit"),
            ("Ledger.Money.operator >=(Ledger.Money, Ledger.Money)", "(balance << 2) >= (limit >> 1)"),
            ("Money.operator <<(Money, int)", "balance << 2"),
            ("Money.operator >>(Money, int)", "limit >> 1"),
        ];
        string within = fixture.Read("Money.cs").ReplaceLineEndings("\n").Split('\n')[22];
        foreach ((string name, string use) in operators)
        {
            NavigateResult references = await host.NavigateAsync(fixture.Root, new NavigateParams { Action = "references", Name = name });
            string op = name[(name.IndexOf("operator ", StringComparison.Ordinal) + 9)..name.IndexOf('(', StringComparison.Ordinal)];
            int column = within.IndexOf(use, StringComparison.Ordinal) + use.IndexOf(" " + op + " ", StringComparison.Ordinal) + 2;
            Assert.Equal([$"Money.cs:23:{column}"], references.Locations!.Select(l => $"{l.Path}:{l.Line}:{l.Character}"));
        }

        // The conversion operator: by its display name, and with the converted-to type written without its namespace.
        NavigateResult members = await host.NavigateAsync(fixture.Root, new NavigateParams { Action = "members", Name = "Money" });
        string conversion = Assert.Single(members.Members!, m => m.Kind == "operator" && m.Name.StartsWith("implicit", StringComparison.Ordinal)).Name;
        Assert.Equal("implicit operator Ledger.Money(decimal)", conversion);
        foreach (string name in new[] { "Ledger.Money." + conversion, "Money.implicit operator Money(decimal)" })
        {
            NavigateLocation definition = (await host.NavigateAsync(fixture.Root, new NavigateParams { Action = "definition", Name = name })).Locations!.Single();
            Assert.Equal(("Money.cs", 18, 37), (definition.Path, definition.Line, definition.Character));
        }
    }

}
