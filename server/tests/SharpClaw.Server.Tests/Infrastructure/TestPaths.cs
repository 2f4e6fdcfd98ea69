using System.Reflection;

namespace SharpClaw.Server.Tests.Infrastructure;

internal static class TestPaths
{
    /// <summary>The server's own build output (see EmbedSharpClawServerPath in the .csproj).</summary>
    public static string ServerDll
    {
        get
        {
            string? overridePath = Environment.GetEnvironmentVariable("SHARPCLAW_SERVER_DLL");
            string? path = !string.IsNullOrEmpty(overridePath)
                ? overridePath
                : typeof(TestPaths).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>()
                    .FirstOrDefault(a => a.Key == "SharpClawServerPath")?.Value;
            Assert.False(string.IsNullOrEmpty(path), "SharpClawServerPath metadata is missing; was the test project built with its .csproj target?");
            Assert.True(File.Exists(path), $"Server not built at {path}");
            return path!;
        }
    }

    /// <summary>The repository's fixtures/ folder (see the .csproj).</summary>
    public static string Fixtures => MetadataFolder("SharpClawFixturesPath", "Fixtures folder");

    /// <summary>The host's source folder, server/src/SharpClaw.Server (see the .csproj).</summary>
    public static string ServerSource => MetadataFolder("SharpClawServerSourcePath", "Server source folder");

    /// <summary>A folder the .csproj baked into this assembly as [AssemblyMetadata(key, path)]; it must exist.</summary>
    private static string MetadataFolder(string key, string what)
    {
        string? path = typeof(TestPaths).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>()
            .FirstOrDefault(a => a.Key == key)?.Value;
        Assert.True(path is not null && Directory.Exists(path), $"{what} not found: {path}");
        return path!;
    }

    /// <summary>The repository's test/host-answers/ folder: the recorded host answers (RecordedAnswerTests).</summary>
    public static string HostAnswers => Path.GetFullPath(Path.Combine(Fixtures, "..", "test", "host-answers"));

    /// <summary>The dotnet muxer running this build/test (the SDK sets DOTNET_HOST_PATH), else "dotnet" from PATH.</summary>
    public static string DotnetHost
    {
        get
        {
            string? hostPath = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH");
            if (!string.IsNullOrEmpty(hostPath) && File.Exists(hostPath))
            {
                return hostPath;
            }

            string? processPath = Environment.ProcessPath;
            if (processPath is not null && Path.GetFileNameWithoutExtension(processPath).Equals("dotnet", StringComparison.OrdinalIgnoreCase))
            {
                return processPath;
            }

            return "dotnet";
        }
    }

}

/// <summary>
/// A fresh private folder under the temp directory (created 0700 with a unique name, so no other user
/// can have made or can write into it), deleted again on dispose.
/// </summary>
internal sealed class TempDirectory : IDisposable
{
    public TempDirectory()
    {
        this.Path = Directory.CreateTempSubdirectory("sharpclaw-tests-").FullName;
    }

    public string Path { get; }

    public void Dispose()
    {
        try
        {
            Directory.Delete(this.Path, recursive: true);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // A process under test may still hold a file; the OS temp cleanup will get it.
        }
    }
}
