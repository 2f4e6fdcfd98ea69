using SharpClaw.Protocol.Status;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Contexts;

namespace SharpClaw.Server.Semantic.Cache;

/// <summary>
/// The cache's least-recently-used list: at most <see cref="Capacity"/> compilation contexts, most recently used
/// first; a context pushed out (evicted, replaced by a reload, released at shutdown) is retired, and its workspace
/// disposed when its last lease is released. Not synchronized: <see cref="SemanticContextCache"/> calls it under its
/// gate. <see cref="Loaded"/>, the list <c>sharpclaw/status</c> reports, is a copy published after each change and
/// read without waiting for the gate.
/// </summary>
internal sealed class ContextList(int capacity, HostLog? log)
{
    private readonly List<SemanticContext> contexts = []; // most recently used first
    private readonly Lock publishedGate = new();
    private IReadOnlyList<LoadedContextInfo> published = [];

    public int Capacity => capacity;

    /// <summary>What is loaded, as last published: never waits.</summary>
    public IReadOnlyList<LoadedContextInfo> Loaded
    {
        get
        {
            lock (this.publishedGate)
            {
                return this.published;
            }
        }
    }

    /// <summary>The live contexts, most recently used first.</summary>
    public IReadOnlyList<SemanticContext> All => [.. this.contexts];

    public SemanticContext? Find(ContextKey key) => this.contexts.Find(c => c.Key.Equals(key));

    /// <summary>
    /// Puts <paramref name="context"/> first, retiring a context of the same key it replaces and, beyond the
    /// capacity, the least recently used ones.
    /// </summary>
    public void Insert(SemanticContext context)
    {
        int existing = this.contexts.FindIndex(c => c.Key.Equals(context.Key));
        if (existing >= 0)
        {
            this.Retire(this.contexts[existing], "replaced by a reload");
            this.contexts.RemoveAt(existing);
        }

        this.contexts.Insert(0, context);
        while (this.contexts.Count > capacity)
        {
            SemanticContext evicted = this.contexts[^1];
            this.contexts.RemoveAt(this.contexts.Count - 1);
            this.Retire(evicted, "evicted (least recently used)");
        }

        this.Publish();
    }

    /// <summary>Marks <paramref name="context"/> most recently used; false when it is no longer in the list.</summary>
    public bool MoveToFront(SemanticContext context)
    {
        int index = this.contexts.IndexOf(context);
        if (index < 0)
        {
            return false;
        }

        if (index > 0)
        {
            this.contexts.RemoveAt(index);
            this.contexts.Insert(0, context);
        }

        this.Publish();
        return true;
    }

    /// <summary>Retires every context (shutdown).</summary>
    public void Clear(string why)
    {
        foreach (SemanticContext context in this.contexts)
        {
            this.Retire(context, why);
        }

        this.contexts.Clear();
        this.Publish();
    }

    private void Retire(SemanticContext context, string why)
    {
        log?.Info($"Context {context.Key} {why}; {(context.ActiveLeases > 0 ? "disposed when its queries finish" : "disposed")}.");
        context.Retire();
    }

    private void Publish()
    {
        List<LoadedContextInfo> infos = this.contexts
            .Select(c => new LoadedContextInfo(c.Key.TargetPath, c.Key.Configuration, c.Key.TargetFramework, c.ProjectCount, c.FromSnapshot))
            .ToList();
        lock (this.publishedGate)
        {
            this.published = infos;
        }
    }
}
