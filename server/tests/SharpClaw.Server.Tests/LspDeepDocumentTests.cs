using System.Text;
using System.Text.Json.Nodes;

namespace SharpClaw.Server.Tests;

/// <summary>
/// A restored copy of fixtures/Calculator with a workspace file of 8,000 nested classes added before its load.
/// Roslyn's declaration builder (DeclarationTreeBuilder.VisitTypeDeclaration) recurses per level and, with
/// the runtime's default thread stack, overflowed at 8,000 levels in any semantic request on the file and
/// killed the process (issue 36); server/Directory.Build.props gives every runtime thread a 256 MiB stack
/// (measured: 10,000, 20,000 and 50,000 levels then answer; past that the parser's own stack guard stops).
/// </summary>
public sealed class LspDeepDocumentFixture : IAsyncLifetime
{
    internal const string Deep = "src/Calculator.Core/Deep.cs";

    private const int Levels = 8000;

    internal LspCalculatorFixture Lsp { get; } = new();

    public async Task InitializeAsync()
    {
        await this.Lsp.InitializeAsync();
        StringBuilder text = new("namespace Calculator.Core;\n");
        for (int i = 0; i < Levels; i++)
        {
            text.Append("class C").Append(i).Append(" {\n");
        }

        text.Append('}', Levels);
        File.WriteAllText(Path.Combine(this.Lsp.Workspace.Root, Deep), text.ToString());
    }

    public Task DisposeAsync() => this.Lsp.DisposeAsync();
}

/// <summary>
/// Raw <c>textDocument/documentSymbol</c> on a file a repository can hold to attack the host (issue 36): deeply
/// nested classes answer with the declarations nested up to a bound, and the host keeps answering — the
/// recursive walk followed the file's depth, and its answer passed JSON writers' depth limit.
/// </summary>
public sealed class LspDeepDocumentTests(LspDeepDocumentFixture fx) : IClassFixture<LspDeepDocumentFixture>
{
    [Fact]
    public async Task DocumentSymbolHoverAndDiagnostics_Of8000NestedClasses_Answer_AndTheHostStaysUp()
    {
        JsonObject parameters = new() { ["textDocument"] = new JsonObject { ["uri"] = fx.Lsp.Uri(LspDeepDocumentFixture.Deep) } };
        JsonArray symbols = (await fx.Lsp.RequestAsync("textDocument/documentSymbol", parameters))!.AsArray();

        int depth = 0;
        JsonNode? level = Assert.Single(symbols);
        Assert.Equal("Core", level!["name"]!.GetValue<string>());
        while (level?["children"] is JsonArray children)
        {
            level = Assert.Single(children);
            depth++;
            Assert.Equal($"C{depth - 1}", level!["name"]!.GetValue<string>());
        }

        Assert.Equal(23, depth);

        // A semantic request on the file builds the compilation's declaration tree, which Roslyn builds
        // recursively per nesting level: at 5,000 levels it overflowed a thread-pool thread's stack and
        // killed the process. The hover names the outermost class.
        JsonObject hover = new()
        {
            ["textDocument"] = new JsonObject { ["uri"] = fx.Lsp.Uri(LspDeepDocumentFixture.Deep) },
            ["position"] = new JsonObject { ["line"] = 1, ["character"] = 7 },
        };
        Assert.Contains("C0", (await fx.Lsp.RequestAsync("textDocument/hover", hover))!.ToJsonString(), StringComparison.Ordinal);

        JsonObject diagnostic = new() { ["textDocument"] = new JsonObject { ["uri"] = fx.Lsp.Uri(LspDeepDocumentFixture.Deep) } };
        Assert.NotNull(await fx.Lsp.RequestAsync("textDocument/diagnostic", diagnostic));

        // The same host answers the next request.
        JsonObject calculator = new() { ["textDocument"] = new JsonObject { ["uri"] = fx.Lsp.Uri("src/Calculator.Core/Calculator.cs") } };
        Assert.Single((await fx.Lsp.RequestAsync("textDocument/documentSymbol", calculator))!.AsArray());
    }
}
