using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Semantic.Loading;

namespace SharpClaw.Server.Store;

/// <summary>
/// The progress of a large index build as <c>sharpclaw/loadProgress</c> steps of kind <see cref="ProgressKind.Index"/>:
/// each file counts twice, once parsed and once stored, and a step goes out whenever the percentage moves, so the
/// surfaces show it (VS Code's progress, MCP progress notifications, the CLI's stderr) and an MCP call that outlasts
/// its wait answers with it instead of timing out. Small refreshes report nothing (<see cref="For"/>). Thread-safe:
/// files are parsed in parallel.
/// </summary>
internal sealed class IndexProgress
{
    /// <summary>Fewer files than this are parsed in about a second: no progress is worth showing.</summary>
    public const int MinFiles = 500;

    private readonly ILoadProgressSink sink;
    private readonly string target;
    private readonly int steps;
    private readonly Lock gate = new();
    private int done;
    private int lastPercent = -1;

    private IndexProgress(ILoadProgressSink sink, string target, int files)
    {
        this.sink = sink;
        this.target = target;
        this.steps = 2 * files;
    }

    /// <summary>A reporter for a refresh that parses <paramref name="files"/> files, or null when there is no sink or too few files.</summary>
    public static IndexProgress? For(ILoadProgressSink? sink, string workspace, int files)
    {
        if (sink is null || files < MinFiles)
        {
            return null;
        }

        IndexProgress progress = new(sink, "syntax index of " + Path.GetFileName(Path.TrimEndingDirectorySeparator(workspace)), files);
        progress.Step($"{files} files to parse", advance: false);
        return progress;
    }

    public void Parsed(string relativePath) => this.Step("parsed " + relativePath, advance: true);

    public void Stored(string relativePath) => this.Step("stored " + relativePath, advance: true);

    private void Step(string current, bool advance)
    {
        // Reported under the lock (the sink only queues), so the steps leave in the order of their percentages.
        lock (this.gate)
        {
            this.done += advance ? 1 : 0;
            int percent = (int)(this.done * 100L / this.steps);
            if (percent != this.lastPercent)
            {
                this.lastPercent = percent;
                this.sink.Report(new LoadProgressParams(ProgressKind.Index, this.target, string.Empty, null, this.done, this.steps, current, percent));
            }
        }
    }
}
