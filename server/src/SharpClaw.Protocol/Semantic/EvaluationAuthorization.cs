using System.Text.Json.Serialization;

namespace SharpClaw.Protocol.Semantic;

/// <summary>Why the host needs to run MSBuild (and with it, project code).</summary>
[JsonConverter(typeof(JsonStringEnumConverter<EvaluationReason>))]
public enum EvaluationReason
{
    /// <summary>Nothing is loaded for this target/configuration/framework yet.</summary>
    [JsonStringEnumMemberName("coldLoad")]
    ColdLoad,

    /// <summary>A project, solution, import, configuration or restore-assets file changed, or compile items were added/removed.</summary>
    [JsonStringEnumMemberName("structuralChange")]
    StructuralChange,

    /// <summary>Project-authored files import through properties or wildcards, so no fingerprint can prove the cache valid.</summary>
    [JsonStringEnumMemberName("dynamicImports")]
    DynamicImports,
}

/// <summary>
/// Params of the server→client request <c>sharpclaw/authorizeEvaluation</c>, sent before any cold load,
/// structural reload or <c>dotnet msbuild</c> evaluation. The host waits for the answer.
/// </summary>
/// <param name="Workspace">The workspace folder (absolute).</param>
/// <param name="Target">The solution/project to evaluate, workspace-relative.</param>
/// <param name="Configuration">MSBuild Configuration.</param>
/// <param name="TargetFramework">The requested target framework, or null for each project's own.</param>
/// <param name="Reason">Why evaluation is needed.</param>
/// <param name="ChangedFiles">For structuralChange: the changed files; for dynamicImports: the files whose imports are dynamic
/// (workspace-relative, absolute when outside). May be empty.</param>
/// <param name="Tool">The tool the request came from (only for the prompt), or null.</param>
/// <param name="Call">The client's id of the call whose request needs the evaluation (its <c>call</c> param), or null.</param>
public sealed record AuthorizeEvaluationParams(
    string Workspace,
    string Target,
    string Configuration,
    string? TargetFramework,
    EvaluationReason Reason,
    IReadOnlyList<string> ChangedFiles,
    string? Tool,
    string? Call);

/// <summary>The client's answer to <c>sharpclaw/authorizeEvaluation</c>.</summary>
public sealed record AuthorizeEvaluationResult
{
    /// <summary>True to let the host evaluate/load now. Anything else (false, an error) means PermissionDenied.</summary>
    public required bool Granted { get; init; }

    /// <summary>Shown to the caller in the PermissionDenied error when not granted; optional.</summary>
    public string? Message { get; init; }

    /// <summary><c>sharpclaw/authorizeWrite</c> only: the client granted the write and applied the planned texts itself.</summary>
    public bool? AppliedByClient { get; init; }
}

/// <summary>What a <c>sharpclaw/loadProgress</c> step is the progress of.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<ProgressKind>))]
public enum ProgressKind
{
    /// <summary>A workspace load (MSBuild evaluation, design-time build, Roslyn): the counts are projects.</summary>
    [JsonStringEnumMemberName("load")]
    Load,

    /// <summary>The store's syntax index being built (no MSBuild): the counts are file steps (parsed, then stored).</summary>
    [JsonStringEnumMemberName("index")]
    Index,
}

/// <summary>
/// Params of the server→client notification <c>sharpclaw/loadProgress</c> while a workspace loads or the store builds its syntax index.
/// </summary>
/// <param name="Kind">A load, or a syntax index build (whose target is the workspace folder's name).</param>
/// <param name="Target">Workspace-relative target being loaded.</param>
/// <param name="Configuration">MSBuild Configuration.</param>
/// <param name="TargetFramework">Requested target framework, or null.</param>
/// <param name="ProjectIndex">1-based index of the project just processed; 0 before the first one.</param>
/// <param name="ProjectCount">Projects expected (grows if project references bring in more).</param>
/// <param name="CurrentProject">Workspace-relative path of the project just processed (the target while starting).</param>
/// <param name="Percent">0–100 when the count is known, else null.</param>
public sealed record LoadProgressParams(
    ProgressKind Kind,
    string Target,
    string Configuration,
    string? TargetFramework,
    int ProjectIndex,
    int ProjectCount,
    string CurrentProject,
    int? Percent);
