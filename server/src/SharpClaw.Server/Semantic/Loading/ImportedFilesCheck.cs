using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Evaluation;
using SharpClaw.Server.Semantic.Fingerprints;

namespace SharpClaw.Server.Semantic.Loading;

/// <summary>
/// What one evaluation of a context with dynamic imports saw: a digest of the evaluated projects, and a stamp of every
/// build file MSBuild imported (<see cref="ImportLog"/>: the files a property-driven or wildcard import actually
/// reached too, which the context's fingerprint cannot follow statically). The design-time pass runs the targets of
/// exactly those files on exactly that evaluation, so when a later call's evaluation returns the same digest from the
/// same files and none of them changed since they were stamped, the pass would answer what it answered: the call keeps
/// the loaded context after the evaluation alone (on App-vNext/Polly's 46 flavours 2.2 s against 3.3-5 s for the
/// pass) — the same trust a context without dynamic imports gets from its fingerprint. The stamps are taken
/// after the evaluation that precedes the pass they vouch for (or the cold load's pass, which evaluates in the same
/// run), and a file written since that evaluation began counts as changed, so an edit made while MSBuild ran is never
/// vouched for.
/// </summary>
public sealed class ImportedFilesCheck
{
    private readonly string digest;
    private readonly Dictionary<string, FileStamp> stamps;

    private ImportedFilesCheck(string digest, Dictionary<string, FileStamp> stamps)
    {
        this.digest = digest;
        this.stamps = stamps;
    }

    public int FileCount => this.stamps.Count;

    /// <summary>The check of <paramref name="evaluation"/>; null when it does not list its imports (nothing can be vouched for).</summary>
    public static ImportedFilesCheck? Of(EvaluationSnapshot evaluation) =>
        evaluation.ImportedFiles is { Count: > 0 } files
            ? new ImportedFilesCheck(
                DesignTimeDigest.OfEvaluation(evaluation),
                files.ToDictionary(f => f, f => FileStamp.Take(f, withHash: false, notAfterUtc: evaluation.StartedUtc), PathUtil.Comparer))
            : null;

    /// <summary>
    /// Null when <paramref name="newer"/> (this call's evaluation) returned what this one did, from the same files, and
    /// none of them changed since this one stamped them; else what differs (for the log).
    /// </summary>
    public string? Difference(ImportedFilesCheck newer)
    {
        if (this.digest != newer.digest)
        {
            return "MSBuild evaluated the projects differently";
        }

        if (this.stamps.Count != newer.stamps.Count || this.stamps.Keys.Any(file => !newer.stamps.ContainsKey(file)))
        {
            return "MSBuild imported other build files";
        }

        return this.stamps.FirstOrDefault(entry => !entry.Value.IsUnchanged(entry.Key, out _)).Key is { } changed
            ? $"{Path.GetFileName(changed)} changed"
            : null;
    }
}
