using Microsoft.CodeAnalysis;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Protocol.Status;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>What solutionInspect and projectGraph report: frameworks, test projects, analyzers.</summary>
public sealed class InspectTests
{
    [Fact]
    public async Task IsTestProject_ExplicitFalseWins_TestSdkCountsOnlyWhenAbsent()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("TestProjectRules");
        await using SemanticHost host = await SemanticHost.StartAsync();

        // Unrestored: the test SDK's props are not imported, so only its PackageReference can tell.
        ProjectGraphResult unrestored = await host.GraphAsync(fixture.Root);
        Assert.Equal(
            [
                ("ExplicitFalse/ExplicitFalse.csproj", false, TestProjectSource.Evaluated),
                ("ExplicitTrue/ExplicitTrue.csproj", true, TestProjectSource.Evaluated),
                ("Plain/Plain.csproj", false, TestProjectSource.Absent),
                ("TestSdkOnly/TestSdkOnly.csproj", true, TestProjectSource.TestSdkReference),
            ],
            unrestored.Projects.Select(p => (p.Path, p.IsTestProject, p.IsTestProjectSource)).OrderBy(p => p.Path, StringComparer.Ordinal));
        Assert.All(unrestored.Projects, p => Assert.False(p.Restored));

        // Restored (a restored copy from the fixture cache, in the same host: restoring this copy in place ran a
        // dotnet restore every run): the test SDK sets IsTestProject itself (evaluated true); the project's explicit false still wins.
        using FixtureWorkspace restoredCopy = FixtureWorkspace.Restored("TestProjectRules", "TestProjectRules.slnx");
        SolutionInspectResult restored = await host.InspectAsync(restoredCopy.Root);
        Assert.Equal(
            [
                ("ExplicitFalse/ExplicitFalse.csproj", false, TestProjectSource.Evaluated),
                ("ExplicitTrue/ExplicitTrue.csproj", true, TestProjectSource.Evaluated),
                ("Plain/Plain.csproj", false, TestProjectSource.Absent),
                ("TestSdkOnly/TestSdkOnly.csproj", true, TestProjectSource.Evaluated),
            ],
            restored.Projects.Select(p => (p.Path, p.IsTestProject, p.IsTestProjectSource)).OrderBy(p => p.Path, StringComparer.Ordinal));
        InspectedProject explicitFalse = Assert.Single(restored.Projects, p => p.Path == "ExplicitFalse/ExplicitFalse.csproj");
        RestoredPackage testSdk = Assert.Single(explicitFalse.Packages);
        Assert.Equal(new RestoredPackage("Microsoft.NET.Test.Sdk", "[18.11.0, )", "18.11.0", "net10.0"), testSdk);
    }

    [Fact]
    public async Task ProjectAndPackageAnalyzers_AreRemovedFromTheSolution_AndReportedPerProject()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("CustomAnalyzers", "CustomAnalyzers.slnx");
        await using SemanticHost host = await SemanticHost.StartAsync();

        // Before any load the graph reports what evaluation and the assets files show.
        ProjectGraphResult early = await host.GraphAsync(fixture.Root);
        ExcludedAnalyzers earlyApp = Assert.Single(early.ExcludedAnalyzers, e => e.Project == "App/App.csproj");
        Assert.Contains(earlyApp.Analyzers, a => a.Path == "Generator/Generator.csproj" && a.Origin == AnalyzerOrigin.Project);
        Assert.Contains(earlyApp.Analyzers, a => a.Name == "xunit.analyzers.dll" && a.Package == "xunit.analyzers/1.18.0");

        SolutionInspectResult result = await host.InspectAsync(fixture.Root);

        ExcludedAnalyzers app = Assert.Single(result.ExcludedAnalyzers, e => e.Project == "App/App.csproj");
        Assert.Equal("net10.0", app.TargetFramework);
        ExcludedAnalyzer projectGenerator = Assert.Single(app.Analyzers, a => a.Origin == AnalyzerOrigin.Project);
        Assert.Equal(("Generator/bin/Debug/net10.0/Generator.dll", "Generator.dll", (string?)null), (projectGenerator.Path, projectGenerator.Name, projectGenerator.Package));
        Assert.Contains(app.Analyzers, a => a is { Name: "xunit.analyzers.dll", Origin: AnalyzerOrigin.Package, Package: "xunit.analyzers/1.18.0" });

        using ContextLease lease = await host.CachedLeaseAsync(fixture.Root);
        foreach (Project project in lease.Solution.Projects)
        {
            Assert.All(project.AnalyzerReferences, a => Assert.True(host.Cache.Loader.Trust.IsTrusted(a.FullPath), $"{project.Name} kept {a.FullPath}"));
        }

        // The graph now reports the loaded context's exact list.
        ProjectGraphResult graph = await host.GraphAsync(fixture.Root);
        Assert.Equal(result.ExcludedAnalyzers.Select(e => (e.Project, e.Analyzers.Count)), graph.ExcludedAnalyzers.Select(e => (e.Project, e.Analyzers.Count)));
    }

    [Fact]
    public async Task ProjectGraph_ReportsEvaluatedItemsReferencesAndImports_AndIsCached()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("Calculator", "Calculator.slnx");
        await using SemanticHost host = await SemanticHost.StartAsync();

        ProjectGraphResult graph = await host.GraphAsync(fixture.Root);

        Assert.False(graph.FromCache);
        Assert.Equal(EvaluationReason.ColdLoad, Assert.Single(host.Client.AuthorizationRequests).Reason);
        Assert.Equal(0, host.Cache.LoadCount); // Evaluation only: no Roslyn workspace was loaded.
        ProjectGraphNode tests = Assert.Single(graph.Projects, p => p.Path == "tests/Calculator.Tests/Calculator.Tests.csproj");
        Assert.True(tests.IsTestProject);
        Assert.Equal("tests/Calculator.Tests/CalculatorTests.cs", tests.CompileItems[0]);
        Assert.Contains(tests.CompileItems, c => c.EndsWith("Microsoft.NET.Test.Sdk.Program.cs", StringComparison.Ordinal) && Path.IsPathFullyQualified(c)); // from the package: absolute
        Assert.Equal(["src/Calculator.Core/Calculator.Core.csproj"], tests.ProjectReferences);
        Assert.Equal(("tests/Calculator.Tests/obj/project.assets.json", true, "Exe"), (tests.AssetsFile, tests.Restored, tests.OutputType));
        Assert.Contains("tests/Calculator.Tests/obj/Calculator.Tests.csproj.nuget.g.props", tests.Imports);
        Assert.DoesNotContain(tests.Imports, i => i.StartsWith('/'));
        ProjectGraphNode core = Assert.Single(graph.Projects, p => p.Path == "src/Calculator.Core/Calculator.Core.csproj");
        Assert.Equal(["src/Calculator.Core/Calculator.cs", "src/Calculator.Core/ICalculator.cs"], core.CompileItems.Order(StringComparer.Ordinal));
        Assert.Equal(["net10.0"], core.TargetFrameworks);

        Assert.True((await host.GraphAsync(fixture.Root)).FromCache);
        Assert.Single(host.Client.AuthorizationRequests);

        // A new source file changes the compile items: evaluate again (after asking).
        fixture.Write("src/Calculator.Core/Extra.cs", "namespace Calculator.Core;\n\ninternal static class Extra\n{\n}\n");
        ProjectGraphResult again = await host.GraphAsync(fixture.Root);
        Assert.False(again.FromCache);
        Assert.Contains("src/Calculator.Core/Extra.cs", host.Client.AuthorizationRequests[^1].ChangedFiles);
        Assert.Contains("src/Calculator.Core/Extra.cs", again.Projects.Single(p => p.Path == core.Path).CompileItems);

        // ...but an edit inside a source file does not.
        fixture.Edit("src/Calculator.Core/Extra.cs", t => t.Replace("Extra", "ExtraRenamed", StringComparison.Ordinal));
        Assert.True((await host.GraphAsync(fixture.Root)).FromCache);
    }

    /// <summary>
    /// OutputType is what a build of each framework sees: a multi-targeted test project is Exe (its outer
    /// evaluation says Library, since Microsoft.NET.Test.Sdk sets Exe only per framework).
    /// </summary>
    [Fact]
    public async Task OutputType_OfAMultiTargetedProject_IsWhatEachFrameworksEvaluationSays()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("MultiTargetOutputType", "MultiTargetOutputType.slnx");
        await using SemanticHost host = await SemanticHost.StartAsync();

        string MsBuild(string project, string framework)
        {
            (int exitCode, string output) = FixtureWorkspace.Dotnet(fixture.Root, ["msbuild", project, "-getProperty:OutputType", $"-p:TargetFramework={framework}"]);
            Assert.True(exitCode == 0, output);
            return output.Trim();
        }

        Assert.Equal(("Exe", "Exe"), (MsBuild("Tests/Tests.csproj", "net8.0"), MsBuild("Tests/Tests.csproj", "net10.0")));
        Assert.Equal(("Library", "Exe"), (MsBuild("Mixed/Mixed.csproj", "netstandard2.0"), MsBuild("Mixed/Mixed.csproj", "net10.0")));

        SolutionInspectResult inspect = await host.InspectAsync(fixture.Root);
        Assert.Equal(
            [("Lib/Lib.csproj", "Library"), ("Mixed/Mixed.csproj", "Library (netstandard2.0), Exe (net10.0)"), ("Tests/Tests.csproj", "Exe")],
            inspect.Projects.Select(p => (p.Path, p.OutputType)).OrderBy(p => p.Path, StringComparer.Ordinal));
        ProjectGraphResult graph = await host.GraphAsync(fixture.Root);
        Assert.Equal("Exe", Assert.Single(graph.Projects, p => p.Path == "Tests/Tests.csproj").OutputType);
    }
}
