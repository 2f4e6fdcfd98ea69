using SharpClaw.Protocol;
using SharpClaw.Protocol.Lifecycle;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// LSP document sync: queries answer from the editor's unsaved buffers, and fall back to the disk
/// when a buffer closes. Uses its own copy of fixtures/Calculator so no other test sees the buffers.
/// </summary>
public sealed class OpenDocumentTests : IAsyncLifetime
{
    private const string Program = "src/Calculator.App/Program.cs";
    private FixtureWorkspace? fixture;
    private SemanticHost? host;

    private FixtureWorkspace Workspace => this.fixture!;

    public async Task InitializeAsync()
    {
        this.fixture = FixtureWorkspace.Restored("Calculator", "Calculator.slnx");
        this.host = await SemanticHost.StartAsync();
    }

    public async Task DisposeAsync()
    {
        if (this.host is not null)
        {
            await this.host.DisposeAsync();
        }

        this.fixture?.Dispose();
    }

    [Fact]
    public async Task FindReferences_SeesAnUnsavedEdit_AndTheDiskAgainAfterClose()
    {
        string path = Path.Combine(this.Workspace.Root, Program);
        string uri = new Uri(path).AbsoluteUri;
        string disk = this.Workspace.Read(Program);
        int before = (await this.ReferencesAsync()).Total;

        // The editor opens the file unchanged: same answer.
        await this.NotifyAsync(ProtocolMethods.DidOpenTextDocument, new DidOpenTextDocumentParams(new TextDocumentItem(uri, "csharp", 1, disk)));
        Assert.Equal(before, (await this.ReferencesAsync()).Total);

        // The agent types a new call without saving: the buffer answers, the disk is untouched.
        string edited = disk.TrimEnd() + "\nSystem.Console.WriteLine(calculator.Subtract(9, 4));\n";
        await this.NotifyAsync(ProtocolMethods.DidChangeTextDocument, new DidChangeTextDocumentParams(new TextDocumentIdentifier(uri), [new TextDocumentContentChangeEvent(edited)]));
        FindReferencesResult withEdit = await this.ReferencesAsync();
        Assert.Equal(before + 1, withEdit.Total);
        int lastLine = edited.ReplaceLineEndings("\n").TrimEnd('\n').Split('\n').Length;
        Assert.Contains(withEdit.References, r => r.Path == Program && r.Line == lastLine);
        Assert.Equal(disk, this.Workspace.Read(Program));

        // Closing without saving drops the buffer.
        await this.NotifyAsync(ProtocolMethods.DidCloseTextDocument, new DidCloseTextDocumentParams(new TextDocumentIdentifier(uri)));
        Assert.Equal(before, (await this.ReferencesAsync()).Total);
    }

    private Task NotifyAsync(string method, object parameters) => this.host!.Host.Client.NotifyWithParameterObjectAsync(method, parameters);

    private Task<FindReferencesResult> ReferencesAsync() =>
        Poll.WithTimeout(
            this.host!.Host.Client.InvokeWithParameterObjectAsync<FindReferencesResult>(
                ProtocolMethods.FindReferences,
                new FindReferencesParams { Name = "ICalculator.Subtract", Workspace = this.Workspace.Root, Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.FindReferences);
}
