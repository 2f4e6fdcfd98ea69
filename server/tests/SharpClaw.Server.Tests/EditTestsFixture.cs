using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Semantic.Edits;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>A clock tests move by hand (proposal expiry).</summary>
internal sealed class ManualClock : TimeProvider
{
    public DateTimeOffset Now { get; set; } = new(2026, 1, 1, 12, 0, 0, TimeSpan.Zero);

    public override DateTimeOffset GetUtcNow() => this.Now;
}

/// <summary>One restored copy of fixtures/EditTools and one host with an injectable clock and write hook.</summary>
public sealed class EditToolsFixture : IAsyncLifetime
{
    private FixtureWorkspace? fixture;
    private SemanticHost? host;
    private Dictionary<string, byte[]> originals = [];

    internal FixtureWorkspace Workspace => this.fixture!;

    internal SemanticHost Host => this.host!;

    internal ManualClock Clock { get; } = new();

    /// <summary>The write hook of the current test (null: none).</summary>
    internal EditWriteHook? Hook { get; set; }

    public async Task InitializeAsync()
    {
        this.fixture = FixtureWorkspace.Restored("EditTools", "EditTools.slnx");
        this.originals = Directory.EnumerateFiles(this.fixture.Root, "*.cs", SearchOption.AllDirectories)
            .Where(p => !p.Contains("/obj/", StringComparison.Ordinal) && !p.Contains("/bin/", StringComparison.Ordinal))
            .ToDictionary(p => p, File.ReadAllBytes);
        this.host = await SemanticHost.StartAsync(new HostServerOptions
        {
            Clock = this.Clock,
            WriteHook = (index, file, ct) => this.Hook?.Invoke(index, file, ct) ?? Task.CompletedTask,
        });
    }

    public async Task DisposeAsync()
    {
        if (this.host is not null)
        {
            await this.host.DisposeAsync();
        }

        this.fixture?.Dispose();
    }

    /// <summary>Every C# file as in the fixture (content only; tests that move files undo the move themselves).</summary>
    internal void ResetSources()
    {
        this.Hook = null;
        this.Host.Client.WriteAnswer = _ => Task.FromResult(new AuthorizeEvaluationResult { Granted = true });
        foreach ((string path, byte[] bytes) in this.originals)
        {
            if (!File.Exists(path) || !File.ReadAllBytes(path).AsSpan().SequenceEqual(bytes))
            {
                DateTime before = File.Exists(path) ? File.GetLastWriteTimeUtc(path) : DateTime.MinValue;
                File.WriteAllBytes(path, bytes);
                if (File.GetLastWriteTimeUtc(path) <= before)
                {
                    File.SetLastWriteTimeUtc(path, before.AddSeconds(1));
                }
            }
        }
    }

    internal byte[] Bytes(string relative) => File.ReadAllBytes(this.Workspace.Path(relative));

    internal byte[] Original(string relative) => this.originals[this.Workspace.Path(relative)];

    internal Task<EditResult> EditAsync(EditParams parameters) =>
        Poll.WithTimeout(
            this.Host.Host.Client.InvokeWithParameterObjectAsync<EditResult>(ProtocolMethods.Edit, parameters with { Workspace = this.Workspace.Root, Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.Edit);

    internal Task<EditResult> UndoAsync() =>
        Poll.WithTimeout(
            this.Host.Host.Client.InvokeWithParameterObjectAsync<EditResult>(ProtocolMethods.UndoEdit, new EditHistoryParams { Workspace = this.Workspace.Root, Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.UndoEdit);

    internal Task<EditResult> RedoAsync() =>
        Poll.WithTimeout(
            this.Host.Host.Client.InvokeWithParameterObjectAsync<EditResult>(ProtocolMethods.RedoEdit, new EditHistoryParams { Workspace = this.Workspace.Root, Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.RedoEdit);

    internal Task<EditResult> RenameAsync(string name, string newName, bool apply = false, string? project = null) =>
        this.EditAsync(new EditParams { Action = "rename", Name = name, NewName = newName, Apply = apply ? true : null, Project = project });

    internal Task<SymbolResolveResult> ResolveAsync(string name) =>
        this.Host.Host.Client.InvokeWithParameterObjectAsync<SymbolResolveResult>(
            ProtocolMethods.SymbolResolve, new SymbolResolveParams { Workspace = this.Workspace.Root, Name = name, Tool = "test-tool" });
}
