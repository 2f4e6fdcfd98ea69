using SharpClaw.Protocol.Semantic;
using SharpClaw.Protocol.Store;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>The host's one glob dialect (<see cref="PathGlob"/>): each construct, and git's reading without braces.</summary>
public sealed class PathGlobTests
{
    [Theory]
    [InlineData("src/*.cs", "src/A.cs", true)]
    [InlineData("src/*.cs", "src/sub/A.cs", false)]
    [InlineData("src/**/*.cs", "src/A.cs", true)]
    [InlineData("src/**/*.cs", "src/a/b/A.cs", true)]
    [InlineData("src/**", "src/a/b/A.cs", true)]
    [InlineData("**/Tests/**", "x/Tests/y/A.cs", true)]
    [InlineData("src/A?.cs", "src/AB.cs", true)]
    [InlineData("src/A?.cs", "src/A/.cs", false)]
    [InlineData("src/a**b.cs", "src/axxb.cs", true)] // '**' inside a segment is '*'
    [InlineData("src/a**b.cs", "src/a/xb.cs", false)]
    [InlineData("src/{A,B}.cs", "src/B.cs", true)]
    [InlineData("src/{A,B}.cs", "src/C.cs", false)]
    [InlineData("{src,test}/**/{A,B{1,2}}.cs", "test/x/B2.cs", true)]
    [InlineData("{src/**,lib}/A.cs", "src/x/y/A.cs", true)]
    [InlineData("src/[AB].cs", "src/B.cs", true)]
    [InlineData("src/[A-C]x.cs", "src/Cx.cs", true)]
    [InlineData("src/[!A-C]x.cs", "src/Cx.cs", false)]
    [InlineData("src/[!A-C]x.cs", "src/Dx.cs", true)]
    [InlineData("src/[^A]x.cs", "src/Bx.cs", true)]
    [InlineData("src/[!a]", "src//", false)] // a class never matches '/'
    [InlineData("src/{A.cs", "src/{A.cs", true)] // a brace without its partner is itself
    [InlineData("src/A}.cs", "src/A}.cs", true)]
    [InlineData("src/a,b.cs", "src/a,b.cs", true)] // a comma outside braces is itself
    [InlineData("src/[].cs", "src/[].cs", true)] // an empty class is itself
    [InlineData("src/\\*.cs", "src/*.cs", true)]
    [InlineData("src/\\*.cs", "src/A.cs", false)]
    public void Dialect(string glob, string path, bool matches) =>
        Assert.Equal(matches, PathGlob.ToRegex(glob, ignoreCase: false).IsMatch(path));

    [Fact]
    public void PathFilter_MatchesAGlobWithoutSlashAtAnyDepth()
    {
        Func<string, bool> tests = PathGlob.PathFilter("*{Tests,Spec}.cs", ignoreCase: false);
        Assert.True(tests("a/b/CalcTests.cs"));
        Assert.True(tests("CalcSpec.cs"));
        Assert.False(tests("a/Calc.cs"));
        Assert.True(PathGlob.PathFilter("src/*.CS", ignoreCase: true)("src/a.cs"));
        Assert.False(PathGlob.PathFilter("src/*.CS", ignoreCase: false)("src/a.cs"));
    }

    [Fact]
    public void Git_ReadsBracesAsThemselves()
    {
        Assert.Matches(PathGlob.ToRegex("{a,b}.cs", ignoreCase: false, braces: false), "{a,b}.cs");
        Assert.DoesNotMatch(PathGlob.ToRegex("{a,b}.cs", ignoreCase: false, braces: false), "a.cs");
        Assert.Matches(PathGlob.ToRegex("[ab].cs", ignoreCase: false, braces: false), "a.cs");
    }

    [Fact]
    public void MalformedOrTooLong_IsAnArgumentExceptionNamingIt()
    {
        Assert.Contains("malformed character class", Assert.Throws<ArgumentException>(() => PathGlob.PathFilter("src/[z-a].cs", ignoreCase: false)).Message, StringComparison.Ordinal);
        Assert.Contains("at most 1024", Assert.Throws<ArgumentException>(() => PathGlob.PathFilter(new string('a', 1025) + "*", ignoreCase: false)).Message, StringComparison.Ordinal);
    }

    [Fact]
    public void RepeatedDoubleStars_StayLinear() =>
        Assert.Matches(PathGlob.ToRegex(string.Concat(Enumerable.Repeat("**/", 200)) + "*.cs", ignoreCase: false), "a/b/A.cs");
}

/// <summary>
/// csharp_diagnostics' <c>file</c> and csharp_workspace_search's <c>paths</c> read a glob the same way: the same
/// files of fixtures/ReadTools for braces, classes, negated classes, <c>**</c> and a name-only glob.
/// </summary>
[Collection(ReadToolsCollection.Name)]
public sealed class GlobDialectTests(ReadToolsFixture fx)
{
    [Theory]
    [InlineData("App/{Broken,Warn}.cs", 2)]
    [InlineData("Core/[AB]/Helpers.cs", 2)]
    [InlineData("Core/[!A]/*.cs", 1)]
    [InlineData("{App,Core}/**/S*.cs", 5)]
    [InlineData("Shapes.Part[12].cs", 2)]
    public async Task DiagnosticsAndWorkspaceSearch_SelectTheSameFiles(string glob, int files)
    {
        DiagnosticsResult diagnostics = await fx.DiagnosticsAsync(new DiagnosticsParams { Path = glob, Severity = "hint" });
        // A regular expression every non-empty line matches, so each selected file answers with its lines.
        WorkspaceSearchResult search = await fx.Host.WorkspaceSearchAsync(fx.Workspace.Root, "^", regex: true, paths: [glob], limit: 200);

        // (files the search selected, files diagnostics selected)
        Assert.Equal((files, files), (search.Files, diagnostics.FilesChecked + diagnostics.Incomplete.Count));
    }

    /// <summary>
    /// An empty answer with <c>paths</c> says how many files the globs let through, so a glob that matches no file is not
    /// taken for a search that found nothing (before, both said only how many files are indexed).
    /// </summary>
    [Fact]
    public async Task WorkspaceSearch_WithPathsAndNoMatch_SaysHowManyFilesThePathsLetThrough()
    {
        // A literal (answered from the trigram index) and a regular expression (a scan): the same counts.
        foreach (bool regex in new[] { false, true })
        {
            WorkspaceSearchResult within = await fx.Host.WorkspaceSearchAsync(fx.Workspace.Root, "NoSuchTextInAnyFile", regex: regex, paths: ["App/{Broken,Warn}.cs", "Shapes.Part[12].cs"]);
            Assert.Equal((0, 4), (within.Total, within.PathsMatchedFiles));
            WorkspaceSearchResult none = await fx.Host.WorkspaceSearchAsync(fx.Workspace.Root, "NoSuchTextInAnyFile", regex: regex, paths: ["Nowhere/**"]);
            Assert.Equal((0, 0), (none.Total, none.PathsMatchedFiles));
        }

        // Without paths, or with a match, it is absent: the indexed count and Files say it.
        Assert.Null((await fx.Host.WorkspaceSearchAsync(fx.Workspace.Root, "NoSuchTextInAnyFile")).PathsMatchedFiles);
        WorkspaceSearchResult found = await fx.Host.WorkspaceSearchAsync(fx.Workspace.Root, "^", regex: true, paths: ["App/{Broken,Warn}.cs"]);
        Assert.Equal((2, (int?)null), (found.Files, found.PathsMatchedFiles));
    }
}
