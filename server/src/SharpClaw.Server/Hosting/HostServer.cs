using System.Diagnostics;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Loading;
using StreamJsonRpc;

namespace SharpClaw.Server.Hosting;

/// <summary>
/// One host connection: a JsonRpc over any (sending, receiving) stream pair with every handler
/// registered. Program runs it over stdout/stdin, the resident host over each socket connection it
/// accepts (sharing its <see cref="HostServices"/>); tests run it over in-memory streams.
/// </summary>
public sealed class HostServer : IAsyncDisposable
{
    private readonly HostJsonRpc rpc;
    private readonly JsonRpcLoadProgressSink progress;
    private readonly IDisposable progressAttachment;
    private bool started;

    public HostServer(Stream sendingStream, Stream receivingStream, HostLog log, HostServerOptions? options = null, HostServices? shared = null)
    {
        this.State = new HostState(log, options ?? new HostServerOptions(), shared);
        this.rpc = new HostJsonRpc(new GuardedMessageHandler(sendingStream, receivingStream, RpcSerialization.CreateFormatter()), this.Lifecycle, log)
        {
            CancelLocallyInvokedMethodsWhenConnectionIsClosed = true,
        };

        // StreamJsonRpc's default TraceSource goes to DefaultTraceListener; send warnings to our log.
        TraceSource trace = new("SharpClaw.JsonRpc", SourceLevels.Warning);
        trace.Listeners.Clear();
        trace.Listeners.Add(new HostLogTraceListener(log));
        this.rpc.TraceSource = trace;

        // One handler class per method (or per small family of notifications).
        this.rpc.AddLocalRpcTarget(new RejectedMessageHandler(log));
        this.rpc.AddLocalRpcTarget(new InitializeHandler(this.State));
        this.rpc.AddLocalRpcTarget(new InitializedHandler(this.State));
        this.rpc.AddLocalRpcTarget(new SetTraceHandler());
        this.rpc.AddLocalRpcTarget(new ShutdownHandler(this.State));
        this.rpc.AddLocalRpcTarget(new ExitHandler(this.State));
        this.rpc.AddLocalRpcTarget(new StatusHandler(this.State));
        this.rpc.AddLocalRpcTarget(new TextDocumentSyncHandler(this.State.Cache.OpenDocuments));
        this.progress = new JsonRpcLoadProgressSink(this.rpc, log);
        this.rpc.BeforeResponse = this.progress.FlushAsync;
        this.progressAttachment = this.State.Progress.Attach(this.progress);
        this.rpc.AddLocalRpcTarget(new SolutionInspectHandler(this.State, this.rpc, this.progress));
        this.rpc.AddLocalRpcTarget(new ProjectGraphHandler(this.State, this.rpc));
        this.rpc.AddLocalRpcTarget(new ResolveTargetHandler());
        this.rpc.AddLocalRpcTarget(new ResolveSdkHandler());
        this.rpc.AddLocalRpcTarget(new SymbolQueryHandler(this.State, this.rpc));
        this.rpc.AddLocalRpcTarget(new DiagnosticsHandler(this.State, this.rpc));
        this.rpc.AddLocalRpcTarget(new NavigationHandler(this.State, this.rpc));
        this.rpc.AddLocalRpcTarget(new EditHandler(this.State, this.rpc));
        this.rpc.AddLocalRpcTarget(new StoreHandler(this.State.Store));

        this.rpc.Disconnected += (_, e) =>
        {
            // The client closed the pipe without 'exit' (or after it): leave like LSP's exit would.
            HostLifecycle lifecycle = this.Lifecycle;
            string detail = e.Exception is null ? e.Description : $"{e.Description} ({e.Exception.GetType().Name}: {e.Exception.Message})";
            if (lifecycle.RequestExit(lifecycle.ExitCodeForExitNotification, $"connection closed: {e.Reason}: {detail}"))
            {
                log.Info($"Connection closed: {e.Reason}: {detail}");
            }
        };
    }

    public HostState State { get; }

    public HostLifecycle Lifecycle => this.State.Lifecycle;

    /// <summary>The JsonRpc instance, for tests and future server→client notifications.</summary>
    public JsonRpc Rpc => this.rpc;

    /// <summary>Completes when the host should exit (exit notification, client gone, or connection closed).</summary>
    public Task<HostExit> Completion => this.Lifecycle.Exited;

    public void Start()
    {
        if (this.started)
        {
            throw new InvalidOperationException("The host server was already started.");
        }

        this.started = true;
        if (this.State.Options.LogDirectory is { } logDirectory)
        {
            this.State.Log.TryOpenFile(logDirectory);
        }

        if (this.State.Options.ClientProcessId is int clientProcessId)
        {
            this.State.WatchClientProcess(clientProcessId, ClientProcessSource.CommandLine);
        }

        this.rpc.StartListening();
    }

    public async ValueTask DisposeAsync()
    {
        this.progressAttachment.Dispose();
        this.State.Dispose();
        if (this.State.OwnsServices)
        {
            await this.State.Cache.DisposeAsync().ConfigureAwait(false);
        }
        this.progress.Complete();
        this.rpc.Dispose();
    }
}
