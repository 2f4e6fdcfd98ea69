using System.Text;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Text;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Edits;
using SharpClaw.Server.Semantic.Loading;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>The edit engine's checks without a loaded workspace: linked documents, limits, containment, newlines, lock.</summary>
public sealed class EditUnitTests : IDisposable
{
    private readonly TempDirectory temp = new();

    public void Dispose() => this.temp.Dispose();

    [Fact]
    public async Task LinkedDocuments_ThatWouldGetDifferentTexts_AreRejected()
    {
        string file = Path.Combine(this.temp.Path, "Shared.cs");
        File.WriteAllText(file, "class Shared { }\n");
        using AdhocWorkspace workspace = new();
        Solution solution = workspace.CurrentSolution;
        ProjectId a = ProjectId.CreateNewId();
        ProjectId b = ProjectId.CreateNewId();
        solution = solution.AddProject(a, "A", "A", LanguageNames.CSharp).AddProject(b, "B", "B", LanguageNames.CSharp);
        DocumentId inA = DocumentId.CreateNewId(a);
        DocumentId inB = DocumentId.CreateNewId(b);
        SourceText text = SourceText.From("class Shared { }\n");
        solution = solution.AddDocument(DocumentInfo.Create(inA, "Shared.cs", loader: TextLoader.From(TextAndVersion.Create(text, VersionStamp.Create())), filePath: file));
        // B spells the path through another folder, like a linked MSBuild item (B/../Shared.cs).
        string spelled = Path.Combine(this.temp.Path, "B", "..", "Shared.cs");
        solution = solution.AddDocument(DocumentInfo.Create(inB, "Shared.cs", loader: TextLoader.From(TextAndVersion.Create(text, VersionStamp.Create())), filePath: spelled));

        Solution changedOnlyInA = solution.WithDocumentText(inA, SourceText.From("class Renamed { }\n"), PreservationMode.PreserveIdentity);
        if ((await changedOnlyInA.GetDocument(inB)!.GetTextAsync()).ToString() != "class Shared { }\n")
        {
            // This Roslyn keeps linked texts in sync by itself; make B disagree explicitly.
            changedOnlyInA = changedOnlyInA.WithDocumentText(inB, SourceText.From("class Other { }\n"), PreservationMode.PreserveIdentity);
        }

        SemanticException error = await Assert.ThrowsAsync<SemanticException>(() => SolutionDiff.PlanAsync(solution, changedOnlyInA, this.temp.Path, "rename", "test", CancellationToken.None));
        Assert.Equal(SemanticErrorKind.LinkedDocumentConflict, error.Kind);
        Assert.Equal(["Shared.cs"], error.Error.Details);
    }

    [Fact]
    public async Task MoreThan256Files_IsEditTooLarge()
    {
        using AdhocWorkspace workspace = new();
        Project project = workspace.CurrentSolution.AddProject("P", "P", LanguageNames.CSharp);
        List<DocumentId> ids = [];
        for (int i = 0; i < SolutionDiff.MaxFiles + 1; i++)
        {
            Document document = project.AddDocument($"F{i}.cs", SourceText.From($"class F{i} {{ }}"), filePath: Path.Combine(this.temp.Path, $"F{i}.cs"));
            project = document.Project;
            ids.Add(document.Id);
        }

        Solution before = project.Solution;
        Solution after = ids.Aggregate(before, (s, id) => s.WithDocumentText(id, SourceText.From("class X { }")));
        SemanticException error = await Assert.ThrowsAsync<SemanticException>(() => SolutionDiff.PlanAsync(before, after, this.temp.Path, "rename", "test", CancellationToken.None));
        Assert.Equal(SemanticErrorKind.EditTooLarge, error.Kind);
        Assert.Contains("257 files", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void PathsOutsideTheWorkspace_OrThroughASymbolicLinkBelowIt_AreRejected()
    {
        string root = Path.Combine(this.temp.Path, "ws");
        string outside = Path.Combine(this.temp.Path, "outside");
        Directory.CreateDirectory(root);
        Directory.CreateDirectory(outside);
        File.WriteAllText(Path.Combine(outside, "Extra.cs"), "class Extra { }");
        File.WriteAllText(Path.Combine(root, "In.cs"), "class In { }");

        SolutionDiff.CheckInsideWorkspace(root, Path.Combine(root, "In.cs"));
        SemanticException direct = Assert.Throws<SemanticException>(() => SolutionDiff.CheckInsideWorkspace(root, Path.Combine(outside, "Extra.cs")));
        Assert.Equal(SemanticErrorKind.OutsideWorkspace, direct.Kind);
        // Named relative to the workspace, as the edit (or the agent's "ws/../outside/Extra.cs") reaches it: no machine path outside the workspace.
        Assert.Equal("The edit would write ../outside/Extra.cs, which is outside the workspace; nothing was changed.", direct.Message);
        Assert.Equal("The edit would write ../outside/Extra.cs, which is outside the workspace; nothing was changed.", Assert.Throws<SemanticException>(() => SolutionDiff.CheckInsideWorkspace(root, Path.Combine(root, "Src", "..", "..", "outside", "Extra.cs"))).Message);

        Directory.CreateSymbolicLink(Path.Combine(root, "linked"), outside);
        SemanticException viaLink = Assert.Throws<SemanticException>(() => SolutionDiff.CheckInsideWorkspace(root, Path.Combine(root, "linked", "Extra.cs")));
        Assert.Equal(SemanticErrorKind.OutsideWorkspace, viaLink.Kind);
        Assert.Equal("The edit would write linked/Extra.cs through the symbolic link linked below the workspace, which leads outside the workspace; nothing was changed.", viaLink.Message);
        Assert.Equal(["linked/Extra.cs"], viaLink.Error.Details);

        // A link below the root that points back inside still is a link below the root.
        Directory.CreateDirectory(Path.Combine(root, "real"));
        File.WriteAllText(Path.Combine(root, "real", "R.cs"), "class R { }");
        Directory.CreateSymbolicLink(Path.Combine(root, "alias"), Path.Combine(root, "real"));
        SemanticException alias = Assert.Throws<SemanticException>(() => SolutionDiff.CheckInsideWorkspace(root, Path.Combine(root, "alias", "R.cs")));
        Assert.Equal("The edit would write alias/R.cs through a symbolic link below the workspace (it is really real/R.cs); nothing was changed.", alias.Message);
    }

    [Theory]
    [InlineData("a\r\nb\r\n", "a\nX\nb\n", "a\r\nX\r\nb\r\n")]
    [InlineData("a\nb\n", "a\r\nX\r\nb\n", "a\nX\nb\n")]
    [InlineData("a\r\nb\n", "a\r\nX\nb\n", "a\r\nX\nb\n")]
    public void Encode_KeepsTheFilesNewlineSequence(string before, string after, string written)
    {
        Assert.Equal(written, Encoding.UTF8.GetString(FileText.Encode(after, Encoding.UTF8.GetBytes(before))));
    }

    [Fact]
    public void Encode_KeepsAUtf8ByteOrderMark()
    {
        byte[] original = [0xEF, 0xBB, 0xBF, .. Encoding.UTF8.GetBytes("a\n")];
        byte[] written = FileText.Encode("b\n", original);
        Assert.Equal([0xEF, 0xBB, 0xBF, (byte)'b', (byte)'\n'], written);
        Assert.Equal("b\n", FileText.Decode(written));
    }

    [Fact]
    public async Task WorkspaceLock_SerializesWriters_AndIsFreeAgainAfterRelease()
    {
        string workspace = Path.Combine(this.temp.Path, "locked");
        Directory.CreateDirectory(workspace);
        using (WorkspaceLock held = await WorkspaceLock.AcquireAsync(workspace, TimeSpan.FromSeconds(1), CancellationToken.None))
        {
            Assert.StartsWith(StateFolder.Root(), held.Path, StringComparison.Ordinal);
            Assert.False(PathUtil.IsUnder(held.Path, workspace));
            SemanticException busy = await Assert.ThrowsAsync<SemanticException>(() => WorkspaceLock.AcquireAsync(workspace, TimeSpan.FromMilliseconds(200), CancellationToken.None));
            Assert.Equal(SemanticErrorKind.WriteFailed, busy.Kind);
            Assert.Contains($"process {Environment.ProcessId}", busy.Message, StringComparison.Ordinal);
        }

        using WorkspaceLock again = await WorkspaceLock.AcquireAsync(workspace, TimeSpan.FromSeconds(1), CancellationToken.None);
    }

    [Fact]
    public void GeneratorDetector_ReadsMetadataOnly()
    {
        // The SDK's System.Text.Json generator assembly has [Generator]; this test assembly has none.
        Assert.False(GeneratorDetector.MayContainGenerator(typeof(EditUnitTests).Assembly.Location));
        Assert.True(GeneratorDetector.MayContainGenerator(Path.Combine(this.temp.Path, "missing.dll")));
        string? sdkGenerator = Directory.EnumerateFiles(Path.GetDirectoryName(typeof(object).Assembly.Location)!, "*.dll").FirstOrDefault(f => f.EndsWith("System.Text.Json.SourceGeneration.dll", StringComparison.Ordinal));
        if (sdkGenerator is not null)
        {
            Assert.True(GeneratorDetector.MayContainGenerator(sdkGenerator));
        }
    }
}

/// <summary>Receipt and lock edge cases.</summary>
public sealed class EditReceiptAndLockTests : IDisposable
{
    private readonly TempDirectory temp = new();

    public void Dispose() => this.temp.Dispose();

    [Fact]
    public void Excerpts_GroupTouchingLines_AndShowWholeOldAndNewLines()
    {
        const string before = "a\r\nb\r\nc\r\nd\r\ne\r\n";
        TextChange first = new(new TextSpan(3, 1), "B");   // b -> B (line 2)
        TextChange second = new(new TextSpan(6, 1), "CC"); // c -> CC (line 3, touches line 2)
        TextChange third = new(new TextSpan(12, 1), string.Empty); // e deleted (line 5)

        IReadOnlyList<EditExcerpt> excerpts = EditExcerpts.Of(before, [third, second, first]);

        Assert.Equal(2, excerpts.Count);
        Assert.Equal((2, 1), (excerpts[0].Line, excerpts[0].Character));
        Assert.Equal(["b", "c"], excerpts[0].Removed);
        Assert.Equal(["B", "CC"], excerpts[0].Added);
        Assert.Equal((5, 1), (excerpts[1].Line, excerpts[1].Character));
        Assert.Equal(["e"], excerpts[1].Removed);
        Assert.Empty(excerpts[1].Added); // Nothing left of the line's text.
        Assert.Empty(EditExcerpts.Of(before, null)); // A pure file move has no excerpts.
    }

    [Fact]
    public async Task ALeftoverLockFile_OfAProcessThatIsGone_DoesNotBlock()
    {
        string workspace = Path.Combine(this.temp.Path, "stale");
        Directory.CreateDirectory(workspace);
        string path = WorkspaceLock.LockPathFor(workspace);
        // Left behind by a crashed writer (no such process).
        File.WriteAllText(path, $"pid 999999\nstart -\nhost {System.Net.Dns.GetHostName()}\npurpose verify\n");

        using WorkspaceLock acquired = await WorkspaceLock.AcquireAsync(workspace, TimeSpan.FromMilliseconds(500), CancellationToken.None);
        Assert.Equal(path, acquired.Path);
        Assert.StartsWith($"pid {Environment.ProcessId}\n", File.ReadAllText(path), StringComparison.Ordinal);
    }
}
