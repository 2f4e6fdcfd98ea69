using SharpClaw.Server.Tests.Infrastructure;
using SharpClaw.Server.Toolchain;

namespace SharpClaw.Server.Tests;

public sealed class SdkInventoryTests
{
    [Fact]
    public void FindSdks_ListsFoldersWithDotnetDll_SortedBySemanticVersion()
    {
        using TempDirectory temp = new();
        string root = temp.Path;
        string[] installed = ["10.0.100", "9.0.300", "10.0.100-rc.2.25502.107", "10.0.100-preview.7.25380.108", "10.0.401", "8.0.414", "11.0.100-alpha.1"];
        foreach (string version in installed)
        {
            string folder = Path.Combine(root, "sdk", version);
            Directory.CreateDirectory(folder);
            File.WriteAllText(Path.Combine(folder, "dotnet.dll"), string.Empty);
        }

        Directory.CreateDirectory(Path.Combine(root, "sdk", "7.0.100")); // No dotnet.dll: a leftover, not an SDK.
        Directory.CreateDirectory(Path.Combine(root, "sdk", "NuGetFallbackFolder"));

        IReadOnlyList<string> versions = SdkInventory.FindSdks(root).Select(s => s.Version).ToArray();

        Assert.Equal(
            ["8.0.414", "9.0.300", "10.0.100-preview.7.25380.108", "10.0.100-rc.2.25502.107", "10.0.100", "10.0.401", "11.0.100-alpha.1"],
            versions);
        Assert.Equal(Path.Combine(root, "sdk", "10.0.401"), SdkInventory.FindSdks(root).Single(s => s.Version == "10.0.401").Path);
    }

    [Fact]
    public void FindSdks_ToleratesMissingFolders()
    {
        Assert.Empty(SdkInventory.FindSdks(null));
        Assert.Empty(SdkInventory.FindSdks(Path.Combine(Path.GetTempPath(), Guid.NewGuid().ToString("N"))));
    }

    [Fact]
    public void DotnetRoot_IsThreeLevelsAboveTheRuntimeDirectory()
    {
        using TempDirectory temp = new();
        string root = temp.Path;
        string runtime = Path.Combine(root, "shared", "Microsoft.NETCore.App", "10.0.12");
        Directory.CreateDirectory(runtime);

        Assert.Equal(root, SdkInventory.DotnetRootFromRuntimeDirectory(runtime + Path.DirectorySeparatorChar));
        Assert.Equal(root, SdkInventory.DotnetRootFromRuntimeDirectory(runtime));
    }

    [Fact]
    public void FindDotnetRoot_OnThisMachine_HasTheRunningSdk()
    {
        string? root = SdkInventory.FindDotnetRoot();

        Assert.NotNull(root);
        Assert.True(Directory.Exists(Path.Combine(root, "shared", "Microsoft.NETCore.App")), root);
        Assert.Contains(SdkInventory.FindSdks(root), s => s.Version.StartsWith($"{Environment.Version.Major}.", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("1.0.0-alpha", "1.0.0-alpha.1")]
    [InlineData("1.0.0-alpha.1", "1.0.0-alpha.beta")]
    [InlineData("1.0.0-alpha.beta", "1.0.0-beta")]
    [InlineData("1.0.0-beta.2", "1.0.0-beta.11")]
    [InlineData("1.0.0-rc.1", "1.0.0")]
    [InlineData("9.0.999", "10.0.100")]
    public void SdkVersion_FollowsSemVerPrecedence(string lower, string higher)
    {
        Assert.True(SdkVersion.TryParse(lower, out SdkVersion a));
        Assert.True(SdkVersion.TryParse(higher, out SdkVersion b));
        Assert.True(a.CompareTo(b) < 0, $"{lower} < {higher}");
        Assert.True(b.CompareTo(a) > 0, $"{higher} > {lower}");
    }

    [Theory]
    [InlineData("NuGetFallbackFolder")]
    [InlineData("10")]
    [InlineData("10.0.x")]
    [InlineData("10.0.100-")]
    public void SdkVersion_RejectsNonVersions(string text) => Assert.False(SdkVersion.TryParse(text, out _));
}
