namespace SharpClaw.Protocol.Semantic;

/// <summary>
/// What every semantic request names: a workspace and which compilation context inside it.
/// All members are optional on the wire so that a missing one is reported as a typed
/// InvalidRequest instead of a deserialization failure.
/// </summary>
public interface IWorkspaceRequest
{
    /// <summary>The workspace folder, absolute. Required.</summary>
    string? Workspace { get; }

    /// <summary>A .sln/.slnx/.csproj (or a folder to discover in) inside the workspace; relative paths are
    /// relative to the workspace. Null: discover one at the top of the workspace.</summary>
    string? Target { get; }

    /// <summary>MSBuild Configuration; null or empty means "Debug".</summary>
    string? Configuration { get; }

    /// <summary>Evaluate every project for this target framework; null: each project's own framework(s).</summary>
    string? TargetFramework { get; }

    /// <summary>The tool name, used only in the <c>sharpclaw/authorizeEvaluation</c> request.</summary>
    string? Tool { get; }
}

/// <summary>The workspace context every request's params carry (see <see cref="IWorkspaceRequest"/>).</summary>
public abstract record WorkspaceRequestParams : IWorkspaceRequest
{
    public string? Workspace { get; init; }

    public string? Target { get; init; }

    public string? Configuration { get; init; }

    public string? TargetFramework { get; init; }

    public string? Tool { get; init; }
}

/// <summary>Params of <c>sharpclaw/solutionInspect</c>.</summary>
public sealed record SolutionInspectParams : WorkspaceRequestParams;

/// <summary>Params of <c>sharpclaw/projectGraph</c>.</summary>
public sealed record ProjectGraphParams : WorkspaceRequestParams;
