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

    /// <summary>
    /// Issue 36: rename_file to a name that differs only in case from another file of the folder
    /// (Lib/Other.cs → keep.cs beside Lib/Keep.cs) was applied on Linux; on a case-insensitive file system it
    /// is the same file, and MSBuild compares compile items ignoring case, so dotnet build failed with
    /// NETSDK1022 and the host lost Keep.cs. It is refused before any write. A case-only rename of the file
    /// itself (Keep.cs → keep.cs) is a rename, not a collision.
    /// </summary>
    [Fact]
    public async Task ANameDifferingOnlyInCaseFromAnotherFile_IsRefused_ACaseOnlyRenameOfTheFileItselfApplies()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("RenameFileExcluded", "RenameFileExcluded.slnx");
        fixture.Write("Lib/Other.cs", "namespace Lib;\n\npublic static class Other\n{\n}\n");
        string keep = File.ReadAllText(Path.Combine(fixture.Root, "Lib", "Keep.cs"));
        await using SemanticHost host = await SemanticHost.StartAsync();

        Task<EditResult> Rename(string path, string newName) => Poll.WithTimeout(
            host.Host.Client.InvokeWithParameterObjectAsync<EditResult>(
                ProtocolMethods.Edit,
                new EditParams { Workspace = fixture.Root, Tool = "test-tool", Action = "rename_file", Path = path, NewName = newName, Apply = true }),
            SemanticHost.Timeout,
            $"rename_file {path} to {newName}");

        foreach (string newName in new[] { "keep.cs", "Lib/KEEP.cs" })
        {
            SemanticErrorData error = await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => Rename("Lib/Other.cs", newName));
            Assert.Contains("differs only in case from Lib/Keep.cs", error.Message, StringComparison.Ordinal);
        }

        Assert.Equal(["Keep.cs", "Other.cs"], Directory.GetFiles(Path.Combine(fixture.Root, "Lib"), "*.cs").Select(Path.GetFileName).Order(StringComparer.Ordinal));
        Assert.Equal(keep, File.ReadAllText(Path.Combine(fixture.Root, "Lib", "Keep.cs")));

        EditResult applied = await Rename("Lib/Keep.cs", "keep.cs");
        Assert.Equal(EditResultKind.Applied, applied.Kind);
        Assert.Equal(["Other.cs", "keep.cs"], Directory.GetFiles(Path.Combine(fixture.Root, "Lib"), "*.cs").Select(Path.GetFileName).Order(StringComparer.Ordinal));
        Assert.Equal(keep, File.ReadAllText(Path.Combine(fixture.Root, "Lib", "keep.cs")));
    }
}
