using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Semantic;
using SharpClaw.Server.Semantic.Evaluation;

namespace SharpClaw.Server.Tests;

/// <summary>The one "is this a test project" rule (ResultBuilder.ResolveIsTestProject), which inspection and verification share.</summary>
public sealed class TestProjectRuleTests
{
    private static EvaluatedProject Project(string isTestProject, bool testingPlatformApplication, params string[] packages) => new()
    {
        Path = "/w/A/A.csproj",
        IsTestProjectProperty = isTestProject,
        OutputType = "Exe",
        TargetFrameworks = ["net10.0"],
        CompileItems = [],
        ProjectReferences = [],
        PackageReferences = [.. packages.Select(p => new EvaluatedPackageReference(p, "1.0.0"))],
        AnalyzerItems = [],
        IsTestingPlatformApplication = testingPlatformApplication,
    };

    [Fact]
    public void EvaluatedIsTestProjectWins_ThenTheTestingPlatform_ThenTheTestSdk()
    {
        Assert.Equal((true, TestProjectSource.Evaluated), ResultBuilder.ResolveIsTestProject(Project("true", false)));
        Assert.Equal((false, TestProjectSource.Evaluated), ResultBuilder.ResolveIsTestProject(Project("false", true, "Microsoft.NET.Test.Sdk")));
        Assert.Equal((true, TestProjectSource.TestingPlatformApplication), ResultBuilder.ResolveIsTestProject(Project(string.Empty, true)));
        Assert.Equal((true, TestProjectSource.TestSdkReference), ResultBuilder.ResolveIsTestProject(Project(string.Empty, false, "microsoft.net.test.sdk")));
        Assert.Equal((false, TestProjectSource.Absent), ResultBuilder.ResolveIsTestProject(Project(string.Empty, false, "Newtonsoft.Json")));
    }
}
