using Xunit.Abstractions;

[assembly: TestCollectionOrderer("SharpClaw.Server.Tests.Infrastructure.SlowestFirstOrderer", "SharpClaw.Server.Tests")]

namespace SharpClaw.Server.Tests.Infrastructure;

/// <summary>
/// Starts the slowest test classes first. xunit runs a few collections at once (test.runsettings) and the
/// tests of one class one after the other, so a long class that happened to start last (xunit's own order is
/// a hash of each collection's id) ran on alone at the end while the other threads had nothing left. The
/// classes named here go first, longest first (the sum of their tests' durations in the idle `.ci/run` of
/// 2026-12-06, test-results/summary.json); every other collection follows in xunit's own order. The order
/// changes when a test runs, never what it does: a stale list only costs time.
/// </summary>
public sealed class SlowestFirstOrderer : ITestCollectionOrderer
{
    private static readonly string[] Slowest =
    [
        "ApplyOutlivesClientTests", // 109 s
        "WarmRestartTests", // 76 s
        "BuildFileFingerprintTests", // 66 s
        "InspectTests", // 59 s
        "ParallelLoadTests", // 56 s
        "AuthorizationTests", // 43 s
        "LspDeepDocumentTests", // 38 s
        "GeneratorGapProjectsTests", // 33 s
        "PolyfillGeneratorTests", // 30 s
        "EditUnverifiedTests", // 28 s
        "EditTests", // 25 s, and its class fixture's load
        "MixedLanguagesTests", // 24 s
        "RenameFlavourConflictTests", // 22 s
        "GeneratorDeclaredTypesTests", // 21 s
        "RecordedAnswerTests", // 20 s
    ];

    public IEnumerable<ITestCollection> OrderTestCollections(IEnumerable<ITestCollection> testCollections) =>
        testCollections.OrderBy(Rank).ThenBy(c => c.UniqueID);

    /// <summary>
    /// The class's place in <see cref="Slowest"/>, else after them all. A class's own collection is named
    /// "Test collection for SharpClaw.Server.Tests.&lt;class&gt;" (newer runners may add " (id: …)").
    /// </summary>
    private static int Rank(ITestCollection collection)
    {
        string name = collection.DisplayName;
        int index = Array.FindIndex(Slowest, c => name.EndsWith("." + c, StringComparison.Ordinal) || name.Contains("." + c + " ", StringComparison.Ordinal));
        return index < 0 ? Slowest.Length : index;
    }
}
