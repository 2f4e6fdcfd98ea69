using System.Text.Json;
using System.Text.Json.Nodes;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Hosting;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic;

namespace SharpClaw.Server.Tests;

/// <summary>The exact wire shapes of the semantic protocol (the TypeScript zod mirrors follow these).</summary>
public sealed class SemanticProtocolTests
{
    [Fact]
    public void ErrorData_HasKindMessageCandidatesProjectsCommand_WithNullsPresent()
    {
        SemanticErrorData data = new(SemanticErrorKind.TargetAmbiguous, "two", ["A.sln", "B.slnx"], null, null);

        JsonObject json = JsonSerializer.SerializeToNode(data, ProtocolJsonContext.Default.SemanticErrorData)!.AsObject();

        Assert.Equal(["kind", "message", "candidates", "projects", "command"], json.Select(p => p.Key));
        Assert.Equal("target_ambiguous", json["kind"]!.GetValue<string>());
        Assert.Null(json["projects"]);
        Assert.Null(json["command"]);
        JsonObject symbolError = JsonSerializer.SerializeToNode(
            new SemanticErrorData(SemanticErrorKind.AmbiguousSymbol, "m", ["A.B()"], null, null) { Symbols = [SymbolCandidate.Of("A.B()", "method", "A.cs", 1, 2, false)] },
            ProtocolJsonContext.Default.SemanticErrorData)!.AsObject();
        Assert.Equal(["kind", "message", "candidates", "projects", "command", "symbols"], symbolError.Select(p => p.Key));
        Assert.Equal("ambiguous_symbol", symbolError["kind"]!.GetValue<string>());
        Assert.Equal(
            """{"kind":"missing_prerequisites","message":"m","candidates":null,"projects":[{"path":"A/A.csproj","reason":"r"}],"command":"dotnet restore \u0022A.slnx\u0022"}""",
            JsonSerializer.Serialize(new SemanticErrorData(SemanticErrorKind.MissingPrerequisites, "m", null, [new ProjectIssue("A/A.csproj", "r")], "dotnet restore \"A.slnx\""), ProtocolJsonContext.Default.SemanticErrorData));
    }

    [Fact]
    public void ErrorKinds_AreSpelledLikeTheSpec()
    {
        Assert.Equal(
            [
                "target_ambiguous", "no_target", "permission_denied", "missing_prerequisites", "load_failed", "partial_load", "invalid_request", "ambiguous_symbol", "symbol_not_found", "ambiguous_file",
                "stale_edit", "unverified", "invalid_identifier", "rename_conflict", "new_errors", "outside_workspace", "generated_document",
                "linked_document_conflict", "edit_too_large", "write_failed", "content_changed", "nothing_to_undo", "read_only_file", "timeout", "cancelled",
            ],
            Enum.GetValues<SemanticErrorKind>().Select(k => JsonSerializer.Serialize(k, ProtocolJsonContext.Default.Options).Trim('"')));
    }

    [Fact]
    public void SemanticException_BecomesJsonRpcError32001_WithTheData()
    {
        SemanticException exception = SemanticException.PermissionDenied("no");

        StreamJsonRpc.LocalRpcException rpc = exception.ToRpcException();

        Assert.Equal(-32001, rpc.ErrorCode);
        Assert.Equal(ProtocolErrorCodes.SemanticError, rpc.ErrorCode);
        Assert.Same(exception.Error, rpc.ErrorData);
        Assert.Equal("no", rpc.Message);
    }

    [Fact]
    public void AuthorizeEvaluation_ParamsAndResult_Shapes()
    {
        AuthorizeEvaluationParams parameters = new("/w", "App.slnx", "Debug", null, EvaluationReason.StructuralChange, ["App/App.csproj"], "dotnet_solution_inspect", null);

        string json = JsonSerializer.Serialize(parameters, ProtocolJsonContext.Default.AuthorizeEvaluationParams);

        Assert.Equal(
            """{"workspace":"/w","target":"App.slnx","configuration":"Debug","targetFramework":null,"reason":"structuralChange","changedFiles":["App/App.csproj"],"tool":null,"call":null}""".Replace("\"tool\":null", "\"tool\":\"dotnet_solution_inspect\"", StringComparison.Ordinal),
            json);
        Assert.Equal(["coldLoad", "structuralChange", "dynamicImports"], Enum.GetValues<EvaluationReason>().Select(r => JsonSerializer.Serialize(r, ProtocolJsonContext.Default.Options).Trim('"')));

        // The client's answer: message is optional, granted is required.
        Assert.True(JsonSerializer.Deserialize("""{"granted":true}""", ProtocolJsonContext.Default.AuthorizeEvaluationResult)!.Granted);
        Assert.Equal("no", JsonSerializer.Deserialize("""{"granted":false,"message":"no"}""", ProtocolJsonContext.Default.AuthorizeEvaluationResult)!.Message);
        Assert.Throws<JsonException>(() => JsonSerializer.Deserialize("""{"message":"x"}""", ProtocolJsonContext.Default.AuthorizeEvaluationResult));
    }

    [Fact]
    public void LoadProgress_Shape()
    {
        string json = JsonSerializer.Serialize(new LoadProgressParams(ProgressKind.Load, "App.slnx", "Debug", "net8.0", 2, 5, "src/A/A.csproj", 40), ProtocolJsonContext.Default.LoadProgressParams);

        Assert.Equal("""{"kind":"load","target":"App.slnx","configuration":"Debug","targetFramework":"net8.0","projectIndex":2,"projectCount":5,"currentProject":"src/A/A.csproj","percent":40}""", json);
    }

    [Fact]
    public void SolutionInspectAndProjectGraph_UseTheDocumentedMembers()
    {
        SolutionInspectResult inspect = new(
            "/w", "App.slnx", "Debug", null, LoadStatus.Partial, [new ProjectIssue("B/B.csproj", "MSB4025")], [],
            [new InspectedProject("A/A.csproj", "A", true, TestProjectSource.TestSdkReference, "Exe", ["net10.0"], ["net10.0"],
                [new RestoredPackage("xunit", "[2.9.3, )", "2.9.3", "net10.0")], ["B/B.csproj"], "A/obj/project.assets.json",
                [new ProjectCompilation("A", "net10.0", 3, true)])],
            [new ExcludedAnalyzers("A/A.csproj", "net10.0", [new ExcludedAnalyzer("/p/x.dll", "x.dll", AnalyzerOrigin.Package, "x/1.0.0")])],
            [],
            FromCache: true,
            FromSnapshot: false);
        JsonObject json = JsonSerializer.SerializeToNode(inspect, ProtocolJsonContext.Default.SolutionInspectResult)!.AsObject();

        Assert.Equal(["workspace", "target", "configuration", "targetFramework", "loadStatus", "partialLoad", "loadWarnings", "projects", "excludedAnalyzers", "dynamicImports", "fromCache", "fromSnapshot", "notLoaded", "listedProjects"], json.Select(p => p.Key));
        Assert.Equal("partial", json["loadStatus"]!.GetValue<string>());
        JsonObject project = json["projects"]![0]!.AsObject();
        Assert.Equal(
            ["path", "name", "isTestProject", "isTestProjectSource", "outputType", "targetFrameworks", "restoredTargetFrameworks", "packages", "projectReferences", "assetsFile", "compilations"],
            project.Select(p => p.Key));
        Assert.Equal("testSdkReference", project["isTestProjectSource"]!.GetValue<string>());
        Assert.Equal(["id", "requestedVersion", "resolvedVersion", "targetFramework"], project["packages"]![0]!.AsObject().Select(p => p.Key));
        Assert.Equal(["name", "targetFramework", "documentCount", "loaded"], project["compilations"]![0]!.AsObject().Select(p => p.Key));
        Assert.Equal(["project", "targetFramework", "analyzers"], json["excludedAnalyzers"]![0]!.AsObject().Select(p => p.Key));
        Assert.Equal(["path", "name", "origin", "package"], json["excludedAnalyzers"]![0]!["analyzers"]![0]!.AsObject().Select(p => p.Key));
        Assert.Equal("package", json["excludedAnalyzers"]![0]!["analyzers"]![0]!["origin"]!.GetValue<string>());

        ProjectGraphResult graph = new(
            "/w", "App.slnx", "Debug", "net8.0",
            [new ProjectGraphNode("A/A.csproj", false, TestProjectSource.Absent, ["net8.0"], "Library", null, false, ["A/X.cs"], [], ["Directory.Build.props"], ["A/data.json"], ["Newtonsoft.Json"], false, false, [new ProjectOutput("net8.0", "A/bin/Debug/net8.0/A.dll", "A/obj/Debug/net8.0/A.dll")])],
            [], [], [], FromCache: false);
        JsonObject graphJson = JsonSerializer.SerializeToNode(graph, ProtocolJsonContext.Default.ProjectGraphResult)!.AsObject();
        Assert.Equal(["workspace", "target", "configuration", "targetFramework", "projects", "excludedAnalyzers", "partialLoad", "dynamicImports", "fromCache", "buildCollection"], graphJson.Select(p => p.Key));
        Assert.Null(graphJson["buildCollection"]); // only an answer to an offer (BuildCollectionTests) carries one
        Assert.Equal(
            ["path", "isTestProject", "isTestProjectSource", "targetFrameworks", "outputType", "assetsFile", "restored", "compileItems", "projectReferences", "imports",
                "otherItems", "packageReferences", "isTestingPlatformApplication", "testingPlatformDotnetTestSupport", "outputs"],
            graphJson["projects"]![0]!.AsObject().Select(p => p.Key));
        Assert.Equal(["targetFramework", "targetPath", "intermediateAssembly"], graphJson["projects"]![0]!["outputs"]![0]!.AsObject().Select(p => p.Key));
        Assert.Null(graphJson["projects"]![0]!["assetsFile"]);
    }

    [Fact]
    public void RequestParams_AreAllOptional_SoMissingOnesBecomeTypedErrors()
    {
        SolutionInspectParams parameters = JsonSerializer.Deserialize("{}", ProtocolJsonContext.Default.SolutionInspectParams)!;
        Assert.Null(parameters.Workspace);

        SemanticException error = Assert.Throws<SemanticException>(() => SemanticWorkspaceService.CreateRequest(parameters));
        Assert.Equal(SemanticErrorKind.InvalidRequest, error.Kind);

        // No request member can authorize evaluation: unknown members (e.g. "force") are ignored.
        ProjectGraphParams withExtra = JsonSerializer.Deserialize("""{"workspace":"/w","force":true,"approved":true}""", ProtocolJsonContext.Default.ProjectGraphParams)!;
        Assert.Equal("/w", withExtra.Workspace);
        Assert.DoesNotContain(typeof(SolutionInspectParams).GetProperties(), p => p.PropertyType == typeof(bool) || p.PropertyType == typeof(bool?));
        Assert.DoesNotContain(typeof(ProjectGraphParams).GetProperties(), p => p.PropertyType == typeof(bool) || p.PropertyType == typeof(bool?));
    }

    [Fact]
    public void BadConfigurationOrFramework_IsInvalidRequest()
    {
        using Infrastructure.TempDirectory workspace = new();
        File.WriteAllText(Path.Combine(workspace.Path, "App.csproj"), "<Project />");

        Assert.Equal(SemanticErrorKind.InvalidRequest, Assert.Throws<SemanticException>(() => SemanticWorkspaceService.CreateRequest(new SolutionInspectParams { Workspace = workspace.Path, Configuration = "Debug;Foo=Bar" })).Kind);
        Assert.Equal(SemanticErrorKind.InvalidRequest, Assert.Throws<SemanticException>(() => SemanticWorkspaceService.CreateRequest(new SolutionInspectParams { Workspace = workspace.Path, TargetFramework = "$(Evil)" })).Kind);
        Assert.Equal(("Debug", (string?)null), (SemanticWorkspaceService.CreateRequest(new SolutionInspectParams { Workspace = workspace.Path }).Configuration, SemanticWorkspaceService.CreateRequest(new SolutionInspectParams { Workspace = workspace.Path, TargetFramework = " " }).TargetFramework));
    }

    [Fact]
    public void Schema_ExportsResultsServerToClientShapesAndErrorData()
    {
        JsonObject schemas = ProtocolSchema.Create();

        Assert.Equal(["kind", "message", "candidates", "projects", "command"], schemas["error:data"]!["required"]!.AsArray().Select(n => n!.GetValue<string>()));
        Assert.Equal(["granted"], schemas["sharpclaw/authorizeEvaluation:result"]!["required"]!.AsArray().Select(n => n!.GetValue<string>()));
        Assert.Equal(
            ["coldLoad", "structuralChange", "dynamicImports"],
            schemas["sharpclaw/authorizeEvaluation:params"]!["properties"]!["reason"]!["enum"]!.AsArray().Select(n => n!.GetValue<string>()));
        Assert.Equal(["integer", "null"], schemas["sharpclaw/loadProgress:params"]!["properties"]!["percent"]!["type"]!.AsArray().Select(n => n!.GetValue<string>()));
        Assert.Contains("partialLoad", schemas["sharpclaw/solutionInspect"]!["required"]!.AsArray().Select(n => n!.GetValue<string>()));
        Assert.Contains("ambiguous_symbol", schemas["error:data"]!["properties"]!["kind"]!["enum"]!.AsArray().Select(n => n!.GetValue<string>()));
        Assert.Contains("symbol_not_found", schemas["error:data"]!["properties"]!["kind"]!["enum"]!.AsArray().Select(n => n!.GetValue<string>()));
        Assert.Contains("omittedGenerated", schemas["sharpclaw/findReferences"]!["required"]!.AsArray().Select(n => n!.GetValue<string>()));
        Assert.Contains("implementations", schemas["sharpclaw/typeHierarchy"]!["required"]!.AsArray().Select(n => n!.GetValue<string>()));
        Assert.Contains("compileItems", schemas["sharpclaw/projectGraph"]!["properties"]!["projects"]!["items"]!["required"]!.AsArray().Select(n => n!.GetValue<string>()));
    }

    [Fact]
    public void SemanticRecords_SerializeIdenticallyThroughTheRpcOptions()
    {
        SemanticErrorData data = new(SemanticErrorKind.NoTarget, "none", [], null, null);
        Assert.Equal(
            JsonSerializer.Serialize(data, ProtocolJsonContext.Default.SemanticErrorData),
            JsonSerializer.Serialize(data, RpcSerialization.CreateSerializerOptions()));
    }
}
