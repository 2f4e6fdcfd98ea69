using Microsoft.CodeAnalysis;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>
/// How many tests each test project has, counted as <c>sharpclaw/reachedTests</c> names reached ones: one per test
/// method and concrete class that runs it (its own or inherited from a base class). The verifier's report says how
/// many of them a reached run ran ("4 of 6 tests run").
/// </summary>
internal static class ProjectTestCounts
{
    public static async Task<List<ProjectTestCount>> OfAsync(Solution solution, string workspace, CancellationToken cancellationToken)
    {
        // A multi-targeted project is one Project per flavour: counted once per file (the largest flavour).
        Dictionary<string, int> counts = new(StringComparer.Ordinal);
        foreach (Project project in solution.Projects)
        {
            if (project.FilePath is not { } file || await project.GetCompilationAsync(cancellationToken).ConfigureAwait(false) is not { } compilation || !TestMethods.ReferencesTestFramework(compilation.Assembly))
            {
                continue;
            }

            int count = Count(compilation.Assembly.GlobalNamespace, cancellationToken);
            string relative = PathUtil.ToWorkspaceRelative(workspace, file);
            counts[relative] = Math.Max(count, counts.GetValueOrDefault(relative));
        }

        return [.. counts.Where(c => c.Value > 0).OrderBy(c => c.Key, StringComparer.Ordinal).Select(c => new ProjectTestCount(c.Key, c.Value))];
    }

    private static int Count(INamespaceOrTypeSymbol container, CancellationToken cancellationToken)
    {
        int count = 0;
        foreach (ISymbol member in container.GetMembers())
        {
            cancellationToken.ThrowIfCancellationRequested();
            if (member is INamespaceSymbol ns)
            {
                count += Count(ns, cancellationToken);
            }
            else if (member is INamedTypeSymbol { TypeKind: TypeKind.Class } type)
            {
                count += Count(type, cancellationToken);
                if (!type.IsAbstract)
                {
                    count += TestsRunIn(type);
                }
            }
        }

        return count;
    }

    /// <summary>The distinct test method names a concrete class runs: its own and its base classes'.</summary>
    private static int TestsRunIn(INamedTypeSymbol type)
    {
        HashSet<string> names = new(StringComparer.Ordinal);
        for (INamedTypeSymbol? current = type; current is not null; current = current.BaseType)
        {
            foreach (IMethodSymbol method in current.GetMembers().OfType<IMethodSymbol>())
            {
                if (TestMethods.IsTest(method))
                {
                    names.Add(method.Name);
                }
            }
        }

        return names.Count;
    }
}
