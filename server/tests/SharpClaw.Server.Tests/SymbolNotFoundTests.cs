using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// What a qualified name that names nothing declared answers (fixtures/MemberNotFound). Found on App-vNext/Polly: an
/// agent writes the name the way the code calls it — <c>ResiliencePipelineBuilder.Name</c> (inherited) or
/// <c>ResiliencePipelineBuilder.AddRetry</c> (an extension method) — and was told the type had "no member 'Name' and no
/// member with a similar name"; <c>Polly.Retry.RetryStrateyOptions</c> was told "No type matches the container
/// 'Polly.Retry'" with types named like the namespace, though the namespace exists; and
/// <c>Polly.Retry.RetryResiliencePipelineBuilderExtensions.AddRetry</c> (the class is in <c>Polly</c>) listed types, not its
/// <c>AddRetry</c> overloads.
/// </summary>
public sealed class SymbolNotFoundTests
{
    [Fact]
    public async Task InheritedAndExtensionMembers_AreListedUnderTheirDeclaringNames_AndANamespaceContainerBlamesTheTypeName()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("MemberNotFound", "MemberNotFound.csproj");
        await using SemanticHost host = await SemanticHost.StartAsync();

        async Task<SemanticErrorData> NotFound(string name) =>
            await SemanticErrors.ExpectAsync(SemanticErrorKind.SymbolNotFound, () => host.NavigateAsync(fixture.Root, new NavigateParams { Action = "definition", Name = name }));

        const string NotDeclared = "declares no member '{0}'. Members with a similar name, inherited and extension ones included, are listed as candidates under the names that declare them.";
        foreach ((string name, string member, string candidate) in new[]
        {
            ("Order.Name", "Name", "Entity.Name"),
            ("Order.IsLarge", "IsLarge", "OrderExtensions.IsLarge(Order)"),
            ("Order.Renamed", "Renamed", "OrderExtensions.Renamed<T>(T, string)"),
            ("IReport.Read", "Read", "IReadable.Read()"),
        })
        {
            SemanticErrorData error = await NotFound(name);
            Assert.Equal($"The type Shop.Orders.{name[..name.IndexOf('.', StringComparison.Ordinal)]} " + string.Format(System.Globalization.CultureInfo.InvariantCulture, NotDeclared, member), error.Message);
            Assert.Equal(candidate, error.Candidates![0]);

            // The candidate, sent back unchanged, is the member the name meant.
            NavigateResult definition = await host.NavigateAsync(fixture.Root, new NavigateParams { Action = "definition", Name = candidate });
            Assert.Equal("Orders.cs", Assert.Single(definition.Locations!).Path);
        }

        // A member the type declares under a similar name: as before.
        SemanticErrorData declared = await NotFound("Order.Totl");
        Assert.Equal("The type Shop.Orders.Order has no member 'Totl'. Members with a similar name are listed as candidates.", declared.Message);
        Assert.Equal(["Order.Total"], declared.Candidates);

        // A namespace of the source as the container: the type's name is what failed.
        SemanticErrorData inNamespace = await NotFound("Shop.Orders.Ordr");
        Assert.Equal("The namespace Shop.Orders has no type 'Ordr'. Types with a similar name are listed as candidates.", inNamespace.Message);
        Assert.Equal("Order", inNamespace.Candidates![0]);
        Assert.Equal("The namespace Shop.Orders has no type 'Invoice' and no type with a similar name.", (await NotFound("Orders.Invoice")).Message);

        // A type of the container's name in another namespace (Polly.Retry.RetryResiliencePipelineBuilderExtensions is in
        // Polly): its members with a similar name, inherited ones included.
        SemanticErrorData elsewhere = await NotFound("Shop.Billing.Order.Totl");
        Assert.Equal("No type matches the container 'Shop.Billing.Order', but Shop.Orders.Order has its name. Its members with a similar name are listed as candidates.", elsewhere.Message);
        Assert.Equal(["Order.Total"], elsewhere.Candidates);
        Assert.Equal("Entity.Name", (await NotFound("Billing.Order.Name")).Candidates![0]);

        // A container that is neither: as before.
        Assert.StartsWith("No type matches the container 'Nope'.", (await NotFound("Nope.Missing")).Message, StringComparison.Ordinal);
    }
}
