using System.Text;
using System.Text.Json.Nodes;

namespace SharpClaw.Server.Tests;

/// <summary>
/// A restored copy of fixtures/Calculator with a workspace file of 400 nested classes added before its load.
/// Not 5,000: Roslyn's own declaration builder (DeclarationTreeBuilder.VisitTypeDeclaration) recurses per
/// level and overflows a thread-pool thread's stack there, in any semantic request on the file (a gap
/// left open under issue 36); 400 is far past the answer's bound and within what Roslyn survives.
/// </summary>
public sealed class LspDeepDocumentFixture : IAsyncLifetime
{
    internal const string Deep = "src/Calculator.Core/Deep.cs";

    private const int Levels = 400;

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
    public async Task DocumentSymbol_Of400NestedClasses_AnswersToABoundedDepth_AndTheHostStaysUp()
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

        // The same host answers the next request.
        JsonObject calculator = new() { ["textDocument"] = new JsonObject { ["uri"] = fx.Lsp.Uri("src/Calculator.Core/Calculator.cs") } };
        Assert.Single((await fx.Lsp.RequestAsync("textDocument/documentSymbol", calculator))!.AsArray());
    }
}
