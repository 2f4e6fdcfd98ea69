using System.Text.Json.Nodes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.FindSymbols;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// Raw LSP call and type hierarchy on fixtures/MultiTargetHierarchy (a netstandard2.0;netstandard2.1 library
/// consumed by net10.0 and netstandard2.0 projects): items in the LSP shapes with zero-based ranges, and
/// subtypes and incoming calls equal to a direct Roslyn search from every flavour of the library.
/// </summary>
[Collection(MultiTargetHierarchyCollection.Name)]
public sealed class LspHierarchyTests(LoadedFixture.MultiTargetHierarchy fx)
{
    private string Uri(string relative) => new Uri(Path.Combine(fx.Workspace.Root, relative)).AbsoluteUri;

    private async Task<JsonNode?> RequestAsync(string method, JsonObject parameters)
    {
        LspRequestResult result = await fx.Invoke<LspRequestResult>(
            ProtocolMethods.LspRequest,
            new LspRequestParams { Workspace = fx.Workspace.Root, Method = method, Params = parameters.ToJsonString(), Tool = "test-tool" });
        return JsonNode.Parse(result.Json);
    }

    /// <summary>The zero-based position of the first <paramref name="text"/> in a file, and that request's params.</summary>
    private (JsonObject Params, int Line, int Character) At(string relative, string text)
    {
        string[] lines = File.ReadAllLines(Path.Combine(fx.Workspace.Root, relative));
        int line = Array.FindIndex(lines, l => l.Contains(text, StringComparison.Ordinal));
        Assert.True(line >= 0, $"{text} not in {relative}");
        int character = lines[line].IndexOf(text, StringComparison.Ordinal);
        return (new JsonObject
        {
            ["textDocument"] = new JsonObject { ["uri"] = this.Uri(relative) },
            ["position"] = new JsonObject { ["line"] = line, ["character"] = character },
        }, line, character);
    }

    private static (string Uri, int Line, int Character) Start(JsonNode item) =>
        (item["uri"]!.GetValue<string>(), item["selectionRange"]!["start"]!["line"]!.GetValue<int>(), item["selectionRange"]!["start"]!["character"]!.GetValue<int>());

    private async Task<JsonNode> PrepareAsync(string method, string relative, string text)
    {
        JsonArray items = (await this.RequestAsync(method, this.At(relative, text).Params))!.AsArray();
        return Assert.Single(items)!;
    }

    [Fact]
    public async Task TypeHierarchy_SubtypesOfAnInterface_AreTheDirectOnesOfEveryFlavour()
    {
        JsonNode shape = await this.PrepareAsync("textDocument/prepareTypeHierarchy", "Lib/Shapes.cs", "IShape");
        (JsonObject _, int line, int character) = this.At("Lib/Shapes.cs", "IShape");
        Assert.Equal(("IShape", 11, "Lib.IShape"), (shape["name"]!.GetValue<string>(), shape["kind"]!.GetValue<int>(), shape["detail"]!.GetValue<string>()));
        Assert.Equal((this.Uri("Lib/Shapes.cs"), line, character), Start(shape));
        Assert.Equal(line, shape["range"]!["start"]!["line"]!.GetValue<int>());
        Assert.Equal(line + 3, shape["range"]!["end"]!["line"]!.GetValue<int>()); // the whole declaration, braces included

        JsonArray subtypes = (await this.RequestAsync("typeHierarchy/subtypes", new JsonObject { ["item"] = shape.DeepClone() }))!.AsArray();
        List<string> direct = await this.DirectSubtypesOfIShapeAsync();
        Assert.Equal(["Legacy.Hexagon", "Lib.ShapeBase", "More.Triangle", "Shapes.Square", "Transitive.FakeShape"], direct);
        Assert.Equal(direct, subtypes.Select(s => s!["detail"]!.GetValue<string>()).Order(StringComparer.Ordinal));
        Assert.Equal(subtypes.Select(s => Start(s!)).OrderBy(s => s.Uri, StringComparer.Ordinal).ThenBy(s => s.Line).ThenBy(s => s.Character), subtypes.Select(s => Start(s!)));

        // Circle reaches IShape only through ShapeBase: a subtype of ShapeBase, whose supertype is ShapeBase alone.
        JsonNode shapeBase = Assert.Single(subtypes, s => s!["name"]!.GetValue<string>() == "ShapeBase")!;
        JsonNode circle = Assert.Single((await this.RequestAsync("typeHierarchy/subtypes", new JsonObject { ["item"] = shapeBase.DeepClone() }))!.AsArray())!;
        Assert.Equal(("Circle", this.Uri("Shapes/Circle.cs")), (circle["name"]!.GetValue<string>(), circle["uri"]!.GetValue<string>()));
        JsonArray supertypes = (await this.RequestAsync("typeHierarchy/supertypes", new JsonObject { ["item"] = circle.DeepClone() }))!.AsArray();
        Assert.Equal(["ShapeBase"], supertypes.Select(s => s!["name"]!.GetValue<string>()));
        JsonArray ofBase = (await this.RequestAsync("typeHierarchy/supertypes", new JsonObject { ["item"] = shapeBase.DeepClone() }))!.AsArray();
        Assert.Equal(["IShape"], ofBase.Select(s => s!["name"]!.GetValue<string>())); // object has no source: not an item
    }

    [Fact]
    public async Task CallHierarchy_OfAMemberUnderIf_FindsTheCallersOfEveryFlavour_AndItsOwnCalls()
    {
        // Clean's netstandard2.1 declaration (the first one) is active in one flavour only.
        JsonNode clean = await this.PrepareAsync("textDocument/prepareCallHierarchy", "Lib/Text.cs", "Clean(");
        Assert.Equal(("Clean", 6, "Lib.Text.Clean(string)"), (clean["name"]!.GetValue<string>(), clean["kind"]!.GetValue<int>(), clean["detail"]!.GetValue<string>()));

        JsonArray incoming = (await this.RequestAsync("callHierarchy/incomingCalls", new JsonObject { ["item"] = clean.DeepClone() }))!.AsArray();
        Assert.Equal(["Legacy.Hexagon.Label()", "Shapes.Circle.Name()", "Transitive.FakeShape.Label()"], incoming.Select(c => c!["from"]!["detail"]!.GetValue<string>()).Order(StringComparer.Ordinal));
        JsonNode fromCircle = Assert.Single(incoming, c => c!["from"]!["name"]!.GetValue<string>() == "Name")!;
        (JsonObject _, int line, int character) = this.At("Shapes/Circle.cs", "Clean(");
        JsonObject range = new()
        {
            ["start"] = new JsonObject { ["line"] = line, ["character"] = character },
            ["end"] = new JsonObject { ["line"] = line, ["character"] = character + "Clean".Length },
        };
        Assert.True(JsonNode.DeepEquals(new JsonArray(range), fromCircle["fromRanges"]), fromCircle["fromRanges"]!.ToJsonString());

        JsonArray outgoing = (await this.RequestAsync("callHierarchy/outgoingCalls", new JsonObject { ["item"] = fromCircle["from"]!.DeepClone() }))!.AsArray();
        JsonNode call = Assert.Single(outgoing)!; // string.Trim and the rest are metadata: no items
        Assert.Equal("Lib.Text.Clean(string)", call["to"]!["detail"]!.GetValue<string>());
        Assert.True(JsonNode.DeepEquals(new JsonArray(range.DeepClone()), call["fromRanges"]), call["fromRanges"]!.ToJsonString());
    }

    [Fact]
    public async Task PrepareOnWhatIsNotAHierarchyMember_IsEmpty_AndAStaleItemIsATypedError()
    {
        JsonArray onNamespace = (await this.RequestAsync("textDocument/prepareCallHierarchy", this.At("Lib/Shapes.cs", "Lib;").Params))!.AsArray();
        Assert.Empty(onNamespace);
        JsonArray onMethod = (await this.RequestAsync("textDocument/prepareTypeHierarchy", this.At("Lib/Shapes.cs", "Area").Params))!.AsArray();
        Assert.Empty(onMethod);

        JsonObject stale = new()
        {
            ["item"] = new JsonObject
            {
                ["uri"] = this.Uri("Lib/Shapes.cs"),
                ["selectionRange"] = new JsonObject { ["start"] = new JsonObject { ["line"] = 900, ["character"] = 0 } },
            },
        };
        StreamJsonRpc.RemoteInvocationException error = await Assert.ThrowsAsync<StreamJsonRpc.RemoteInvocationException>(() => this.RequestAsync("typeHierarchy/subtypes", stale));
        Assert.Contains("item.selectionRange.start 900:0 (zero-based) is outside Lib/Shapes.cs (", error.Message, StringComparison.Ordinal);
    }

    /// <summary>Roslyn directly: the direct derived interfaces and implementations of IShape from each flavour of Lib, merged.</summary>
    private async Task<List<string>> DirectSubtypesOfIShapeAsync()
    {
        await fx.Host.InspectAsync(fx.Workspace.Root);
        using ContextLease lease = await fx.Host.CachedLeaseAsync(fx.Workspace.Root);
        HashSet<string> names = new(StringComparer.Ordinal);
        foreach (Project flavour in lease.Solution.Projects.Where(p => p.Name.StartsWith("Lib", StringComparison.Ordinal)))
        {
            INamedTypeSymbol shape = (await flavour.GetCompilationAsync())!.GetTypeByMetadataName("Lib.IShape")!;
            foreach (INamedTypeSymbol found in (await SymbolFinder.FindImplementationsAsync(shape, lease.Solution, transitive: false))
                .Concat(await SymbolFinder.FindDerivedInterfacesAsync(shape, lease.Solution, transitive: false)))
            {
                names.Add(found.ToDisplayString());
            }
        }

        return [.. names.Order(StringComparer.Ordinal)];
    }
}
