using Microsoft.CodeAnalysis;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>
/// The tests a setup runs for when it is not its own class's (<see cref="TestMethods.OfClassAsync"/>): an xunit class
/// fixture (<c>IClassFixture&lt;T&gt;</c>: the tests of each class that takes it), a collection fixture
/// (<c>ICollectionFixture&lt;T&gt;</c>: the tests of the collection's classes, by name or type), an assembly fixture
/// (xunit.v3's <c>[assembly: AssemblyFixture(typeof(T))]</c>) or MSTest's <c>AssemblyInitialize</c>/<c>AssemblyCleanup</c>
/// (every test of the assembly), and an NUnit <c>[SetUpFixture]</c> (every test in its namespace and below).
/// </summary>
internal static class SharedSetups
{
    private const string ClassFixture = "Xunit.IClassFixture<TFixture>";
    private const string CollectionFixture = "Xunit.ICollectionFixture<TFixture>";
    private const string CollectionDefinition = "Xunit.CollectionDefinitionAttribute";
    private const string Collection = "Xunit.CollectionAttribute";
    private const string AssemblyFixture = "Xunit.AssemblyFixtureAttribute";
    private const string SetUpFixture = "NUnit.Framework.SetUpFixtureAttribute";

    private static readonly HashSet<string> AssemblySetupAttributes =
    [
        "Microsoft.VisualStudio.TestTools.UnitTesting.AssemblyInitializeAttribute",
        "Microsoft.VisualStudio.TestTools.UnitTesting.AssemblyCleanupAttribute",
    ];

    /// <summary>Whether <paramref name="method"/> is an assembly-wide setup by its own attribute (MSTest's).</summary>
    public static bool IsAssemblySetup(IMethodSymbol method) =>
        method.GetAttributes().Any(a => a.AttributeClass is { } c && AssemblySetupAttributes.Contains(c.ToDisplayString()));

    /// <summary>The tests <paramref name="setup"/> (a setup member of <paramref name="owner"/>) runs for beyond its own class's.</summary>
    public static async Task<List<IMethodSymbol>> TestsAsync(IMethodSymbol setup, INamedTypeSymbol owner, Solution solution, CancellationToken cancellationToken)
    {
        List<IMethodSymbol> tests = [];
        if (IsAssemblySetup(setup) || IsAssemblyFixture(owner))
        {
            tests.AddRange(TestsIn(owner.ContainingAssembly.GlobalNamespace));
            return tests;
        }

        if (owner.GetAttributes().Any(a => a.AttributeClass?.ToDisplayString() == SetUpFixture))
        {
            tests.AddRange(TestsIn(owner.ContainingNamespace));
            return tests;
        }

        string fixture = owner.OriginalDefinition.ToDisplayString();
        foreach (Project project in solution.Projects)
        {
            if (await project.GetCompilationAsync(cancellationToken).ConfigureAwait(false) is not { } compilation
                || !compilation.ReferencedAssemblyNames.Any(r => r.Name.StartsWith("xunit", StringComparison.OrdinalIgnoreCase)))
            {
                continue;
            }

            List<INamedTypeSymbol> types = [.. TypesIn(compilation.Assembly.GlobalNamespace)];
            foreach (INamedTypeSymbol type in types)
            {
                if (Takes(type, ClassFixture, fixture))
                {
                    tests.AddRange(await TestMethods.OfClassAsync(type, solution, cancellationToken).ConfigureAwait(false));
                }
                else if (Takes(type, CollectionFixture, fixture))
                {
                    // [CollectionDefinition("name")] on the definition; test classes join by [Collection("name")] or [Collection(typeof(Definition))].
                    string? name = type.GetAttributes().FirstOrDefault(a => a.AttributeClass?.ToDisplayString() == CollectionDefinition)?.ConstructorArguments.FirstOrDefault().Value as string;
                    foreach (INamedTypeSymbol member in types.Where(t => InCollection(t, name, type)))
                    {
                        tests.AddRange(await TestMethods.OfClassAsync(member, solution, cancellationToken).ConfigureAwait(false));
                    }
                }
            }
        }

        return tests;
    }

    private static bool IsAssemblyFixture(INamedTypeSymbol owner) =>
        owner.ContainingAssembly.GetAttributes().Any(a =>
            a.AttributeClass?.ToDisplayString() == AssemblyFixture
            && a.ConstructorArguments.FirstOrDefault().Value is INamedTypeSymbol named
            && SymbolEqualityComparer.Default.Equals(named.OriginalDefinition, owner.OriginalDefinition));

    private static bool Takes(INamedTypeSymbol type, string fixtureInterface, string fixture) =>
        type.AllInterfaces.Any(i => i.OriginalDefinition.ToDisplayString() == fixtureInterface && i.TypeArguments[0].OriginalDefinition.ToDisplayString() == fixture);

    private static bool InCollection(INamedTypeSymbol type, string? name, INamedTypeSymbol definition) =>
        type.GetAttributes().Any(a => a.AttributeClass?.ToDisplayString() == Collection
            && a.ConstructorArguments.FirstOrDefault().Value switch
            {
                string joined => joined == name,
                INamedTypeSymbol joined => SymbolEqualityComparer.Default.Equals(joined.OriginalDefinition, definition.OriginalDefinition),
                _ => false,
            });

    private static IEnumerable<IMethodSymbol> TestsIn(INamespaceSymbol scope) =>
        TypesIn(scope).SelectMany(t => t.GetMembers().OfType<IMethodSymbol>()).Where(TestMethods.IsTest);

    /// <summary>Every type declared in <paramref name="scope"/>, its namespaces and its types, iteratively.</summary>
    internal static IEnumerable<INamedTypeSymbol> TypesIn(INamespaceOrTypeSymbol scope)
    {
        Stack<INamespaceOrTypeSymbol> pending = new([scope]);
        while (pending.TryPop(out INamespaceOrTypeSymbol? current))
        {
            if (current is INamedTypeSymbol type)
            {
                yield return type;
            }

            foreach (INamespaceOrTypeSymbol member in current is INamespaceSymbol ns ? ns.GetMembers() : ((INamedTypeSymbol)current).GetTypeMembers())
            {
                pending.Push(member);
            }
        }
    }
}
