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

    /// <summary>The client's id of the call this request serves, echoed in the authorization requests it causes, so the
    /// client's one-shot approval for that call (and only that call) can answer them. Opaque to the host.</summary>
    string? Call { get; }
}

/// <summary>The workspace context every request's params carry (see <see cref="IWorkspaceRequest"/>).</summary>
public abstract record WorkspaceRequestParams : IWorkspaceRequest
{
    public string? Workspace { get; init; }

    public string? Target { get; init; }

    public string? Configuration { get; init; }

    public string? TargetFramework { get; init; }

    public string? Tool { get; init; }

    public string? Call { get; init; }
}

/// <summary>Params of <c>sharpclaw/solutionInspect</c>.</summary>
public sealed record SolutionInspectParams : WorkspaceRequestParams;

/// <summary>Params of <c>sharpclaw/projectGraph</c>.</summary>
public sealed record ProjectGraphParams : WorkspaceRequestParams
{
    /// <summary>
    /// For a verifier whose build can collect the evaluation instead of a second MSBuild process: <c>"offer"</c> answers
    /// a kept graph when one is valid, else no projects and a <see cref="ProjectGraphResult.BuildCollection"/> (nothing runs,
    /// nothing is authorized); the id of that offer, once the build ran, answers from what it collected (or evaluates when
    /// that is incomplete). Absent: evaluate when nothing kept is valid.
    /// </summary>
    public string? BuildCollection { get; init; }
}

/// <summary>Params of <c>sharpclaw/resolveTarget</c>: only <c>workspace</c> and <c>target</c> matter; nothing runs.</summary>
public sealed record ResolveTargetParams : WorkspaceRequestParams;

/// <summary>Solution or project, on the wire.</summary>
[System.Text.Json.Serialization.JsonConverter(typeof(System.Text.Json.Serialization.JsonStringEnumConverter<ResolvedTargetKind>))]
public enum ResolvedTargetKind
{
    /// <summary>A .sln or .slnx.</summary>
    [System.Text.Json.Serialization.JsonStringEnumMemberName("solution")]
    Solution,

    /// <summary>A .csproj.</summary>
    [System.Text.Json.Serialization.JsonStringEnumMemberName("project")]
    Project,
}

/// <summary>
/// The <c>sharpclaw/resolveTarget</c> result: the target every other request with the same
/// <c>workspace</c>/<c>target</c> would use, found from files only (no MSBuild, no authorization).
/// No target or several are the typed NoTarget / TargetAmbiguous errors, with candidates.
/// </summary>
/// <param name="Workspace">The workspace folder (normalized).</param>
/// <param name="Target">The .sln/.slnx/.csproj, workspace-relative.</param>
/// <param name="Kind">Solution or project.</param>
/// <param name="Projects">The projects the solution lists (or the project itself), workspace-relative, absolute outside.</param>
public sealed record ResolveTargetResult(string Workspace, string Target, ResolvedTargetKind Kind, IReadOnlyList<string> Projects);

/// <summary>Params of <c>sharpclaw/resolveSdk</c>: the target whose folder <c>dotnet</c> would run in; nothing runs.</summary>
public sealed record ResolveSdkParams : WorkspaceRequestParams;

/// <summary>
/// The <c>sharpclaw/resolveSdk</c> result: the SDK version <c>dotnet --version</c> would print in the
/// target's folder, as the .NET host's own resolver answered it in the SharpClaw host's process, for the
/// installation that host runs on. <c>Version</c> is null whenever anything short of a clean answer came
/// back (<c>Reason</c> says what); the caller then runs the command itself.
/// </summary>
/// <param name="DotnetRoot">The installation asked (absolute): the caller uses the answer only for the dotnet it would run.</param>
/// <param name="Version">The SDK's version (its folder's name), or null.</param>
/// <param name="Reason">Why there is no version, or null.</param>
public sealed record ResolveSdkResult(string? DotnetRoot, string? Version, string? Reason);
