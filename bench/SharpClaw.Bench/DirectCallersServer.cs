using System.Diagnostics;
using System.Globalization;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using Microsoft.CodeAnalysis.MSBuild;

namespace SharpClaw.Bench;

/// <summary>
/// <c>direct-callers --solution X.slnx --type Ns.Type --member Name</c>: the direct Roslyn side of the
/// cross-surface navigate bench (bench/mcp-navigate.mjs). Loads the solution into a bare MSBuildWorkspace,
/// then answers one callers question per line read from stdin — FindCallersAsync on the member and on each
/// interface member it implements, which is what navigate's callers reports (direct calls and calls through
/// the interface) — and writes one line per answer: elapsed milliseconds, the number of call sites and the sites
/// themselves (<c>path:line:char</c> relative to the solution's folder, joined by <c>|</c>). A site compiled in several
/// target-framework flavours is one position, as navigate reports it, not one per flavour.
/// One process for the whole run, so the bench can interleave it call by call with the other surfaces.
/// </summary>
internal static class DirectCallersServer
{
    public static async Task<int> RunAsync(string solutionPath, string typeName, string memberName)
    {
        using MSBuildWorkspace workspace = MSBuildWorkspace.Create(new Dictionary<string, string> { ["Configuration"] = "Debug" });
        Solution solution = await workspace.OpenSolutionAsync(solutionPath);
        Console.WriteLine("ready");
        while (await Console.In.ReadLineAsync() is { } line && line != "quit")
        {
            Stopwatch watch = Stopwatch.StartNew();
            SortedSet<string> sites = await CallSitesAsync(solution, typeName, memberName);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{watch.Elapsed.TotalMilliseconds:F3} {sites.Count} {string.Join('|', sites)}"));
        }

        return 0;
    }

    private static async Task<SortedSet<string>> CallSitesAsync(Solution solution, string typeName, string memberName)
    {
        string root = Path.GetDirectoryName(solution.FilePath!)!;
        foreach (Project project in solution.Projects)
        {
            if ((await project.GetCompilationAsync())?.GetTypeByMetadataName(typeName) is not { } type || !SymbolEqualityComparer.Default.Equals(type.ContainingAssembly, (await project.GetCompilationAsync())!.Assembly))
            {
                continue;
            }

            ISymbol member = type.GetMembers(memberName).Single();
            SortedSet<string> sites = new(StringComparer.Ordinal);
            IEnumerable<ISymbol> dispatching = type.AllInterfaces
                .SelectMany(i => i.GetMembers(memberName))
                .Where(m => SymbolEqualityComparer.Default.Equals(type.FindImplementationForInterfaceMember(m), member));
            foreach (ISymbol start in dispatching.Prepend(member))
            {
                foreach (SymbolCallerInfo caller in await SymbolFinder.FindCallersAsync(start, solution))
                {
                    sites.UnionWith(caller.Locations.Where(l => l.IsInSource).Select(l => Position(root, l)));
                }
            }

            return sites;
        }

        throw new InvalidOperationException($"{typeName} is not declared in {solution.FilePath}.");
    }

    private static string Position(string root, Location location)
    {
        FileLinePositionSpan span = location.GetLineSpan();
        string path = Path.GetRelativePath(root, span.Path).Replace('\\', '/');
        return string.Create(CultureInfo.InvariantCulture, $"{path}:{span.StartLinePosition.Line + 1}:{span.StartLinePosition.Character + 1}");
    }
}
