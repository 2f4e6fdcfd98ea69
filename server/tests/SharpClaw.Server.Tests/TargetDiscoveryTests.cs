using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Discovery;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>Discovery rules (nothing is executed; no dotnet needed).</summary>
public sealed class TargetDiscoveryTests
{
    [Fact]
    public void TwoTopLevelSolutions_AreAmbiguous_ListingBoth()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("TwoSolutions");

        SemanticException error = Assert.Throws<SemanticException>(() => TargetDiscovery.Resolve(fixture.Root, null));

        Assert.Equal(SemanticErrorKind.TargetAmbiguous, error.Kind);
        Assert.Equal(["First.slnx", "Second.sln"], error.Error.Candidates);
        Assert.Contains("target", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ExplicitTarget_ResolvesAmbiguity_AndMayBeRelativeOrAbsolute()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("TwoSolutions");

        TargetSelection relative = TargetDiscovery.Resolve(fixture.Root, "Second.sln");
        TargetSelection absolute = TargetDiscovery.Resolve(fixture.Root, fixture.Path("First.slnx"));
        TargetSelection project = TargetDiscovery.Resolve(fixture.Root, "Lib/Lib.csproj");

        Assert.Equal((fixture.Path("Second.sln"), TargetKind.Solution), (relative.TargetPath, relative.Kind));
        Assert.Equal("First.slnx", absolute.RelativeTarget);
        Assert.Equal(("Lib/Lib.csproj", TargetKind.Project), (project.RelativeTarget, project.Kind));
    }

    [Fact]
    public void NestedSolutionOnly_IsNoTarget_ListingTheNestedCandidate_UnlessExplicit()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("NestedOnly");

        SemanticException error = Assert.Throws<SemanticException>(() => TargetDiscovery.Resolve(fixture.Root, null));
        TargetSelection explicitTarget = TargetDiscovery.Resolve(fixture.Root, "src/Nested.slnx");

        Assert.Equal(SemanticErrorKind.NoTarget, error.Kind);
        Assert.Equal(["src/Nested.slnx", "src/Lib/Lib.csproj"], error.Error.Candidates);
        Assert.Contains("src/Nested.slnx", error.Message, StringComparison.Ordinal);
        Assert.Equal("src/Nested.slnx", explicitTarget.RelativeTarget);
    }

    [Fact]
    public void TopLevelSolution_WinsOverNestedOnes()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("TopLevelWins");

        TargetSelection selection = TargetDiscovery.Resolve(fixture.Root, null);

        Assert.Equal("Top.slnx", selection.RelativeTarget);
    }

    [Fact]
    public void SingleTopLevelProject_IsChosen_WhenThereIsNoSolution()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("MultiTarget");

        TargetSelection selection = TargetDiscovery.Resolve(fixture.Root, null);

        Assert.Equal(("MultiTarget.csproj", TargetKind.Project), (selection.RelativeTarget, selection.Kind));
    }

    [Fact]
    public void SolutionBeatsProjects_TwoProjectsAloneAreAmbiguous_NothingIsNoTarget()
    {
        using TempDirectory temp = new();
        File.WriteAllText(Path.Combine(temp.Path, "A.csproj"), "<Project />");
        File.WriteAllText(Path.Combine(temp.Path, "B.csproj"), "<Project />");

        SemanticException ambiguous = Assert.Throws<SemanticException>(() => TargetDiscovery.Resolve(temp.Path, null));
        Assert.Equal(SemanticErrorKind.TargetAmbiguous, ambiguous.Kind);
        Assert.Equal(["A.csproj", "B.csproj"], ambiguous.Error.Candidates);

        File.WriteAllText(Path.Combine(temp.Path, "All.slnx"), "<Solution />");
        Assert.Equal("All.slnx", TargetDiscovery.Resolve(temp.Path, null).RelativeTarget);

        using TempDirectory empty = new();
        SemanticException none = Assert.Throws<SemanticException>(() => TargetDiscovery.Resolve(empty.Path, null));
        Assert.Equal(SemanticErrorKind.NoTarget, none.Kind);
        Assert.Empty(none.Error.Candidates!);
    }

    [Fact]
    public void TargetOutsideTheWorkspace_IsInvalidRequest_IncludingThroughSymlinks()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("TwoSolutions");
        string outside = Path.Combine(fixture.Parent, "Outside.csproj");
        File.WriteAllText(outside, "<Project />");

        Assert.Equal(SemanticErrorKind.InvalidRequest, Assert.Throws<SemanticException>(() => TargetDiscovery.Resolve(fixture.Root, "../Outside.csproj")).Kind);
        Assert.Equal(SemanticErrorKind.InvalidRequest, Assert.Throws<SemanticException>(() => TargetDiscovery.Resolve(fixture.Root, outside)).Kind);

        // A link inside the workspace that points outside it does not make the target "inside".
        string link = fixture.Path("Linked.csproj");
        File.CreateSymbolicLink(link, outside);
        SemanticException viaLink = Assert.Throws<SemanticException>(() => TargetDiscovery.Resolve(fixture.Root, "Linked.csproj"));
        Assert.Equal(SemanticErrorKind.InvalidRequest, viaLink.Kind);
        Assert.Contains("outside the workspace", viaLink.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void BadRequests_AreInvalidRequest_WithActionableMessages()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("TwoSolutions");

        Assert.Contains("'workspace' is required", Assert.Throws<SemanticException>(() => TargetDiscovery.Resolve(null, null)).Message, StringComparison.Ordinal);
        Assert.Contains("absolute", Assert.Throws<SemanticException>(() => TargetDiscovery.Resolve("relative/folder", null)).Message, StringComparison.Ordinal);
        Assert.Contains("does not exist", Assert.Throws<SemanticException>(() => TargetDiscovery.Resolve(Path.Combine(fixture.Parent, "nope"), null)).Message, StringComparison.Ordinal);
        Assert.Contains("does not exist", Assert.Throws<SemanticException>(() => TargetDiscovery.Resolve(fixture.Root, "Missing.slnx")).Message, StringComparison.Ordinal);
        Assert.Contains("not a .sln, .slnx or .csproj", Assert.Throws<SemanticException>(() => TargetDiscovery.Resolve(fixture.Root, "Lib/Thing.cs")).Message, StringComparison.Ordinal);
    }

    [Fact]
    public void UnreadableSubdirectory_IsSkipped_ThroughAnInjectedFailingLister()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("NestedOnly");
        Directory.CreateDirectory(fixture.Path("secret"));
        FailingLister lister = new(fixture.Path("secret"));

        SemanticException error = Assert.Throws<SemanticException>(() => TargetDiscovery.Resolve(fixture.Root, null, lister));

        Assert.True(lister.Failures > 0, "The failing folder was never listed, so the skip was not exercised.");
        Assert.Equal(SemanticErrorKind.NoTarget, error.Kind);
        Assert.Contains("src/Nested.slnx", error.Error.Candidates!);
    }

    [Fact]
    public void UnreadableSubdirectory_IsSkipped_OnTheRealFileSystem()
    {
        if (OperatingSystem.IsWindows())
        {
            return; // Permission bits are a Unix concept; the injected-lister test covers the skip everywhere.
        }

        using FixtureWorkspace fixture = FixtureWorkspace.Copy("NestedOnly");
        string locked = fixture.Path("locked");
        Directory.CreateDirectory(Path.Combine(locked, "inner"));
        File.WriteAllText(Path.Combine(locked, "inner", "Hidden.csproj"), "<Project />");
        File.SetUnixFileMode(locked, UnixFileMode.None);
        try
        {
            SemanticException error = Assert.Throws<SemanticException>(() => TargetDiscovery.Resolve(fixture.Root, null));

            Assert.Equal(SemanticErrorKind.NoTarget, error.Kind);
            Assert.Contains("src/Nested.slnx", error.Error.Candidates!);
            bool readable = CanList(locked);
            if (readable)
            {
                // Root (as in CI) ignores the permission bits, so the folder was read; the skip itself is
                // proven by the injected-lister test above.
                Assert.Contains("locked/inner/Hidden.csproj", error.Error.Candidates!);
            }
            else
            {
                Assert.DoesNotContain("locked/inner/Hidden.csproj", error.Error.Candidates!);
            }
        }
        finally
        {
            File.SetUnixFileMode(locked, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
        }
    }

    private static bool CanList(string directory)
    {
        try
        {
            _ = Directory.EnumerateFileSystemEntries(directory).ToList();
            return true;
        }
        catch (UnauthorizedAccessException)
        {
            return false;
        }
    }

    /// <summary>The real file system, except that one folder throws like a folder without read permission.</summary>
    private sealed class FailingLister(string failing) : IDirectoryLister
    {
        public int Failures { get; private set; }

        public IEnumerable<string> EnumerateFiles(string directory) =>
            this.Fail(directory) ?? Directory.EnumerateFiles(directory);

        public IEnumerable<string> EnumerateDirectories(string directory) =>
            this.Fail(directory) ?? Directory.EnumerateDirectories(directory);

        private IEnumerable<string>? Fail(string directory)
        {
            if (PathUtil.Comparer.Equals(PathUtil.Normalize(directory), PathUtil.Normalize(failing)))
            {
                this.Failures++;
                throw new UnauthorizedAccessException($"Access to the path '{directory}' is denied.");
            }

            return null;
        }
    }
}
