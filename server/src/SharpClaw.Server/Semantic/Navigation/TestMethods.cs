using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using SharpClaw.Server.Semantic.Symbols;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>
/// What a test method is, the one rule: a method marked by its framework's test attribute or one deriving from it
/// (xunit and xunit.v3 Fact/Theory, NUnit Test/TestCase/TestCaseSource/Theory, MSTest TestMethod/DataTestMethod,
/// TUnit Test); and what the framework runs before each test of a class (its constructors and setup methods).
/// </summary>
internal static class TestMethods
{
    /// <summary>The test attributes by full name; an attribute deriving from one (xunit's custom facts, MSTest's DataTestMethod) counts too.</summary>
    private static readonly HashSet<string> TestAttributes =
    [
        "Xunit.FactAttribute",
        "Xunit.TheoryAttribute",
        "NUnit.Framework.TestAttribute",
        "NUnit.Framework.TestCaseAttribute",
        "NUnit.Framework.TestCaseSourceAttribute",
        "NUnit.Framework.TheoryAttribute",
        "Microsoft.VisualStudio.TestTools.UnitTesting.TestMethodAttribute",
        "Microsoft.VisualStudio.TestTools.UnitTesting.DataTestMethodAttribute",
        "TUnit.Core.TestAttribute",
    ];

    /// <summary>Attributes of methods the framework runs around each test (or once per class) of their class.</summary>
    private static readonly HashSet<string> SetupAttributes =
    [
        "NUnit.Framework.SetUpAttribute",
        "NUnit.Framework.TearDownAttribute",
        "NUnit.Framework.OneTimeSetUpAttribute",
        "NUnit.Framework.OneTimeTearDownAttribute",
        "Microsoft.VisualStudio.TestTools.UnitTesting.TestInitializeAttribute",
        "Microsoft.VisualStudio.TestTools.UnitTesting.TestCleanupAttribute",
        "Microsoft.VisualStudio.TestTools.UnitTesting.ClassInitializeAttribute",
        "Microsoft.VisualStudio.TestTools.UnitTesting.ClassCleanupAttribute",
        "TUnit.Core.BeforeAttribute",
        "TUnit.Core.AfterAttribute",
    ];

    /// <summary>xunit's per-test lifetime members (IAsyncLifetime, IDisposable on the test class), found by name.</summary>
    private static readonly HashSet<string> LifetimeMethods = ["InitializeAsync", "DisposeAsync", "Dispose"];

    public static bool IsTest(IMethodSymbol method) =>
        method.MethodKind == MethodKind.Ordinary && method.GetAttributes().Any(a => Marks(a.AttributeClass, TestAttributes));

    /// <summary>Assemblies of the test frameworks: only code compiled against one can be a test class's setup.</summary>
    private static readonly string[] FrameworkAssemblies = ["xunit", "nunit.framework", "Microsoft.VisualStudio.TestPlatform.TestFramework", "MSTest.TestFramework", "TUnit.Core"];

    /// <summary>
    /// A constructor or setup/lifetime method of a class in a project that references a test framework: the framework
    /// runs it for the tests of its class (if it has any).
    /// </summary>
    public static bool IsSetup(IMethodSymbol method) =>
        (method.MethodKind is MethodKind.Constructor or MethodKind.StaticConstructor
            || (method.MethodKind == MethodKind.Ordinary && (LifetimeMethods.Contains(method.Name) || method.GetAttributes().Any(a => Marks(a.AttributeClass, SetupAttributes)) || SharedSetups.IsAssemblySetup(method))))
        && ReferencesTestFramework(method.ContainingAssembly);

    /// <summary>Whether the assembly is compiled against a test framework (only its code can be a test's setup or data).</summary>
    public static bool ReferencesTestFramework(IAssemblySymbol? assembly) =>
        assembly is not null && assembly.Modules.SelectMany(m => m.ReferencedAssemblies).Any(r => FrameworkAssemblies.Any(f => r.Name.StartsWith(f, StringComparison.OrdinalIgnoreCase)));

    /// <summary>
    /// The tests that run <paramref name="type"/>'s constructors and setup: those it declares or inherits, and
    /// those of the classes deriving from it.
    /// </summary>
    public static async Task<List<IMethodSymbol>> OfClassAsync(INamedTypeSymbol type, Solution solution, CancellationToken cancellationToken)
    {
        List<IMethodSymbol> tests = [];
        for (INamedTypeSymbol? current = type; current is not null; current = current.BaseType)
        {
            tests.AddRange(current.GetMembers().OfType<IMethodSymbol>().Where(IsTest));
        }

        if (type.TypeKind == TypeKind.Class && !type.IsSealed && !type.IsStatic)
        {
            foreach (ISymbol flavour in await Flavours.OfAsync(type, solution, cancellationToken).ConfigureAwait(false))
            {
                foreach (INamedTypeSymbol derived in await SymbolFinder.FindDerivedClassesAsync((INamedTypeSymbol)flavour, solution, transitive: true, cancellationToken: cancellationToken).ConfigureAwait(false))
                {
                    tests.AddRange(derived.GetMembers().OfType<IMethodSymbol>().Where(IsTest));
                }
            }
        }

        return tests;
    }

    private static bool Marks(INamedTypeSymbol? attribute, HashSet<string> names)
    {
        for (INamedTypeSymbol? current = attribute; current is not null; current = current.BaseType)
        {
            if (names.Contains(current.ToDisplayString()))
            {
                return true;
            }
        }

        return false;
    }
}
