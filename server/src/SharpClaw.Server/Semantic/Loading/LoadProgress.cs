using System.Threading.Channels;
using Microsoft.CodeAnalysis.MSBuild;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Hosting;
using StreamJsonRpc;

namespace SharpClaw.Server.Semantic.Loading;

/// <summary>Receives <c>sharpclaw/loadProgress</c> updates.</summary>
public interface ILoadProgressSink
{
    void Report(LoadProgressParams progress);
}

/// <summary>Sends progress as JSON-RPC notifications, in order, without blocking the load.</summary>
public sealed class JsonRpcLoadProgressSink : ILoadProgressSink
{
    private readonly Channel<LoadProgressParams> queue = Channel.CreateUnbounded<LoadProgressParams>(new UnboundedChannelOptions { SingleReader = true });

    public JsonRpcLoadProgressSink(JsonRpc rpc, HostLog log)
    {
        _ = Task.Run(async () =>
        {
            await foreach (LoadProgressParams progress in this.queue.Reader.ReadAllAsync().ConfigureAwait(false))
            {
                try
                {
                    await rpc.NotifyWithParameterObjectAsync(ProtocolMethods.LoadProgress, progress).ConfigureAwait(false);
                }
                catch (Exception ex) when (ex is ConnectionLostException or ObjectDisposedException or IOException)
                {
                    log.Warn($"Could not send {ProtocolMethods.LoadProgress}: {ex.Message}");
                    return;
                }
            }
        });
    }

    public void Report(LoadProgressParams progress) => this.queue.Writer.TryWrite(progress);

    /// <summary>No more progress will come from this sink.</summary>
    public void Complete() => this.queue.Writer.TryComplete();
}

/// <summary>
/// Turns Roslyn's per-operation <see cref="ProjectLoadProgress"/> (evaluate/build/resolve per project)
/// into "project i of n" updates, and remembers which frameworks each project file resolved for.
/// Roslyn calls <see cref="Report"/> synchronously on its loading thread.
/// </summary>
public sealed class ProjectLoadTracker(ILoadProgressSink? sink, string workspace, string target, string configuration, string? targetFramework, int expectedProjects)
    : IProgress<ProjectLoadProgress>
{
    private readonly Lock gate = new();
    private readonly List<string> seen = [];
    private readonly Dictionary<string, List<string>> frameworks = new(PathUtil.Comparer);

    public void Start() => sink?.Report(new LoadProgressParams(target, configuration, targetFramework, 0, Math.Max(expectedProjects, 1), target, 0));

    public void Report(ProjectLoadProgress value)
    {
        LoadProgressParams? update = null;
        lock (this.gate)
        {
            if (value.Operation == ProjectLoadOperation.Resolve && value.TargetFramework is { Length: > 0 } framework)
            {
                if (!this.frameworks.TryGetValue(value.FilePath, out List<string>? list))
                {
                    this.frameworks[value.FilePath] = list = [];
                }

                list.Add(framework);
            }

            if (!this.seen.Contains(value.FilePath, PathUtil.Comparer))
            {
                this.seen.Add(value.FilePath);
                int count = Math.Max(expectedProjects, this.seen.Count);
                update = new LoadProgressParams(
                    target,
                    configuration,
                    targetFramework,
                    this.seen.Count,
                    count,
                    PathUtil.ToWorkspaceRelative(workspace, value.FilePath),
                    (int)Math.Min(100, Math.Round(this.seen.Count * 100.0 / count)));
            }
        }

        if (update is not null)
        {
            sink?.Report(update);
        }
    }

    /// <summary>The frameworks Roslyn resolved a project file for, in order.</summary>
    public IReadOnlyList<string> FrameworksOf(string projectPath)
    {
        lock (this.gate)
        {
            return this.frameworks.TryGetValue(projectPath, out List<string>? list) ? [.. list] : [];
        }
    }
}
