using System.Collections.Concurrent;
using System.Security.Cryptography;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Fingerprints;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>A preview (with its plan) or a code action listing (with what resolves its entries).</summary>
public sealed class Proposal
{
    public required string Id { get; init; }

    public required string Workspace { get; init; }

    public required ContextRequest Request { get; init; }

    public required DateTimeOffset CreatedAt { get; init; }

    /// <summary>When the context it was computed in was loaded: a reload discards the proposal.</summary>
    public required DateTime ContextLoadedAtUtc { get; init; }

    /// <summary>A preview's plan; null for a listing.</summary>
    public EditPlan? Plan { get; init; }

    /// <summary>A listing's entries; null for a preview.</summary>
    public CodeActionListing? Listing { get; init; }

    /// <summary>Build/config files (project, props, targets, solution, .editorconfig) and their stamps at preview time.</summary>
    public required IReadOnlyDictionary<string, FileStamp> BuildFiles { get; init; }

    /// <summary>Source files the proposal depends on (the files it edits; a listing's document) and their hashes.</summary>
    public required IReadOnlyDictionary<string, string?> SourceFiles { get; init; }
}

/// <summary>
/// Proposals by id (6 hex digits). They expire after <see cref="Lifetime"/> (clock injected for tests) and
/// become stale when a file they edit changes or any project/props/targets/solution/.editorconfig file
/// changes; changes to other source files keep them valid.
/// </summary>
public sealed class ProposalStore(TimeProvider clock)
{
    public static readonly TimeSpan Lifetime = TimeSpan.FromMinutes(5);

    private readonly ConcurrentDictionary<string, Proposal> proposals = new(StringComparer.OrdinalIgnoreCase);

    public TimeProvider Clock => clock;

    public static string NewId() => Convert.ToHexString(RandomNumberGenerator.GetBytes(3)).ToLowerInvariant();

    public Proposal Add(Func<string, Proposal> create)
    {
        this.Sweep();
        while (true)
        {
            Proposal proposal = create(NewId());
            if (this.proposals.TryAdd(proposal.Id, proposal))
            {
                return proposal;
            }
        }
    }

    /// <summary>The proposal, or stale_edit (unknown, expired, stale, other workspace, reloaded context).</summary>
    public Proposal Take(string id, string workspace, SemanticContext? context)
    {
        if (!this.proposals.TryGetValue(id.Trim(), out Proposal? proposal) || !PathUtil.Comparer.Equals(proposal.Workspace, workspace))
        {
            throw SemanticException.Edit(SemanticErrorKind.StaleEdit, $"There is no proposal '{id}' (it was applied, discarded by a reload or the host restarted). Request a new preview.");
        }

        TimeSpan age = clock.GetUtcNow() - proposal.CreatedAt;
        if (age > Lifetime)
        {
            this.proposals.TryRemove(proposal.Id, out _);
            throw SemanticException.Edit(SemanticErrorKind.StaleEdit, $"Proposal {proposal.Id} expired ({(int)age.TotalMinutes} minutes old; proposals last 5 minutes). Request a new preview.");
        }

        List<string> changed = [.. proposal.BuildFiles.Where(kv => !kv.Value.IsUnchanged(kv.Key, out _)).Select(kv => PathUtil.ToWorkspaceRelative(workspace, kv.Key))];
        changed.AddRange(proposal.SourceFiles.Where(kv => ContentHash.OfFile(kv.Key) != kv.Value).Select(kv => PathUtil.ToWorkspaceRelative(workspace, kv.Key)));
        if (changed.Count > 0)
        {
            this.proposals.TryRemove(proposal.Id, out _);
            throw SemanticException.Edit(
                SemanticErrorKind.StaleEdit,
                $"Proposal {proposal.Id} is stale: {string.Join(", ", changed.Take(5))}{(changed.Count > 5 ? ", ..." : string.Empty)} changed since the preview. Request a new preview.",
                changed);
        }

        if (context is not null && context.LoadedAtUtc != proposal.ContextLoadedAtUtc)
        {
            this.proposals.TryRemove(proposal.Id, out _);
            throw SemanticException.Edit(SemanticErrorKind.StaleEdit, $"Proposal {proposal.Id} was discarded because the workspace was reloaded since the preview. Request a new preview.");
        }

        return proposal;
    }

    public void Remove(string id) => this.proposals.TryRemove(id, out _);

    /// <summary>Stamps of the build/config files of a context: project, props, targets, solution, assets and every .editorconfig.</summary>
    public static Dictionary<string, FileStamp> BuildFileStamps(ContextLease lease)
    {
        Dictionary<string, FileStamp> stamps = new(PathUtil.Comparer);
        IEnumerable<string> editorConfigs = lease.Solution.Projects
            .SelectMany(p => p.AnalyzerConfigDocuments)
            .Select(d => d.FilePath)
            .OfType<string>();
        foreach (string file in lease.Context.Fingerprint.StructuralFiles.Concat(editorConfigs))
        {
            stamps.TryAdd(file, FileStamp.Take(file, withHash: true));
        }

        return stamps;
    }

    private void Sweep()
    {
        DateTimeOffset now = clock.GetUtcNow();
        foreach (Proposal old in this.proposals.Values.Where(p => now - p.CreatedAt > Lifetime))
        {
            this.proposals.TryRemove(old.Id, out _);
        }
    }
}
