using System.Threading.Channels;
using Microsoft.CodeAnalysis.MSBuild;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using StreamJsonRpc;

namespace SharpClaw.Server.Semantic.Loading;

/// <summary>Receives <c>sharpclaw/loadProgress</c> updates.</summary>
public interface ILoadProgressSink
{
    void Report(LoadProgressParams progress);
}

/// <summary>
/// Sends progress as JSON-RPC notifications, in order, without blocking the load. <see cref="FlushAsync"/> lets a
/// response wait for the progress reported before it: sent from this queue's own task, a notification could
/// otherwise leave after the answer, and a client that ends on the answer (the CLI) never prints it (a 520-file
/// index's "100 % (stored …)" line was lost that way on a loaded machine).
/// </summary>
public sealed class JsonRpcLoadProgressSink : ILoadProgressSink
{
    /// <summary>The longest a response waits for earlier progress: a stalled client must not hold answers back.</summary>
    private static readonly TimeSpan FlushLimit = TimeSpan.FromSeconds(2);

    private readonly Channel<(LoadProgressParams? Progress, TaskCompletionSource? Flushed)> queue =
        Channel.CreateUnbounded<(LoadProgressParams? Progress, TaskCompletionSource? Flushed)>(new UnboundedChannelOptions { SingleReader = true });

    private long reported;
    private long handled;
    private volatile bool stopped;

    public JsonRpcLoadProgressSink(JsonRpc rpc, HostLog log)
    {
        _ = Task.Run(async () =>
        {
            await foreach ((LoadProgressParams? progress, TaskCompletionSource? flushed) in this.queue.Reader.ReadAllAsync().ConfigureAwait(false))
            {
                flushed?.TrySetResult();
                if (progress is null || this.stopped)
                {
                    continue;
                }

                try
                {
                    await rpc.NotifyWithParameterObjectAsync(ProtocolMethods.LoadProgress, progress).ConfigureAwait(false);
                }
                catch (Exception ex) when (ex is ConnectionLostException or ObjectDisposedException or IOException)
                {
                    log.Warn($"Could not send {ProtocolMethods.LoadProgress}: {ex.Message}");
                    this.stopped = true; // Keep reading, so that every flush still completes.
                }
                finally
                {
                    Interlocked.Increment(ref this.handled);
                }
            }
        });
    }

    public void Report(LoadProgressParams progress)
    {
        if (this.queue.Writer.TryWrite((progress, null)))
        {
            Interlocked.Increment(ref this.reported);
        }
    }

    /// <summary>Completes once every progress reported before it was sent (or could not be), or after <see cref="FlushLimit"/>.</summary>
    public async Task FlushAsync()
    {
        if (Interlocked.Read(ref this.handled) >= Interlocked.Read(ref this.reported))
        {
            return;
        }

        TaskCompletionSource flushed = new(TaskCreationOptions.RunContinuationsAsynchronously);
        if (!this.queue.Writer.TryWrite((null, flushed)))
        {
            return;
        }

        await Task.WhenAny(flushed.Task, Task.Delay(FlushLimit)).ConfigureAwait(false);
    }

    /// <summary>No more progress will come from this sink.</summary>
    public void Complete() => this.queue.Writer.TryComplete();
}

/// <summary>
/// Turns load steps — Roslyn's per-operation <see cref="ProjectLoadProgress"/> (evaluate/build/resolve per
/// project) or the parallel design-time pass's finished flavours — into "project i of n" updates, and
/// remembers which frameworks each project file resolved for. Thread-safe: steps may come from several
/// design-time processes at once.
/// </summary>
public sealed class ProjectLoadTracker(ILoadProgressSink? sink, string workspace, string target, string configuration, string? targetFramework, int expectedProjects)
    : IProgress<ProjectLoadProgress>
{
    private readonly Lock gate = new();
    private readonly List<string> seen = [];
    private readonly Dictionary<string, List<string>> frameworks = new(PathUtil.Comparer);

    public void Start() => sink?.Report(new LoadProgressParams(ProgressKind.Load, target, configuration, targetFramework, 0, Math.Max(expectedProjects, 1), target, 0));

    /// <summary>Forgets every step and starts again at 0 % (another loader takes over the load).</summary>
    public void Restart()
    {
        lock (this.gate)
        {
            this.seen.Clear();
            this.frameworks.Clear();
        }

        this.Start();
    }

    public void Report(ProjectLoadProgress value) =>
        this.ReportStep(value.FilePath, value.Operation == ProjectLoadOperation.Resolve ? value.TargetFramework : null);

    /// <summary>
    /// One step of a project's load: the first step of each project file advances "project i of n"; a
    /// framework, when given, is one the file was resolved for (Roslyn's Resolve step, or one flavour of the
    /// parallel design-time pass).
    /// </summary>
    public void ReportStep(string projectPath, string? resolvedFramework)
    {
        LoadProgressParams? update = null;
        lock (this.gate)
        {
            if (resolvedFramework is { Length: > 0 } framework)
            {
                if (!this.frameworks.TryGetValue(projectPath, out List<string>? list))
                {
                    this.frameworks[projectPath] = list = [];
                }

                list.Add(framework);
            }

            if (!this.seen.Contains(projectPath, PathUtil.Comparer))
            {
                this.seen.Add(projectPath);
                int count = Math.Max(expectedProjects, this.seen.Count);
                update = new LoadProgressParams(
                    ProgressKind.Load,
                    target,
                    configuration,
                    targetFramework,
                    this.seen.Count,
                    count,
                    PathUtil.ToWorkspaceRelative(workspace, projectPath),
                    (int)Math.Min(100, Math.Round(this.seen.Count * 100.0 / count)));
            }
        }

        if (update is not null)
        {
            sink?.Report(update);
        }
    }

    /// <summary>The frameworks a project file was resolved for, in the order they were reported.</summary>
    public IReadOnlyList<string> FrameworksOf(string projectPath)
    {
        lock (this.gate)
        {
            return this.frameworks.TryGetValue(projectPath, out List<string>? list) ? [.. list] : [];
        }
    }
}
