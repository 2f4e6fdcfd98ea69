using System.Collections;
using System.Security.Cryptography;
using System.Text;

namespace SharpClaw.Server.Semantic.Snapshots;

/// <summary>
/// A hash of the environment variables that steer MSBuild's evaluation and SDK/package resolution (MSBuild*,
/// NuGet*, DOTNET_ROOT*, DOTNET_HOST_PATH, DOTNET_MSBUILD*): a host started with other values (another shell,
/// another SDK override) does not reuse a snapshot evaluated under the old ones. Other variables a project
/// might read as properties are not covered; the README says so.
/// </summary>
public static class SnapshotEnvironment
{
    private static readonly string[] Prefixes = ["MSBUILD", "NUGET", "DOTNET_ROOT", "DOTNET_HOST_PATH", "DOTNET_MSBUILD"];

    public static string Current()
    {
        List<string> entries = [];
        foreach (DictionaryEntry entry in Environment.GetEnvironmentVariables())
        {
            string name = (string)entry.Key;
            if (Prefixes.Any(p => name.StartsWith(p, StringComparison.OrdinalIgnoreCase)))
            {
                entries.Add(name.ToUpperInvariant() + "=" + entry.Value);
            }
        }

        entries.Sort(StringComparer.Ordinal);
        return Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(string.Join("\n", entries))))[..16];
    }
}
