using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>One reference in source: where it is and which document holds it.</summary>
internal sealed record ReferenceHit(Location Location, Document Document);

/// <summary>
/// References by compiler identity: implicit ones and duplicates from linked compilations dropped,
/// source-generated ones left out and counted, and only those of the symbol and of the members a call may go
/// through to run it (<see cref="ReferenceScope"/>).
/// </summary>
internal static class ReferenceFinder
{
    public static async Task<(List<ReferenceHit> Hits, int OmittedGenerated)> FindAsync(ISymbol symbol, Solution solution, CancellationToken cancellationToken)
    {
        IEnumerable<ReferencedSymbol> found = await SymbolFinder.FindReferencesAsync(symbol, solution, cancellationToken).ConfigureAwait(false);
        ReferenceScope scope = await ReferenceScope.OfAsync(symbol, solution, cancellationToken).ConfigureAwait(false);
        HashSet<(string Path, int Start)> seen = [];
        HashSet<(string Path, int Start)> generated = [];
        List<ReferenceHit> hits = [];
        foreach ((ReferencedSymbol referenced, ReferenceScope.Group group) in scope.Classify(found))
        {
            if (group == ReferenceScope.Group.Unrelated)
            {
                continue;
            }

            foreach (ReferenceLocation location in referenced.Locations)
            {
                if (location.IsImplicit || !location.Location.IsInSource)
                {
                    continue;
                }

                if (group == ReferenceScope.Group.Dispatching && !await scope.NamesRunningMemberAsync(location, cancellationToken).ConfigureAwait(false))
                {
                    continue;
                }

                (string, int) key = (location.Location.SourceTree!.FilePath, location.Location.SourceSpan.Start);
                if (location.Document is SourceGeneratedDocument)
                {
                    generated.Add(key);
                }
                else if (seen.Add(key))
                {
                    hits.Add(new ReferenceHit(location.Location, location.Document));
                }
            }
        }

        return (hits, generated.Count);
    }
}
