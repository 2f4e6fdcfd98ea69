using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.Json.Serialization.Metadata;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Lifecycle;
using SharpClaw.Protocol.Status;
using SharpClaw.Server.Hosting;

namespace SharpClaw.Server.Tests;

/// <summary>The wire shapes the TypeScript side relies on.</summary>
public sealed class ProtocolTests
{
    private static readonly HostStatus SampleStatus = new(
        HostVersion: "0.1.0",
        RoslynVersion: "5.12.0",
        Runtime: new RuntimeInfo(".NET 10.0.12", "linux-x64", null),
        Sdks: [new SdkInfo("10.0.401", "/usr/share/dotnet/sdk/10.0.401")],
        LoadedContexts: [],
        ProcessId: 1234,
        ClientProcessId: null,
        StartedAt: new DateTime(2026, 11, 29, 21, 0, 0, 123, DateTimeKind.Utc),
        LogFile: null);

    /// <summary>
    /// Every protocol type must be in ProtocolJsonContext; otherwise the host would silently fall
    /// back to the reflection resolver and the schema/zod mirror would miss it.
    /// </summary>
    [Fact]
    public void EveryProtocolRecord_IsSourceGenerated()
    {
        Type[] protocolTypes = typeof(ProtocolJsonContext).Assembly.GetExportedTypes()
            .Where(t => t.Namespace?.StartsWith("SharpClaw.Protocol.", StringComparison.Ordinal) == true && t.IsClass && !t.IsAbstract)
            .ToArray();
        Assert.NotEmpty(protocolTypes);

        IJsonTypeInfoResolver context = ProtocolJsonContext.Default;
        Assert.All(protocolTypes, type => Assert.True(
            context.GetTypeInfo(type, ProtocolJsonContext.Default.Options) is not null,
            $"{type.FullName} is not listed in ProtocolJsonContext."));
    }

    [Fact]
    public void HostStatus_UsesTheDocumentedCamelCaseMembers()
    {
        JsonObject json = JsonSerializer.SerializeToNode(SampleStatus, ProtocolJsonContext.Default.HostStatus)!.AsObject();

        Assert.Equal(
            ["hostVersion", "roslynVersion", "runtime", "sdks", "loadedContexts", "processId", "clientProcessId", "startedAt", "logFile"],
            json.Select(p => p.Key));
        Assert.Equal(["frameworkDescription", "runtimeIdentifier", "dotnetRoot"], json["runtime"]!.AsObject().Select(p => p.Key));
        Assert.Equal(["version", "path"], json["sdks"]![0]!.AsObject().Select(p => p.Key));
        Assert.Equal("2026-11-29T21:00:00.123Z", json["startedAt"]!.GetValue<string>());

        // Nullable members are present as null, never omitted.
        Assert.True(json.ContainsKey("clientProcessId") && json["clientProcessId"] is null);
        Assert.True(json.ContainsKey("logFile") && json["logFile"] is null);
    }

    [Fact]
    public void LoadedContext_UsesTheDocumentedMembers()
    {
        JsonObject json = JsonSerializer.SerializeToNode(
            SampleStatus with { LoadedContexts = [new LoadedContextInfo("/w/App.slnx", "Debug", null, 3, FromSnapshot: false)] },
            ProtocolJsonContext.Default.HostStatus)!["loadedContexts"]![0]!.AsObject();

        Assert.Equal(["target", "configuration", "targetFramework", "projectCount", "fromSnapshot"], json.Select(p => p.Key));
    }

    [Fact]
    public void InitializeResult_MatchesLsp()
    {
        InitializeResult result = new(new ServerCapabilities(TextDocumentSync: 1), new ServerInfo("sharpclaw-host", "0.1.0"));

        string json = JsonSerializer.Serialize(result, ProtocolJsonContext.Default.InitializeResult);

        Assert.Equal("""{"capabilities":{"textDocumentSync":1},"serverInfo":{"name":"sharpclaw-host","version":"0.1.0"}}""", json);
    }

    [Fact]
    public void InitializeParams_IgnoresUnknownMembersAndAcceptsNulls()
    {
        const string json = """
            { "processId": null, "rootUri": null, "capabilities": { "a": 1 }, "trace": "off", "locale": "de",
              "clientInfo": { "name": "Visual Studio Code" }, "workspaceFolders": null,
              "initializationOptions": { "logDirectory": "/tmp/x", "future": true } }
            """;

        InitializeParams parameters = JsonSerializer.Deserialize(json, ProtocolJsonContext.Default.InitializeParams)!;

        Assert.Null(parameters.ProcessId);
        Assert.Equal("Visual Studio Code", parameters.ClientInfo?.Name);
        Assert.Equal("/tmp/x", parameters.InitializationOptions?.LogDirectory);
        Assert.Equal(42, JsonSerializer.Deserialize("""{"processId":42}""", ProtocolJsonContext.Default.InitializeParams)!.ProcessId);
    }

    [Fact]
    public void HostStatus_MissingRequiredMember_IsRejected()
    {
        JsonObject json = JsonSerializer.SerializeToNode(SampleStatus, ProtocolJsonContext.Default.HostStatus)!.AsObject();
        json.Remove("roslynVersion");

        Assert.Throws<JsonException>(() => json.Deserialize(ProtocolJsonContext.Default.HostStatus));
    }

    [Fact]
    public void Schema_MarksNonNullableMembersRequiredAndNullableOnesNullable()
    {
        JsonObject schema = ProtocolSchema.Create()[ProtocolMethods.Status]!.AsObject();

        string[] required = [.. schema["required"]!.AsArray().Select(n => n!.GetValue<string>())];
        Assert.Equal(
            ["hostVersion", "roslynVersion", "runtime", "sdks", "loadedContexts", "processId", "clientProcessId", "startedAt", "logFile"],
            required);
        Assert.Equal("string", schema["properties"]!["hostVersion"]!["type"]!.GetValue<string>());
        Assert.Equal(["integer", "null"], schema["properties"]!["clientProcessId"]!["type"]!.AsArray().Select(n => n!.GetValue<string>()));
        Assert.Equal(["string", "null"], schema["properties"]!["logFile"]!["type"]!.AsArray().Select(n => n!.GetValue<string>()));
        Assert.Equal("date-time", schema["properties"]!["startedAt"]!["format"]!.GetValue<string>());

        JsonObject initialize = ProtocolSchema.Create()[ProtocolMethods.Initialize]!.AsObject();
        Assert.Equal(["capabilities", "serverInfo"], initialize["required"]!.AsArray().Select(n => n!.GetValue<string>()));
    }

    [Fact]
    public void RpcSerializerOptions_KeepTheContextsConventions()
    {
        JsonSerializerOptions options = RpcSerialization.CreateSerializerOptions();

        Assert.True(options.RespectNullableAnnotations);
        Assert.True(options.RespectRequiredConstructorParameters);
        Assert.Equal(
            JsonSerializer.Serialize(SampleStatus, ProtocolJsonContext.Default.HostStatus),
            JsonSerializer.Serialize(SampleStatus, options));
    }
}
