using System.Text.Json.Nodes;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;
using StreamJsonRpc;

namespace SharpClaw.Server.Tests;

/// <summary>One restored copy of fixtures/Calculator and one host, for the raw LSP requests.</summary>
public sealed class LspCalculatorFixture : IAsyncLifetime
{
    internal FixtureWorkspace Workspace { get; private set; } = null!;

    internal SemanticHost Host { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        this.Workspace = FixtureWorkspace.Restored("Calculator", "Calculator.slnx");
        this.Host = await SemanticHost.StartAsync();
    }

    public async Task DisposeAsync()
    {
        await this.Host.DisposeAsync();
        this.Workspace.Dispose();
    }

    internal string Uri(string relative) => new Uri(Path.Combine(this.Workspace.Root, relative)).AbsoluteUri;

    /// <summary>Zero-based line and character of the <paramref name="occurrence"/>-th <paramref name="text"/> in a file.</summary>
    internal (int Line, int Character) Find(string relative, string text, int occurrence = 1)
    {
        string[] lines = File.ReadAllLines(Path.Combine(this.Workspace.Root, relative));
        for (int line = 0, seen = 0; line < lines.Length; line++)
        {
            for (int at = lines[line].IndexOf(text, StringComparison.Ordinal); at >= 0; at = lines[line].IndexOf(text, at + 1, StringComparison.Ordinal))
            {
                if (++seen == occurrence)
                {
                    return (line, at);
                }
            }
        }

        throw new InvalidOperationException($"{text} not found in {relative}");
    }

    internal async Task<JsonNode?> RequestAsync(string method, JsonObject parameters, bool? apply = null)
    {
        LspRequestResult result = await Poll.WithTimeout(
            this.Host.Host.Client.InvokeWithParameterObjectAsync<LspRequestResult>(
                ProtocolMethods.LspRequest,
                new LspRequestParams { Workspace = this.Workspace.Root, Method = method, Params = parameters.ToJsonString(), Apply = apply, Tool = "test-tool" }),
            SemanticHost.Timeout,
            method);
        return JsonNode.Parse(result.Json);
    }

    internal JsonObject At(string relative, (int Line, int Character) position) => new()
    {
        ["textDocument"] = new JsonObject { ["uri"] = this.Uri(relative) },
        ["position"] = new JsonObject { ["line"] = position.Line, ["character"] = position.Character },
    };
}

/// <summary>
/// <c>sharpclaw/lspRequest</c> on fixtures/Calculator: definition, references, hover and documentSymbol
/// answer in the LSP specification's shapes with zero-based positions and file URIs; rename returns a
/// WorkspaceEdit and writes nothing; methods the host does not answer are typed errors naming those it does.
/// </summary>
public sealed class LspRequestTests(LspCalculatorFixture fx) : IClassFixture<LspCalculatorFixture>
{
    private const string Program = "src/Calculator.App/Program.cs";
    private const string Interface = "src/Calculator.Core/ICalculator.cs";
    private const string Calculator = "src/Calculator.Core/Calculator.cs";

    private static JsonObject Range(int line, int start, int end) => new()
    {
        ["start"] = new JsonObject { ["line"] = line, ["character"] = start },
        ["end"] = new JsonObject { ["line"] = line, ["character"] = end },
    };

    [Fact]
    public async Task Definition_OfACallThroughTheInterface_IsTheInterfaceMember()
    {
        JsonNode? result = await fx.RequestAsync("textDocument/definition", fx.At(Program, fx.Find(Program, "Divide")));

        (int line, int character) = fx.Find(Interface, "Divide(");
        JsonArray expected = [new JsonObject { ["uri"] = fx.Uri(Interface), ["range"] = Range(line, character, character + "Divide".Length) }];
        Assert.True(JsonNode.DeepEquals(expected, result), result?.ToJsonString());
    }

    [Fact]
    public async Task References_ListEveryCall_InFileAndPositionOrder_WithTheDeclarationWhenAsked()
    {
        JsonObject parameters = fx.At(Calculator, fx.Find(Calculator, "Divide("));
        parameters["context"] = new JsonObject { ["includeDeclaration"] = false };
        JsonArray result = (await fx.RequestAsync("textDocument/references", parameters))!.AsArray();

        List<(string Uri, int Line, int Character)> found = [.. result.Select(l => (l!["uri"]!.GetValue<string>(), l["range"]!["start"]!["line"]!.GetValue<int>(), l["range"]!["start"]!["character"]!.GetValue<int>()))];
        Assert.Contains((fx.Uri(Program), 7, fx.Find(Program, "Divide").Character), found);
        Assert.Contains((fx.Uri(Program), 11, fx.Find(Program, "Divide", 2).Character), found);
        Assert.DoesNotContain(found, f => f.Uri == fx.Uri(Calculator));
        Assert.Equal(found.OrderBy(f => f.Uri, StringComparer.Ordinal).ThenBy(f => f.Line).ThenBy(f => f.Character).ToList(), found);

        parameters["context"] = new JsonObject { ["includeDeclaration"] = true };
        JsonArray withDeclaration = (await fx.RequestAsync("textDocument/references", parameters))!.AsArray();
        (int line, int character) = fx.Find(Calculator, "Divide(");
        Assert.Contains(withDeclaration, l => JsonNode.DeepEquals(l, new JsonObject { ["uri"] = fx.Uri(Calculator), ["range"] = Range(line, character, character + 6) }));
    }

    [Fact]
    public async Task Hover_GivesTheSignatureAndDocumentation_AndTheNamesRange()
    {
        (int line, int character) = fx.Find(Program, "Divide");
        JsonObject hover = (await fx.RequestAsync("textDocument/hover", fx.At(Program, (line, character + 2))))!.AsObject();

        Assert.Equal("plaintext", hover["contents"]!["kind"]!.GetValue<string>());
        string value = hover["contents"]!["value"]!.GetValue<string>();
        Assert.StartsWith("(method) double Calculator.Core.ICalculator.Divide(double dividend, double divisor)", value, StringComparison.Ordinal);
        Assert.Contains("Returns dividend / divisor.", value, StringComparison.Ordinal);
        Assert.True(JsonNode.DeepEquals(Range(line, character, character + 6), hover["range"]), hover["range"]!.ToJsonString());
    }

    [Fact]
    public async Task DocumentSymbol_NestsMembersUnderTheirType_WithZeroBasedRanges()
    {
        JsonObject parameters = new() { ["textDocument"] = new JsonObject { ["uri"] = fx.Uri(Calculator) } };
        JsonArray symbols = (await fx.RequestAsync("textDocument/documentSymbol", parameters))!.AsArray();

        JsonNode ns = Assert.Single(symbols)!;
        Assert.Equal(("Core", 3), (ns["name"]!.GetValue<string>(), ns["kind"]!.GetValue<int>()));
        JsonNode type = Assert.Single(ns["children"]!.AsArray())!;
        Assert.Equal(("Calculator", 5), (type["name"]!.GetValue<string>(), type["kind"]!.GetValue<int>()));
        Assert.True(JsonNode.DeepEquals(Range(3, 13, 23), type["selectionRange"]), type["selectionRange"]!.ToJsonString());
        Assert.Equal(["Add", "Subtract", "Multiply", "Divide"], type["children"]!.AsArray().Select(m => m!["name"]!.GetValue<string>()));
        JsonNode divide = type["children"]![3]!;
        Assert.Equal(6, divide["kind"]!.GetValue<int>());
        Assert.Equal((11, 20), (divide["range"]!["start"]!["line"]!.GetValue<int>(), divide["range"]!["end"]!["line"]!.GetValue<int>()));
    }

    [Fact]
    public async Task Rename_ReturnsTheWorkspaceEdit_AndWritesNothing()
    {
        string before = File.ReadAllText(Path.Combine(fx.Workspace.Root, Interface));
        JsonObject parameters = fx.At(Interface, fx.Find(Interface, "Divide("));
        parameters["newName"] = "Quotient";
        JsonObject edit = (await fx.RequestAsync("textDocument/rename", parameters))!.AsObject();

        JsonObject changes = edit["changes"]!.AsObject();
        Assert.Contains(fx.Uri(Interface), changes.Select(c => c.Key));
        Assert.Contains(fx.Uri(Calculator), changes.Select(c => c.Key));
        Assert.Contains(fx.Uri(Program), changes.Select(c => c.Key));
        Assert.All(changes, c => Assert.All(c.Value!.AsArray(), e => Assert.Equal("Quotient", e!["newText"]!.GetValue<string>())));
        Assert.Equal(before, File.ReadAllText(Path.Combine(fx.Workspace.Root, Interface)));
    }

    /// <summary>
    /// The raw rename path keeps the rename tool's one identifier rule (IdentifierRule): a bidi override,
    /// a zero-width space, text that is no identifier or a bare keyword is invalid_identifier, and no
    /// WorkspaceEdit comes back (before issue 36 it returned one inserting U+202E in every reference).
    /// </summary>
    [Theory]
    [InlineData("Quo\u202Etient", "U+202E RIGHT-TO-LEFT OVERRIDE at position 4")]
    [InlineData("Quo\u200Btient", "U+200B ZERO WIDTH SPACE")]
    [InlineData("1abc", "not a valid C# identifier")]
    [InlineData("Quo-tient", "not a valid C# identifier")]
    [InlineData("class", "write '@class'")]
    public async Task Rename_WithAnInvalidNewName_IsInvalidIdentifier_AsTheRenameToolSays(string newName, string message)
    {
        JsonObject parameters = fx.At(Interface, fx.Find(Interface, "Divide("));
        parameters["newName"] = newName;
        SemanticErrorData error = await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidIdentifier, () => fx.RequestAsync("textDocument/rename", parameters));
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Rename_ToAnEscapedKeyword_IsAccepted()
    {
        JsonObject parameters = fx.At(Interface, fx.Find(Interface, "Divide("));
        parameters["newName"] = "@class";
        JsonObject edit = (await fx.RequestAsync("textDocument/rename", parameters))!.AsObject();
        Assert.All(edit["changes"]!.AsObject(), c => Assert.All(c.Value!.AsArray(), e => Assert.Equal("@class", e!["newText"]!.GetValue<string>())));
    }

    [Fact]
    public async Task CodeAction_ListsWithoutEdits_AndResolveReturnsTheWorkspaceEdit_WritingNothing()
    {
        string before = File.ReadAllText(Path.Combine(fx.Workspace.Root, Calculator));
        (int line, int character) = fx.Find(Calculator, "Add(");
        JsonObject parameters = new()
        {
            ["textDocument"] = new JsonObject { ["uri"] = fx.Uri(Calculator) },
            ["range"] = Range(line, character, character),
            ["context"] = new JsonObject { ["diagnostics"] = new JsonArray(), ["only"] = new JsonArray("refactor") },
        };
        JsonArray actions = (await fx.RequestAsync("textDocument/codeAction", parameters))!.AsArray();
        Assert.All(actions, a => Assert.Equal("refactor", a!["kind"]!.GetValue<string>()));
        Assert.All(actions, a => Assert.Null(a!["edit"]));
        const string Explicit = "Implement explicitly > Implement 'Add' explicitly";
        JsonNode implementExplicitly = Assert.Single(actions, a => a!["title"]!.GetValue<string>() == Explicit)!;

        JsonObject resolved = (await fx.RequestAsync("codeAction/resolve", implementExplicitly.AsObject().DeepClone().AsObject()))!.AsObject();
        JsonArray edits = resolved["edit"]!["changes"]![fx.Uri(Calculator)]!.AsArray();
        string after = Apply(before, edits);
        Assert.Contains("    double ICalculator.Add(double a, double b) => a + b;\n", after.ReplaceLineEndings("\n"), StringComparison.Ordinal);
        Assert.DoesNotContain("public double Add(", after, StringComparison.Ordinal);
        Assert.Equal(before, File.ReadAllText(Path.Combine(fx.Workspace.Root, Calculator)));

        // A listing whose entry moved is stale: resolve says so instead of resolving another action.
        JsonObject moved = implementExplicitly.AsObject().DeepClone().AsObject();
        moved["title"] = "Something else";
        RemoteInvocationException stale = await Assert.ThrowsAsync<RemoteInvocationException>(() => fx.RequestAsync("codeAction/resolve", moved));
        Assert.Contains("is no longer offered there", stale.Message, StringComparison.Ordinal);

        JsonArray quickFixesOnly = (await fx.RequestAsync("textDocument/codeAction", new JsonObject
        {
            ["textDocument"] = new JsonObject { ["uri"] = fx.Uri(Calculator) },
            ["range"] = Range(line, character, character),
            ["context"] = new JsonObject { ["only"] = new JsonArray("quickfix") },
        }))!.AsArray();
        Assert.DoesNotContain(quickFixesOnly, a => a!["title"]!.GetValue<string>() == Explicit);
    }

    /// <summary>Applies LSP TextEdits (zero-based ranges) to a text, last first.</summary>
    private static string Apply(string text, JsonArray edits)
    {
        string[] lines = text.Split('\n');
        int Offset(JsonNode position)
        {
            int line = position["line"]!.GetValue<int>();
            return lines.Take(line).Sum(l => l.Length + 1) + position["character"]!.GetValue<int>();
        }

        foreach (JsonNode edit in edits.Select(e => e!).OrderByDescending(e => Offset(e["range"]!["start"]!)))
        {
            int start = Offset(edit["range"]!["start"]!);
            int end = Offset(edit["range"]!["end"]!);
            text = text[..start] + edit["newText"]!.GetValue<string>() + text[end..];
        }

        return text;
    }

    [Fact]
    public async Task Capabilities_NameWhatIsAnswered()
    {
        JsonObject capabilities = (await fx.RequestAsync("sharpclaw/capabilities", []))!.AsObject();
        Assert.True(capabilities["definitionProvider"]!.GetValue<bool>());
        Assert.True(capabilities["renameProvider"]!["prepareProvider"]!.GetValue<bool>());
        Assert.True(capabilities["callHierarchyProvider"]!.GetValue<bool>());
        Assert.True(capabilities["typeHierarchyProvider"]!.GetValue<bool>());
        Assert.True(capabilities["codeActionProvider"]!["resolveProvider"]!.GetValue<bool>());
        Assert.False(capabilities.ContainsKey("completionProvider"));
    }

    [Fact]
    public async Task AnUnansweredMethod_IsATypedError_NamingTheMethodsAnswered()
    {
        RemoteInvocationException error = await Assert.ThrowsAsync<RemoteInvocationException>(() => fx.RequestAsync("textDocument/completion", fx.At(Program, (5, 1))));
        Assert.Contains("'textDocument/completion' is not among the methods answered (textDocument/definition, ", error.Message, StringComparison.Ordinal);
        Assert.Contains("needs apply: true", error.Message, StringComparison.Ordinal);
        RemoteInvocationException applied = await Assert.ThrowsAsync<RemoteInvocationException>(() => fx.RequestAsync("workspace/executeCommand", [], apply: true));
        Assert.Contains("does not answer LSP method 'workspace/executeCommand'", applied.Message, StringComparison.Ordinal);

        RemoteInvocationException outside = await Assert.ThrowsAsync<RemoteInvocationException>(() => fx.RequestAsync("textDocument/hover", fx.At(Program, (500, 0))));
        Assert.Contains("position 500:0 (zero-based) is outside src/Calculator.App/Program.cs (", outside.Message, StringComparison.Ordinal);
    }
}
