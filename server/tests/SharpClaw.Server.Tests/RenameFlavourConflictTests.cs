using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// fixtures/RenameFlavourConflict: renames in Lib whose effect on App (another project, two target frameworks)
/// sits in a file the rename does not change, under <c>#if !NET10_0_OR_GREATER</c> (net8.0 only). The file
/// writes the old name Add (List.Add) without referring to Worker.Add. The preview's compile check, narrowed to
/// what can bind differently, must still see that flavour: a type there that implements an interface through
/// the renamed member (its declarations are checked), and a call the new name would take over.
/// </summary>
public sealed class RenameFlavourConflictTests
{
    [Fact]
    public async Task Renames_ReachingAFileOnlyOneFlavourCompiles_AreCheckedInThatFlavour()
    {
        using FixtureWorkspace workspace = FixtureWorkspace.Restored("RenameFlavourConflict", "RenameFlavourConflict.slnx");
        await using SemanticHost host = await SemanticHost.StartAsync();
        Task<EditResult> Rename(string name, string newName, bool apply) => Poll.WithTimeout(
            host.Host.Client.InvokeWithParameterObjectAsync<EditResult>(ProtocolMethods.Edit, new EditParams { Workspace = workspace.Root, Tool = "test-tool", Action = "rename", Name = name, NewName = newName, Apply = apply }),
            SemanticHost.Timeout,
            ProtocolMethods.Edit);
        string labels = workspace.Read("App/Labels.cs");
        string worker = workspace.Read("Lib/Worker.cs");

        // Pooled (net8.0 only) implements IDisposable through Worker.Dispose: renamed, it no longer does.
        SemanticErrorData refused = await SemanticErrors.ExpectAsync(SemanticErrorKind.NewErrors, () => Rename("Lib.Worker.Dispose", "Release", apply: true));
        string error = Assert.Single(refused.Details!);
        Assert.StartsWith("App/Labels.cs:28:", error, StringComparison.Ordinal);
        Assert.Contains("CS0535", error, StringComparison.Ordinal);
        Assert.Equal(labels, workspace.Read("App/Labels.cs"));
        Assert.Equal(worker, workspace.Read("Lib/Worker.cs"));

        // worker.AddOne(1) (net8.0 only) calls an extension method that Worker's renamed Add would take over:
        // Roslyn's rename of that flavour calls the extension explicitly, and the check finds nothing new.
        EditResult preview = await Rename("Lib.Worker.Add", "AddOne", apply: false);
        Assert.Equal(EditResultKind.Preview, preview.Kind);
        Assert.Equal(["App/Labels.cs", "App/Uses.cs", "Lib/Worker.cs"], preview.Operations.Select(o => o.Path).Order(StringComparer.Ordinal));
        EditFileOperation labelsEdit = preview.Operations.Single(o => o.Path == "App/Labels.cs");
        Assert.Equal(["        string label = WorkerLabels.AddOne(worker, 1);"], labelsEdit.Excerpts!.SelectMany(e => e.Added));
    }
}
