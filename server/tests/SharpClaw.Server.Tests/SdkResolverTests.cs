using SharpClaw.Server.Semantic.Evaluation;
using SharpClaw.Server.Tests.Infrastructure;
using SharpClaw.Server.Toolchain;

namespace SharpClaw.Server.Tests;

/// <summary>
/// The in-process SDK resolution against the truth: the real <c>dotnet --version</c> in the same
/// folder. Where the command prints a version, the resolver gives that version or none (the verifier
/// then runs the command); where the command fails, the resolver gives none — never a version the
/// command would not print.
/// </summary>
public sealed class SdkResolverTests
{
    public static TheoryData<string, string> GlobalJsons => new()
    {
        // Each global.json leaves the answer to dotnet --version itself, valid or not: the SDK parses it
        // again, more strictly than hostfxr ("comments and a trailing comma" resolves in hostfxr, but
        // dotnet --version exits 1).
        { "the installed version", "{ \"sdk\": { \"version\": \"{installed}\" } }" },
        { "comments and a trailing comma", "{\n  // pinned\n  \"sdk\": { \"version\": \"{installed}\", },\n}\n" },
        { "an older major, rolled forward to the latest", "{ \"sdk\": { \"version\": \"8.0.100\", \"rollForward\": \"latestMajor\" } }" },
        { "a test runner beside the SDK", "{ \"sdk\": { \"version\": \"{installed}\" }, \"test\": { \"runner\": \"Microsoft.Testing.Platform\" } }" },
        { "a version not installed", "{ \"sdk\": { \"version\": \"1.0.100\", \"rollForward\": \"disable\" } }" },
        { "unreadable JSON", "{ \"sdk\": " },
        { "a version that is not one", "{ \"sdk\": { \"version\": \"ten\" } }" },
    };

    [Fact]
    public async Task Resolve_WithoutGlobalJson_IsWhatDotnetVersionPrints()
    {
        string root = SdkInventory.FindDotnetRoot() ?? throw new InvalidOperationException("no .NET installation");
        using TempDirectory temp = new();
        string folder = Path.Combine(temp.Path, "src", "App");
        Directory.CreateDirectory(folder);

        ProcessResult truth = await DotnetCli.RunAsync(["--version"], folder, CancellationToken.None);
        SdkResolution resolution = SdkResolver.Resolve(root, folder);

        Assert.Equal(0, truth.ExitCode);
        Assert.Equal(truth.Stdout.Trim(), resolution.Version);
        Assert.Null(resolution.Reason);
        Assert.Equal(root, resolution.DotnetRoot);
    }

    [Theory]
    [MemberData(nameof(GlobalJsons))]
    public async Task Resolve_WithAGlobalJsonAbove_LeavesItToDotnetVersion(string name, string globalJson)
    {
        string root = SdkInventory.FindDotnetRoot() ?? throw new InvalidOperationException("no .NET installation");
        using TempDirectory temp = new();
        string installed = (await DotnetCli.RunAsync(["--version"], temp.Path, CancellationToken.None)).Stdout.Trim();
        string folder = Path.Combine(temp.Path, "src", "App");
        Directory.CreateDirectory(folder);
        File.WriteAllText(Path.Combine(temp.Path, "global.json"), globalJson.Replace("{installed}", installed, StringComparison.Ordinal));

        SdkResolution resolution = SdkResolver.Resolve(root, folder);

        Assert.True(resolution.Version is null, $"{name}: the resolver answered {resolution.Version}");
        Assert.Contains("global.json", resolution.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public void Resolve_WithoutAnInstallation_SaysWhy()
    {
        using TempDirectory temp = new();

        SdkResolution resolution = SdkResolver.Resolve(temp.Path, temp.Path);

        Assert.Null(resolution.Version);
        Assert.Contains("hostfxr", resolution.Reason, StringComparison.Ordinal);
    }
}
