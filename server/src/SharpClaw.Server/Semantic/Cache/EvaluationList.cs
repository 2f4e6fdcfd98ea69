using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Fingerprints;

namespace SharpClaw.Server.Semantic.Cache;

/// <summary>Evaluated data handed to a caller that needs no compilation (projectGraph).</summary>
/// <param name="Data">The evaluation.</param>
/// <param name="Context">The compilation context it came from, when one was loaded and valid (for excluded analyzers).</param>
/// <param name="FromCache">True when MSBuild did not run for this call.</param>
public sealed record EvaluationLease(EvaluationData Data, SemanticContext? Context, bool FromCache);

/// <summary>
/// The evaluations the cache keeps without a compilation (projectGraph's evaluation-only passes): at most
/// <see cref="Capacity"/>, most recently used first, each with the fingerprint of the build files it read. A
/// later load of the same key may reuse one that is still valid instead of evaluating again. Not synchronized:
/// <see cref="SemanticContextCache"/> calls it under its gate.
/// </summary>
internal sealed class EvaluationList
{
    public const int Capacity = 8;

    private readonly List<(ContextKey Key, EvaluationData Data, ContextFingerprint Fingerprint)> entries = [];

    /// <summary>The evaluation kept for <paramref name="key"/> and the fingerprint of the build files it read, or null.</summary>
    public (EvaluationData Data, ContextFingerprint Fingerprint)? Find(ContextKey key)
    {
        int index = this.entries.FindIndex(e => e.Key.Equals(key));
        return index >= 0 ? (this.entries[index].Data, this.entries[index].Fingerprint) : null;
    }

    /// <summary>The evaluation of <paramref name="key"/> when it may be reused (<see cref="ContextFingerprint.AllowsReuse"/>), or null.</summary>
    public EvaluationData? Reusable(ContextKey key) =>
        this.Find(key) is ({ } data, { } fingerprint) && fingerprint.AllowsReuse(fingerprint.Check()) ? data : null;

    /// <summary>Puts the evaluation of <paramref name="key"/> first (replacing an older one), dropping the least recently used beyond the capacity.</summary>
    public void Put(ContextKey key, EvaluationData data, ContextFingerprint fingerprint)
    {
        this.Remove(key);
        this.entries.Insert(0, (key, data, fingerprint));
        if (this.entries.Count > Capacity)
        {
            this.entries.RemoveAt(this.entries.Count - 1);
        }
    }

    /// <summary>Forgets the evaluation of <paramref name="key"/> (a context loaded for it carries its own).</summary>
    public void Remove(ContextKey key) => this.entries.RemoveAll(e => e.Key.Equals(key));

    public void Clear() => this.entries.Clear();
}
