using System.Reflection;

namespace SharpClaw.Server.Infrastructure;

/// <summary>Facts about this host build, computed once.</summary>
public static class HostInfo
{
    public const string ServerName = "sharpclaw-host";

    private static readonly Lazy<string> LazyRoslynVersion = new(() =>
    {
        // Load the assembly by name instead of touching MSBuildWorkspace: reading an attribute must
        // not pull in Roslyn's workspace types (or anything MSBuild) at status time.
        Assembly roslyn = Assembly.Load(new AssemblyName("Microsoft.CodeAnalysis.Workspaces.MSBuild"));
        return InformationalVersionOf(roslyn);
    });

    /// <summary>Informational version of SharpClaw.Server, e.g. "0.1.0".</summary>
    public static string HostVersion { get; } = InformationalVersionOf(typeof(HostInfo).Assembly);

    /// <summary>Informational version of Microsoft.CodeAnalysis.Workspaces.MSBuild, e.g. "5.12.0".</summary>
    public static string RoslynVersion => LazyRoslynVersion.Value;

    /// <summary>The informational version without any "+commit" build metadata.</summary>
    public static string InformationalVersionOf(Assembly assembly)
    {
        string version = assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion
            ?? assembly.GetName().Version?.ToString()
            ?? "0.0.0";
        int plus = version.IndexOf('+', StringComparison.Ordinal);
        return plus < 0 ? version : version[..plus];
    }
}
