using SharpClaw.Server.Semantic.Evaluation;
using SharpClaw.Server.Semantic.Fingerprints;
using SharpClaw.Server.Semantic.Loading;

namespace SharpClaw.Server.Semantic.Snapshots;

/// <summary>
/// One authorized evaluation-only pass (projectGraph: the verifier's project graph) as the store's <c>evaluations</c>
/// table keeps it: the evaluated data and the fingerprint of every build file MSBuild read. A later host reuses it
/// only under the rule that keeps a live evaluation (<see cref="ContextFingerprint.AllowsReuse"/>: no build file,
/// global.json, SDK or folder of a wildcard changed, no import only MSBuild can resolve), written by this host version
/// in the same MSBuild environment. Never an approval. All paths are full paths. A <see cref="PersistedContext"/> is this
/// and what Roslyn needs besides.
/// </summary>
public record PersistedEvaluation
{
    /// <summary>Bumped whenever this shape or its meaning changes: an older row is ignored and replaced.</summary>
    public const int CurrentFormat = 1;

    public required int Format { get; init; }

    /// <summary>SharpClaw.Server's and Roslyn's versions (<see cref="SnapshotCapture.Version"/>): another host version rebuilds nothing from this row.</summary>
    public required string HostVersion { get; init; }

    /// <summary>The MSBuild-relevant environment the evaluation ran in (<see cref="SnapshotEnvironment"/>).</summary>
    public required string Environment { get; init; }

    public required string TargetPath { get; init; }

    public required string Configuration { get; init; }

    public string? TargetFramework { get; init; }

    public required EvaluationSnapshot Evaluation { get; init; }

    public required Dictionary<string, ProjectImports> Imports { get; init; }

    public required Dictionary<string, AssetsFileInfo?> Assets { get; init; }

    public required PersistedFingerprint Fingerprint { get; init; }
}
