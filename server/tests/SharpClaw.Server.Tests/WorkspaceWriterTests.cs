using System.Text;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Semantic.Edits;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>WorkspaceWriter on plain files: cancellation rolls back and still propagates.</summary>
public sealed class WorkspaceWriterTests : IDisposable
{
    private readonly TempDirectory temp = new();

    public void Dispose() => this.temp.Dispose();

    [Fact]
    public async Task Cancellation_InTheMiddle_RollsBackCompletedWrites_AndPropagates()
    {
        List<PlannedFile> files = [];
        for (int i = 0; i < 3; i++)
        {
            string path = Path.Combine(this.temp.Path, $"F{i}.cs");
            byte[] before = Encoding.UTF8.GetBytes($"class F{i} {{ }}\r\n");
            File.WriteAllBytes(path, before);
            byte[] after = Encoding.UTF8.GetBytes($"class G{i} {{ }}\r\n");
            files.Add(new PlannedFile(path, null, before, after, Encoding.UTF8.GetString(before), Encoding.UTF8.GetString(after), 1));
        }

        using CancellationTokenSource cancel = new();
        WorkspaceWriter writer = new((index, file, ct) =>
        {
            if (index == 2)
            {
                cancel.Cancel();
            }

            return Task.CompletedTask;
        });

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => writer.WriteAsync(new EditPlan("rename", "test", this.temp.Path, files), cancel.Token));

        foreach (PlannedFile file in files)
        {
            Assert.Equal(file.Before, File.ReadAllBytes(file.Path));
        }

        Assert.Empty(writer.LastResidual);
        Assert.Empty(Directory.EnumerateFiles(this.temp.Path, "*.tmp", SearchOption.AllDirectories).Concat(Directory.EnumerateFiles(this.temp.Path, ".*")));
    }

    [Fact]
    public async Task Cancellation_AfterSomeoneEditedAWrittenFile_KeepsTheirTextAsResidual()
    {
        string a = Path.Combine(this.temp.Path, "A.cs");
        string b = Path.Combine(this.temp.Path, "B.cs");
        File.WriteAllText(a, "class A { }\n");
        File.WriteAllText(b, "class B { }\n");
        PlannedFile fa = new(a, null, File.ReadAllBytes(a), Encoding.UTF8.GetBytes("class A2 { }\n"), "class A { }\n", "class A2 { }\n", 1);
        PlannedFile fb = new(b, null, File.ReadAllBytes(b), Encoding.UTF8.GetBytes("class B2 { }\n"), "class B { }\n", "class B2 { }\n", 1);
        using CancellationTokenSource cancel = new();
        WorkspaceWriter writer = new((index, file, ct) =>
        {
            if (index == 1)
            {
                File.WriteAllText(a, "class Theirs { }\n");
                cancel.Cancel();
            }

            return Task.CompletedTask;
        });

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => writer.WriteAsync(new EditPlan("rename", "test", this.temp.Path, [fa, fb]), cancel.Token));

        Assert.Equal("class Theirs { }\n", File.ReadAllText(a));
        Assert.Equal("class B { }\n", File.ReadAllText(b));
        Assert.Equal(["A.cs: changed after the write, so rollback left it as it is"], writer.LastResidual);
    }
}
