using System.Net.Sockets;
using System.Text.Json;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Hosting;

/// <summary>
/// The resident host (<c>--listen</c>): serves connections, several at once, on a Unix domain socket in the
/// private state folder's <c>hosts/</c>, keeping one <see cref="HostServices"/> (loaded compilation contexts,
/// proposals, the store) for all of them, so a CLI call answers from what an earlier call loaded instead of
/// starting a process and compiling again. Each connection is a whole LSP session of its own: its approvals
/// come from that client's callbacks, and what it may reuse is what any host may reuse (valid cached
/// contexts need no authorization; anything stale asks again). A closed connection ends only that session;
/// <c>shutdown</c> ends the resident host, as does idleness or its socket file disappearing (the state
/// folder cleared). Next to the socket, <c>PATH.json</c> names the process and its log for clients.
/// </summary>
internal static class ResidentHost
{
    private static readonly TimeSpan Poll = TimeSpan.FromSeconds(1);

    public static async Task<int> RunAsync(string socketPath, HostLog log, HostServerOptions options, TimeSpan idleExit)
    {
        if (options.LogDirectory is { } logDirectory)
        {
            log.TryOpenFile(logDirectory);
        }

        string path = Path.GetFullPath(socketPath);
        string hosts = StateFolder.Subfolder(StateFolder.Root(), "hosts");
        if (!PathUtilEquals(Path.GetDirectoryName(path), hosts))
        {
            log.Error($"--listen {path} is not in the state folder's hosts/ ({hosts}); refusing to listen elsewhere.");
            return 2;
        }

        using Socket listener = new(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        if (!await TryBindAsync(listener, path, log).ConfigureAwait(false))
        {
            return 0;
        }

        // Written before listening: a client connects only once listening, and then finds it.
        string infoPath = path + ".json";
        File.WriteAllText(infoPath, JsonSerializer.Serialize(new { pid = Environment.ProcessId, logFile = log.FilePath, version = HostInfo.HostVersion }));
        listener.Listen(16);
        log.Info($"Resident host listening on {path} (exits after {idleExit.TotalSeconds:0} s without a connection).");
        HostServices services = new(log, options);
        Sessions sessions = new();
        string reason = "stopped";
        bool socketIsOurs = true;
        try
        {
            while (true)
            {
                Socket? client = await AcceptAsync(listener, path, idleExit, sessions).ConfigureAwait(false);
                if (client is null)
                {
                    socketIsOurs = File.Exists(path);
                    reason = sessions.ShutdownRequested ? "a client asked it to shut down"
                        : socketIsOurs ? $"idle for {idleExit.TotalSeconds:0} s" : "its socket file is gone";
                    return 0;
                }

                sessions.Serve(client, log, options, services);
            }
        }
        finally
        {
            log.Info($"Resident host exits: {reason}.");
            listener.Close();
            await sessions.EndAllAsync(reason).ConfigureAwait(false);
            if (socketIsOurs)
            {
                TryDelete(path);
                TryDelete(infoPath);
            }

            await services.Edits.Applies.StopBeforeExitAsync(log).ConfigureAwait(false);
            if (services.Cache.Snapshots is { } snapshots)
            {
                await snapshots.FlushAsync(TimeSpan.FromSeconds(5)).ConfigureAwait(false);
            }

            await services.DisposeAsync().ConfigureAwait(false);
            log.Info($"Cost of this host: {ProcessCost.Describe()}.");
        }
    }

    /// <summary>
    /// The connections being served, each a whole LSP session over the shared services. They run side by side: a
    /// long call (a verify holds its connection for its whole build and test run) must not hold back the next.
    /// </summary>
    private sealed class Sessions
    {
        private readonly Lock gate = new();
        private readonly Dictionary<HostServer, Task> open = [];
        private readonly TaskCompletionSource shutdown = new(TaskCreationOptions.RunContinuationsAsynchronously);

        /// <summary>Completes when a client asked the resident host to shut down.</summary>
        public Task Shutdown => this.shutdown.Task;

        public bool ShutdownRequested => this.shutdown.Task.IsCompleted;

        public int Count
        {
            get
            {
                lock (this.gate)
                {
                    return this.open.Count;
                }
            }
        }

        public void Serve(Socket client, HostLog log, HostServerOptions options, HostServices services)
        {
            NetworkStream stream = new(client, ownsSocket: true);
            HostServer server = new(stream, stream, log, options with { ClientProcessId = null }, services);
            lock (this.gate)
            {
                this.open[server] = this.RunAsync(server, stream, log);
            }
        }

        private async Task RunAsync(HostServer server, NetworkStream stream, HostLog log)
        {
            await Task.Yield(); // the session runs once Serve has recorded it, so its end always finds it to remove
            try
            {
                server.Start();
                HostExit exit = await server.Completion.ConfigureAwait(false);
                log.Info($"Resident host: connection ended ({exit.Reason}).");
                if (server.Lifecycle.Phase == HostPhase.ShutdownRequested)
                {
                    this.shutdown.TrySetResult();
                }
            }
            finally
            {
                await server.DisposeAsync().ConfigureAwait(false);
                await stream.DisposeAsync().ConfigureAwait(false);
                lock (this.gate)
                {
                    this.open.Remove(server);
                }
            }
        }

        /// <summary>Ends every open connection (the resident host is exiting) and waits a little for them to close.</summary>
        public async Task EndAllAsync(string reason)
        {
            Task[] running;
            lock (this.gate)
            {
                foreach (HostServer server in this.open.Keys)
                {
                    server.Lifecycle.RequestExit(0, $"the resident host exits: {reason}");
                }

                running = [.. this.open.Values];
            }

            await Task.WhenAny(Task.WhenAll(running), Task.Delay(TimeSpan.FromSeconds(5))).ConfigureAwait(false);
        }
    }

    /// <summary>
    /// The next connection, or null once a client asked for shutdown, after <paramref name="idleExit"/> without an
    /// open connection, or once the socket file is gone.
    /// </summary>
    private static async Task<Socket?> AcceptAsync(Socket listener, string path, TimeSpan idleExit, Sessions sessions)
    {
        using CancellationTokenSource stop = new();
        Task<Socket> accept = listener.AcceptAsync(stop.Token).AsTask();
        DateTime deadline = DateTime.UtcNow + idleExit;
        while (true)
        {
            Task woke = await Task.WhenAny(accept, sessions.Shutdown, Task.Delay(Poll)).ConfigureAwait(false);
            if (woke == accept)
            {
                return await accept.ConfigureAwait(false);
            }

            if (sessions.Count > 0)
            {
                deadline = DateTime.UtcNow + idleExit; // idle counts from the last connection's end
            }

            if (sessions.ShutdownRequested || DateTime.UtcNow >= deadline || !File.Exists(path))
            {
                stop.Cancel();
                try
                {
                    // A connection that arrived at the last moment is served rather than dropped (not after a shutdown).
                    Socket late = await accept.ConfigureAwait(false);
                    if (!sessions.ShutdownRequested)
                    {
                        return late;
                    }

                    late.Dispose();
                    return null;
                }
                catch (OperationCanceledException)
                {
                    return null;
                }
            }
        }
    }

    /// <summary>Binds the socket; false when another resident host already answers on it (a stale file is replaced).</summary>
    private static async Task<bool> TryBindAsync(Socket listener, string path, HostLog log)
    {
        UnixDomainSocketEndPoint endPoint = new(path);
        for (int attempt = 0; ; attempt++)
        {
            try
            {
                listener.Bind(endPoint);
                return true;
            }
            catch (SocketException ex) when (ex.SocketErrorCode == SocketError.AddressAlreadyInUse && attempt == 0)
            {
                using Socket probe = new(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
                try
                {
                    await probe.ConnectAsync(endPoint).ConfigureAwait(false);
                    log.Info($"Another resident host already listens on {path}; this one exits.");
                    return false;
                }
                catch (SocketException)
                {
                    log.Info($"Replacing the stale socket {path} (nothing listens on it).");
                    TryDelete(path);
                }
            }
        }
    }

    private static bool PathUtilEquals(string? a, string b) =>
        a is not null && string.Equals(Path.TrimEndingDirectorySeparator(a), Path.TrimEndingDirectorySeparator(b), OperatingSystem.IsLinux() ? StringComparison.Ordinal : StringComparison.OrdinalIgnoreCase);

    private static void TryDelete(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (IOException)
        {
        }
        catch (UnauthorizedAccessException)
        {
        }
    }
}
