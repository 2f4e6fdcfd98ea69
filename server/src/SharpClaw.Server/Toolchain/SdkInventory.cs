using System.Runtime.InteropServices;
using SharpClaw.Protocol.Status;

namespace SharpClaw.Server.Toolchain;

/// <summary>
/// Finds installed .NET SDKs by looking at the disk only. Running "dotnet --list-sdks" would cost
/// a process start (hundreds of ms) on every status request.
/// </summary>
public static class SdkInventory
{
    /// <summary>
    /// DOTNET_ROOT when it names an existing folder; otherwise the installation the running runtime
    /// came from (&lt;root&gt;/shared/Microsoft.NETCore.App/&lt;version&gt;/ → &lt;root&gt;). Null if neither works.
    /// </summary>
    public static string? FindDotnetRoot()
    {
        string? fromEnvironment = Environment.GetEnvironmentVariable("DOTNET_ROOT");
        if (!string.IsNullOrWhiteSpace(fromEnvironment) && Directory.Exists(fromEnvironment))
        {
            return Path.TrimEndingDirectorySeparator(Path.GetFullPath(fromEnvironment));
        }

        return DotnetRootFromRuntimeDirectory(RuntimeEnvironment.GetRuntimeDirectory());
    }

    /// <summary>Three levels up from the runtime folder; null when the layout isn't the usual one.</summary>
    public static string? DotnetRootFromRuntimeDirectory(string runtimeDirectory)
    {
        DirectoryInfo? directory = new(Path.TrimEndingDirectorySeparator(runtimeDirectory));
        for (int i = 0; i < 3 && directory is not null; i++)
        {
            directory = directory.Parent;
        }

        return directory is { Exists: true } ? directory.FullName : null;
    }

    /// <summary>
    /// Every &lt;root&gt;/sdk/&lt;version&gt;/ folder that contains dotnet.dll, sorted by semantic version
    /// ascending. Folders whose name is not a version are skipped.
    /// </summary>
    public static IReadOnlyList<SdkInfo> FindSdks(string? dotnetRoot)
    {
        if (dotnetRoot is null)
        {
            return [];
        }

        string sdkRoot = Path.Combine(dotnetRoot, "sdk");
        if (!Directory.Exists(sdkRoot))
        {
            return [];
        }

        List<(SdkVersion Version, SdkInfo Info)> found = [];
        try
        {
            foreach (string directory in Directory.EnumerateDirectories(sdkRoot))
            {
                string name = Path.GetFileName(directory);
                if (SdkVersion.TryParse(name, out SdkVersion version) && File.Exists(Path.Combine(directory, "dotnet.dll")))
                {
                    found.Add((version, new SdkInfo(name, directory)));
                }
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Unreadable SDK folder: report what we have rather than failing the status request.
        }

        found.Sort((a, b) => a.Version.CompareTo(b.Version));
        return found.ConvertAll(f => f.Info);
    }
}
