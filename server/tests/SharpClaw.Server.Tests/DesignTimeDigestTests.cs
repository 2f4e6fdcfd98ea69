using SharpClaw.Server.Semantic.Evaluation;
using SharpClaw.Server.Semantic.Loading;

namespace SharpClaw.Server.Tests;

/// <summary>The digest that decides whether a re-evaluated context (dynamic imports) may stay loaded.</summary>
public sealed class DesignTimeDigestTests
{
    [Fact]
    public void EqualPasses_HaveEqualDigests_AndAnyDifferenceChangesIt()
    {
        // Large enough (hundreds of KB of JSON) to pass through the hashing buffer many times over.
        List<DesignTimeProject> projects = [.. Enumerable.Range(0, 40).Select(i => Project(i, "/p:DefineConstants=DEBUG"))];
        List<EvaluatedProject> evaluated = [.. Enumerable.Range(0, 40).Select(Evaluated)];
        string digest = DesignTimeDigest.Of(projects, evaluated);

        Assert.Equal(digest, DesignTimeDigest.Of([.. Enumerable.Range(0, 40).Select(i => Project(i, "/p:DefineConstants=DEBUG"))], [.. Enumerable.Range(0, 40).Select(Evaluated)]));
        Assert.Equal(64, digest.Length);

        List<DesignTimeProject> otherArgument = [.. projects];
        otherArgument[39] = Project(39, "/p:DefineConstants=DEBUG;TRACE");
        Assert.NotEqual(digest, DesignTimeDigest.Of(otherArgument, evaluated));

        List<DesignTimeProject> otherLink = [.. projects];
        otherLink[0] = otherLink[0] with { Documents = [new DesignTimeItem("A.cs", "Linked/A.cs")] };
        Assert.NotEqual(digest, DesignTimeDigest.Of(otherLink, evaluated));

        List<EvaluatedProject> otherOutputType = [.. evaluated];
        otherOutputType[5] = otherOutputType[5] with { OutputType = "Exe" };
        Assert.NotEqual(digest, DesignTimeDigest.Of(projects, otherOutputType));

        // Order matters: Roslyn builds projects and documents in that order.
        Assert.NotEqual(digest, DesignTimeDigest.Of([.. Enumerable.Reverse(projects)], evaluated));
    }

    private static DesignTimeProject Project(int index, string define) => new()
    {
        Path = $"/src/P{index}/P{index}.csproj",
        TargetFramework = "net10.0",
        CommandLineArgs = [define, .. Enumerable.Range(0, 200).Select(r => $"/reference:/packs/ref/net10.0/System.Assembly{r}.dll")],
        Documents = [.. Enumerable.Range(0, 20).Select(d => new DesignTimeItem($"File{d}.cs", null))],
        AdditionalFiles = [],
        EditorConfigFiles = [],
        ProjectReferences = index > 0 ? [new DesignTimeReference($"/src/P{index - 1}/P{index - 1}.csproj", [], true)] : [],
    };

    private static EvaluatedProject Evaluated(int index) => new()
    {
        Path = $"/src/P{index}/P{index}.csproj",
        IsTestProjectProperty = string.Empty,
        OutputType = "Library",
        TargetFrameworks = ["net10.0"],
        CompileItems = [.. Enumerable.Range(0, 20).Select(d => $"/src/P{index}/File{d}.cs")],
        ProjectReferences = [],
        PackageReferences = [],
        AnalyzerItems = [],
    };
}
