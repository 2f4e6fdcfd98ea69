namespace SharpClaw.Protocol.Status;

/// <summary>The <c>sharpclaw/status</c> result.</summary>
/// <param name="HostVersion">Informational version of SharpClaw.Server.</param>
/// <param name="RoslynVersion">Informational version of Microsoft.CodeAnalysis.Workspaces.MSBuild, without "+commit".</param>
/// <param name="Runtime">The .NET runtime the host runs on.</param>
/// <param name="Sdks">Installed .NET SDKs, by semantic version ascending.</param>
/// <param name="LoadedContexts">Compilation contexts in the cache, most recently used first (at most four).</param>
/// <param name="ProcessId">The host's process id.</param>
/// <param name="ClientProcessId">The process the host watches and exits with, if any.</param>
/// <param name="StartedAt">When the host process started (UTC).</param>
/// <param name="LogFile">The host's log file, or null when logging only to stderr.</param>
public sealed record HostStatus(
    string HostVersion,
    string RoslynVersion,
    RuntimeInfo Runtime,
    IReadOnlyList<SdkInfo> Sdks,
    IReadOnlyList<LoadedContextInfo> LoadedContexts,
    int ProcessId,
    int? ClientProcessId,
    DateTime StartedAt,
    string? LogFile);

/// <param name="FrameworkDescription">e.g. ".NET 10.0.12".</param>
/// <param name="RuntimeIdentifier">e.g. "linux-x64".</param>
/// <param name="DotnetRoot">The dotnet installation folder the runtime came from, when known.</param>
public sealed record RuntimeInfo(string FrameworkDescription, string RuntimeIdentifier, string? DotnetRoot);

/// <param name="Version">e.g. "10.0.401".</param>
/// <param name="Path">The SDK folder, e.g. "/usr/share/dotnet/sdk/10.0.401".</param>
public sealed record SdkInfo(string Version, string Path);

/// <summary>One loaded Roslyn workspace context.</summary>
/// <param name="Target">The .sln/.slnx/.csproj that was loaded (absolute path).</param>
/// <param name="Configuration">MSBuild configuration, e.g. "Debug".</param>
/// <param name="TargetFramework">The target framework chosen for multi-targeted projects, if any.</param>
/// <param name="ProjectCount">Number of projects in the context.</param>
/// <param name="FromSnapshot">Rebuilt from the approved snapshot in the store (no MSBuild ran in this host for it).</param>
public sealed record LoadedContextInfo(string Target, string Configuration, string? TargetFramework, int ProjectCount, bool FromSnapshot);
