using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using SharpClaw.Server.Semantic.Cache;

namespace SharpClaw.Server.Tests;

/// <summary>
/// Which of a load's failures make it partial (<see cref="ContextLoader.ClassifyLoadFailure"/>). Under load, Roslyn's
/// MSBuildWorkspace logged "[BuildHost PID …] The BuildHost process is not responding" as a failure when its build
/// host did not answer the shutdown at the end of a load that had given every project with its documents (seen in
/// CI at load average 14–32, in ParallelLoadTests' baseline): a failure naming no project counted against the
/// solution, so a complete load was reported as a failed one.
/// </summary>
public sealed class LoadFailureClassificationTests
{
    private const string Solution = "/w/App.slnx";

    [Fact]
    public void AFailureNamingNoProject_OnALoadWhereEveryProjectCameWithItsDocuments_LeavesItUsable()
    {
        using AdhocWorkspace workspace = new();
        Solution solution = WithProject(WithProject(workspace.CurrentSolution, "/w/A/A.csproj", documents: 1), "/w/B/B.csproj", documents: 2);
        WorkspaceDiagnostic buildHost = new(WorkspaceDiagnosticKind.Failure, "[BuildHost PID 1013] The BuildHost process is not responding. Process output:\ninfo: Loading /w/A/A.csproj\ninfo: RPC channel closed; process exiting.");

        Assert.Equal((Solution, true), ContextLoader.ClassifyLoadFailure(buildHost, solution, Solution));
    }

    [Fact]
    public void AFailureNamingNoProject_WhenAProjectCameWithoutDocuments_IsAFailure()
    {
        using AdhocWorkspace workspace = new();
        Solution solution = WithProject(WithProject(workspace.CurrentSolution, "/w/A/A.csproj", documents: 1), "/w/B/B.csproj", documents: 0);
        WorkspaceDiagnostic failure = new(WorkspaceDiagnosticKind.Failure, "The BuildHost process exited unexpectedly.");

        Assert.Equal((Solution, false), ContextLoader.ClassifyLoadFailure(failure, solution, Solution));
    }

    [Fact]
    public void AFailureNamingAProject_IsThatProjects_AndUsableOnlyWhenItCameWithItsDocuments()
    {
        using AdhocWorkspace workspace = new();
        Solution solution = WithProject(WithProject(workspace.CurrentSolution, "/w/A/A.csproj", documents: 1), "/w/B/B.csproj", documents: 0);

        Assert.Equal(("/w/B/B.csproj", false), ContextLoader.ClassifyLoadFailure(new WorkspaceDiagnostic(WorkspaceDiagnosticKind.Failure, "Msbuild failed when processing the file '/w/B/B.csproj' with message: boom"), solution, Solution));
        Assert.Equal(("/w/A/A.csproj", true), ContextLoader.ClassifyLoadFailure(new WorkspaceDiagnostic(WorkspaceDiagnosticKind.Failure, "Msbuild failed when processing the file '/w/A/A.csproj' with message: a warning-like error"), solution, Solution));
        Assert.Equal(("/w/C/C.csproj", false), ContextLoader.ClassifyLoadFailure(new WorkspaceDiagnostic(WorkspaceDiagnosticKind.Failure, "Msbuild failed when processing the file '/w/C/C.csproj' with message: not in the solution"), solution, Solution));
    }

    private static Solution WithProject(Solution solution, string path, int documents)
    {
        ProjectId id = ProjectId.CreateNewId();
        string name = System.IO.Path.GetFileNameWithoutExtension(path);
        solution = solution.AddProject(ProjectInfo.Create(id, VersionStamp.Default, name, name, LanguageNames.CSharp, filePath: path));
        for (int i = 0; i < documents; i++)
        {
            solution = solution.AddDocument(DocumentId.CreateNewId(id), $"F{i}.cs", SourceText.From($"class C{i} {{ }}"), filePath: $"{System.IO.Path.GetDirectoryName(path)}/F{i}.cs");
        }

        return solution;
    }
}
