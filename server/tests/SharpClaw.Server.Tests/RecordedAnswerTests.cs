using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Nodes;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Tests.Infrastructure;
using StreamJsonRpc;

namespace SharpClaw.Server.Tests;

/// <summary>
/// The recorded host answers (test/host-answers/&lt;Fixture&gt;/&lt;query&gt;.json, rendered by the unit tests
/// through the client's real pipeline: test/support/hostAnswers.ts) are what the host answers today. Each
/// recording's params go to a live host on a restored copy of its fixture over the real JSON-RPC
/// serialization, and the answer as it travelled (result, or error code, message and data; the workspace
/// folder as $WORKSPACE) must equal the recorded one. SHARPCLAW_RECORD_HOST_ANSWERS=1 writes the live answer
/// into the file instead (review the diff). One host per fixture, loaded once for all its recordings.
/// </summary>
public sealed class RecordedAnswerTests
{
    private const string WorkspacePlaceholder = "$WORKSPACE";

    private static readonly JsonSerializerOptions Written = new() { WriteIndented = true, Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    private static bool Rewriting => Environment.GetEnvironmentVariable("SHARPCLAW_RECORD_HOST_ANSWERS") == "1";

    /// <summary>Fixtures whose recordings are checked on the host their collection already loaded (the classes below).</summary>
    internal static readonly string[] CheckedInTheirCollection = [ExtensionMembersCollection.Name, MultiTargetHierarchyCollection.Name, TestReachCollection.Name];

    public static TheoryData<string> Fixtures()
    {
        TheoryData<string> data = [];
        foreach (string folder in Directory.EnumerateDirectories(TestPaths.HostAnswers).Order(StringComparer.Ordinal))
        {
            if (!CheckedInTheirCollection.Contains(Path.GetFileName(folder)))
            {
                data.Add(Path.GetFileName(folder));
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Fixtures))]
    public async Task TheHostStillGivesTheRecordedAnswers(string fixture)
    {
        JsonObject spec = Spec(fixture);
        string[] restore = [.. (spec["restore"]?.AsArray() ?? []).Select(t => t!.GetValue<string>())];
        using FixtureWorkspace workspace = restore.Length > 0 ? FixtureWorkspace.Restored(fixture, restore) : FixtureWorkspace.Copy(fixture);
        using TempDirectory state = new();
        await using SemanticHost host = await SemanticHost.StartAsync(new HostServerOptions { StateRoot = state.Path });
        await CheckAsync(fixture, workspace, host);
    }

    [Fact]
    public void EveryFixtureCheckedInItsCollection_HasRecordings()
    {
        foreach (string fixture in CheckedInTheirCollection)
        {
            Assert.True(Directory.Exists(Path.Combine(TestPaths.HostAnswers, fixture)), fixture);
        }
    }

    private static JsonObject Spec(string fixture) =>
        JsonNode.Parse(File.ReadAllText(Path.Combine(TestPaths.HostAnswers, fixture, "fixture.json")))!.AsObject();

    /// <summary>Sends every recording of <paramref name="fixture"/> to <paramref name="host"/> and compares (or, rewriting, records) the answers.</summary>
    internal static async Task CheckAsync(string fixture, FixtureWorkspace workspace, SemanticHost host)
    {
        string folder = Path.Combine(TestPaths.HostAnswers, fixture);
        HashSet<string> volatileFields = [.. (Spec(fixture)["volatile"]?.AsArray() ?? []).Select(t => t!.GetValue<string>())];
        List<string> differences = [];
        string[] files = [.. Directory.EnumerateFiles(folder, "*.json").Where(f => Path.GetFileName(f) != "fixture.json").Order(StringComparer.Ordinal)];
        Assert.NotEmpty(files);
        foreach (string file in files)
        {
            string id = $"{fixture}/{Path.GetFileNameWithoutExtension(file)}";
            JsonObject recorded = JsonNode.Parse(File.ReadAllText(file))!.AsObject();
            string method = recorded["method"]?.GetValue<string>() ?? throw new InvalidOperationException($"{id} names no method: run the unit tests with SHARPCLAW_RECORD_HOST_ANSWERS=1 first.");
            JsonObject parameters = recorded["params"]!.DeepClone().AsObject();
            parameters["workspace"] = workspace.Root;
            (string kind, JsonNode? live) = await AnswerAsync(host, method, parameters);
            live = Placeholders(live, workspace.Root);

            string stale = kind == "result" ? "error" : "result";
            string? difference = recorded.ContainsKey(stale) ? $"the host now answers with {kind}, the recording has {stale}"
                : !recorded.ContainsKey(kind) ? "no answer recorded yet"
                : FirstDifference(kind, recorded[kind], live, volatileFields);
            if (difference is null)
            {
                continue;
            }

            if (Rewriting)
            {
                recorded.Remove(stale);
                recorded[kind] = live;
                File.WriteAllText(file, recorded.ToJsonString(Written) + "\n");
            }
            else
            {
                differences.Add($"{id}: {difference}");
            }
        }

        Assert.True(
            differences.Count == 0,
            $"The host's answers differ from the recorded ones (SHARPCLAW_RECORD_HOST_ANSWERS=1 rewrites them; then the unit tests show what changed for the client):\n{string.Join("\n", differences)}");
    }

    /// <summary>The host's answer as it travelled: ("result", the JSON) or ("error", its code, message and data).</summary>
    private static async Task<(string Kind, JsonNode? Answer)> AnswerAsync(SemanticHost host, string method, JsonObject parameters)
    {
        try
        {
            JsonElement result = await Poll.WithTimeout(
                host.Host.Client.InvokeWithParameterObjectAsync<JsonElement>(method, InMemoryHost.NamedParams(parameters.ToJsonString())),
                SemanticHost.Timeout,
                method);
            return ("result", JsonNode.Parse(result.GetRawText()));
        }
        catch (RemoteInvocationException error)
        {
            JsonObject answer = new() { ["code"] = error.ErrorCode, ["message"] = error.Message };
            if (error.ErrorData is JsonElement data)
            {
                answer["data"] = JsonNode.Parse(data.GetRawText());
            }

            return ("error", answer);
        }
    }

    /// <summary>The workspace folder (wherever this run copied the fixture) written as the placeholder.</summary>
    private static JsonNode? Placeholders(JsonNode? node, string workspace) => node switch
    {
        JsonObject o => new JsonObject(o.Select(p => KeyValuePair.Create(p.Key, Placeholders(p.Value, workspace)))),
        JsonArray a => new JsonArray([.. a.Select(item => Placeholders(item, workspace))]),
        JsonValue v when v.GetValueKind() == JsonValueKind.String => JsonValue.Create(v.GetValue<string>().Replace(workspace, WorkspacePlaceholder, StringComparison.Ordinal)),
        _ => node?.DeepClone(),
    };

    /// <summary>Where the recorded and the live answer first differ (null: equal), skipping the fixture's volatile fields.</summary>
    private static string? FirstDifference(string path, JsonNode? recorded, JsonNode? live, HashSet<string> volatileFields)
    {
        switch (recorded, live)
        {
            case (JsonObject r, JsonObject l):
                foreach (string name in r.Select(p => p.Key).Union(l.Select(p => p.Key)))
                {
                    if (volatileFields.Contains(name))
                    {
                        continue;
                    }

                    if (!r.ContainsKey(name) || !l.ContainsKey(name))
                    {
                        return $"{path}.{name} is {(r.ContainsKey(name) ? "recorded but no longer sent" : "sent but not recorded")}";
                    }

                    string? inner = FirstDifference($"{path}.{name}", r[name], l[name], volatileFields);
                    if (inner is not null)
                    {
                        return inner;
                    }
                }

                return null;
            case (JsonArray r, JsonArray l):
                for (int i = 0; i < Math.Min(r.Count, l.Count); i++)
                {
                    string? inner = FirstDifference($"{path}[{i}]", r[i], l[i], volatileFields);
                    if (inner is not null)
                    {
                        return inner;
                    }
                }

                return r.Count == l.Count ? null : $"{path} has {l.Count} items, {r.Count} recorded";
            default:
                return JsonNode.DeepEquals(recorded, live) ? null : $"{path} is {Show(live)}, recorded {Show(recorded)}";
        }
    }

    private static string Show(JsonNode? node)
    {
        string text = node?.ToJsonString() ?? "null";
        return text.Length > 300 ? text[..300] + "…" : text;
    }
}

/// <summary>The recordings of fixtures/ExtensionMembers, on the host its collection loaded.</summary>
[Collection(ExtensionMembersCollection.Name)]
public sealed class ExtensionMembersRecordedAnswerTests(LoadedFixture.ExtensionMembers fx)
{
    [Fact]
    public Task TheHostStillGivesTheRecordedAnswers() => RecordedAnswerTests.CheckAsync(fx.Name, fx.Workspace, fx.Host);
}

/// <summary>The recordings of fixtures/MultiTargetHierarchy, on the host its collection loaded.</summary>
[Collection(MultiTargetHierarchyCollection.Name)]
public sealed class MultiTargetHierarchyRecordedAnswerTests(LoadedFixture.MultiTargetHierarchy fx)
{
    [Fact]
    public Task TheHostStillGivesTheRecordedAnswers() => RecordedAnswerTests.CheckAsync(fx.Name, fx.Workspace, fx.Host);
}

/// <summary>The recordings of fixtures/TestReach, on the host its collection loaded.</summary>
[Collection(TestReachCollection.Name)]
public sealed class TestReachRecordedAnswerTests(LoadedFixture.TestReach fx)
{
    [Fact]
    public Task TheHostStillGivesTheRecordedAnswers() => RecordedAnswerTests.CheckAsync(fx.Name, fx.Workspace, fx.Host);
}
