using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// rename_file into a folder the project's evaluated compile items would not include is refused,
/// saying why (fixtures/RenameFileExcluded): the check passed the compiler before, then dotnet build
/// failed with CS0103 because the default globs exclude the folder.
/// </summary>
public sealed class RenameFileDestinationTests
{
    [Fact]
    public async Task ExcludedDestinations_AreInvalidRequest_SayingWhy_AndAnOrdinaryFolderIsPreviewed()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("RenameFileExcluded", "RenameFileExcluded.slnx");
        Directory.CreateDirectory(Path.Combine(fixture.Root, "Lib", "bin"));
        Directory.CreateDirectory(Path.Combine(fixture.Root, "Lib", ".hidden"));
        await using SemanticHost host = await SemanticHost.StartAsync();

        Task<EditResult> Rename(string newName) => Poll.WithTimeout(
            host.Host.Client.InvokeWithParameterObjectAsync<EditResult>(
                ProtocolMethods.Edit,
                new EditParams { Workspace = fixture.Root, Tool = "test-tool", Action = "rename_file", Path = "Lib/Keep.cs", NewName = newName }),
            SemanticHost.Timeout,
            $"rename_file to {newName}");

        (string Destination, string Reason)[] refused =
        [
            ("Lib/obj/Keep.cs", "it is inside the project's build output folder Lib/obj/ (BaseIntermediateOutputPath)"),
            ("Lib/bin/Keep.cs", "it is inside the project's build output folder Lib/bin/ (BaseOutputPath)"),
            ("Lib/.hidden/Keep.cs", "the project's evaluated DefaultItemExcludes contain '**/.*/**'"),
            ("Lib/Drafts/Keep.cs", "the project's evaluated DefaultItemExcludes contain 'Drafts/**'"),
            ("Lib/Legacy/Keep.cs", "its evaluated compile items leave out Lib/Legacy/Old.cs in the same folder"),
            ("Lib/Nested/Keep.cs", "the folder belongs to another project, Lib/Nested/Nested.csproj"),
        ];
        foreach ((string destination, string reason) in refused)
        {
            SemanticErrorData error = await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => Rename(destination));
            Assert.StartsWith($"{destination} would not be compiled by Lib/Lib.csproj: ", error.Message, StringComparison.Ordinal);
            Assert.Contains(reason, error.Message, StringComparison.Ordinal);
        }

        EditResult preview = await Rename("Lib/Sub/Keep.cs");
        Assert.Equal(EditResultKind.Preview, preview.Kind);
        Assert.True(File.Exists(Path.Combine(fixture.Root, "Lib", "Keep.cs"))); // A preview writes nothing.
    }
}
