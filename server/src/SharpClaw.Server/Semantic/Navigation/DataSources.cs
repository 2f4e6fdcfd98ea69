using Microsoft.CodeAnalysis;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>
/// The tests a data source feeds: the framework runs a theory's data before the theory (a throw there fails it),
/// but the test names its source without calling it — xunit <c>MemberData(nameof(M))</c> (with <c>MemberType</c>) and
/// <c>ClassData(typeof(T))</c>, NUnit <c>TestCaseSource</c>/<c>ValueSource</c> (by name, by type and name, or by
/// type), MSTest <c>DynamicData(nameof(M))</c> (with a declaring type). One index per walk, built on first use, keyed
/// by the source member (declaring type and name) or the source class.
/// </summary>
internal sealed class DataSources
{
    private static readonly HashSet<string> ByMember =
    [
        "Xunit.MemberDataAttribute",
        "NUnit.Framework.TestCaseSourceAttribute",
        "NUnit.Framework.ValueSourceAttribute",
        "Microsoft.VisualStudio.TestTools.UnitTesting.DynamicDataAttribute",
    ];

    private const string ClassData = "Xunit.ClassDataAttribute";

    private readonly Dictionary<string, List<IMethodSymbol>> fed = new(StringComparer.Ordinal);

    /// <summary>Indexes every test of the projects that reference a test framework by the data sources its attributes (and its parameters') name.</summary>
    public static async Task<DataSources> IndexAsync(Solution solution, CancellationToken cancellationToken)
    {
        DataSources index = new();
        foreach (Project project in solution.Projects)
        {
            if (await project.GetCompilationAsync(cancellationToken).ConfigureAwait(false) is not { } compilation || !TestMethods.ReferencesTestFramework(compilation.Assembly))
            {
                continue;
            }

            foreach (IMethodSymbol test in SharedSetups.TypesIn(compilation.Assembly.GlobalNamespace).SelectMany(t => t.GetMembers().OfType<IMethodSymbol>()).Where(TestMethods.IsTest))
            {
                foreach (AttributeData attribute in test.GetAttributes().Concat(test.Parameters.SelectMany(p => p.GetAttributes())))
                {
                    foreach (string key in Keys(attribute, test.ContainingType))
                    {
                        if (!index.fed.TryGetValue(key, out List<IMethodSymbol>? tests))
                        {
                            index.fed[key] = tests = [];
                        }

                        tests.Add(test);
                    }
                }
            }
        }

        return index;
    }

    /// <summary>The tests <paramref name="member"/> feeds: as the named source member, or as a member of a source class (its constructor, GetEnumerator).</summary>
    public IEnumerable<IMethodSymbol> TestsFedBy(ISymbol member)
    {
        IEnumerable<IMethodSymbol> named = member is IMethodSymbol or IPropertySymbol or IFieldSymbol && member.ContainingType is { } type
            ? this.fed.GetValueOrDefault(MemberKey(type, member.Name)) ?? []
            : [];
        IEnumerable<IMethodSymbol> classes = member.ContainingType is { } owner ? this.fed.GetValueOrDefault(ClassKey(owner)) ?? [] : [];
        return named.Concat(classes);
    }

    /// <summary>The keys a data attribute names: the member it names, found on its type or a base type, or the class.</summary>
    private static IEnumerable<string> Keys(AttributeData attribute, INamedTypeSymbol testClass)
    {
        string? name = attribute.AttributeClass?.ToDisplayString();
        if (name == ClassData)
        {
            if (attribute.ConstructorArguments.FirstOrDefault() is { Kind: TypedConstantKind.Type, Value: INamedTypeSymbol source })
            {
                yield return ClassKey(source);
            }

            yield break;
        }

        if (name is null || !ByMember.Contains(name))
        {
            yield break;
        }

        // (name), (name, args…), (Type, name), (Type) for a source class; MemberType= / a Type argument names the declaring type.
        // An array argument (MemberData's params object[]) has no single Value: only scalar arguments name a source.
        List<object?> scalars = [.. attribute.ConstructorArguments.Where(a => a.Kind != TypedConstantKind.Array).Select(a => a.Value)];
        string? memberName = scalars.OfType<string>().FirstOrDefault();
        INamedTypeSymbol? declaring = scalars.OfType<INamedTypeSymbol>().FirstOrDefault()
            ?? attribute.NamedArguments.Where(a => a.Key == "MemberType" && a.Value.Kind != TypedConstantKind.Array).Select(a => a.Value.Value).OfType<INamedTypeSymbol>().FirstOrDefault();
        if (memberName is null)
        {
            if (declaring is not null)
            {
                yield return ClassKey(declaring);
            }

            yield break;
        }

        for (INamedTypeSymbol? current = declaring ?? testClass; current is not null; current = current.BaseType)
        {
            if (current.GetMembers(memberName).Any(m => m is IMethodSymbol or IPropertySymbol or IFieldSymbol))
            {
                yield return MemberKey(current, memberName);
                yield break;
            }
        }
    }

    private static string MemberKey(INamedTypeSymbol type, string member) => "member " + type.OriginalDefinition.ToDisplayString() + " " + member;

    private static string ClassKey(INamedTypeSymbol type) => "class " + type.OriginalDefinition.ToDisplayString();
}
