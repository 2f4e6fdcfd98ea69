using System.Diagnostics;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using System.Text.Json;
using SharpClaw.Protocol;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Hosting;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server;

/// <summary>
/// Entry point of the Roslyn host. stdout is the JSON-RPC channel and nothing else may write to it;
/// logs go to stderr and the log file. Exit codes: 0 normal, 1 exit without shutdown, 2 bad usage.
/// </summary>
internal static class Program
{
    private static async Task<int> Main(string[] args)
    {
        DateTime startedAtUtc = DateTime.UtcNow;
        long mainStarted = Stopwatch.GetTimestamp();
        if (!CommandLineOptions.TryParse(args, out CommandLineOptions options, out string? error))
        {
            Console.Error.WriteLine($"{HostInfo.ServerName}: {error}");
            Console.Error.WriteLine("Run with --help for the list of options.");
            return 2;
        }

        // These modes never speak JSON-RPC, so stdout is theirs.
        if (options.ShowHelp)
        {
            Console.Out.Write(CommandLineOptions.Usage);
            return 0;
        }

        if (options.ShowVersion)
        {
            Console.Out.WriteLine(HostInfo.HostVersion);
            return 0;
        }

        if (options.PrintProtocolSchema)
        {
            PrintProtocolSchema();
            return 0;
        }

        StateFolder.Configure(options.StateDirectory);
        return options.Listen is { } socket
            ? await RunResidentHostAsync(options, socket, startedAtUtc).ConfigureAwait(false)
            : await RunHostAsync(options, startedAtUtc, mainStarted).ConfigureAwait(false);
    }

    private static async Task<int> RunHostAsync(CommandLineOptions options, DateTime startedAtUtc, long mainStarted)
    {
        // Take the raw stdio streams for the protocol, then point Console.Out at stderr so a stray
        // Console.WriteLine (ours or a library's) can never corrupt the message stream.
        Stream protocolOut = Console.OpenStandardOutput();
        Stream protocolIn = Console.OpenStandardInput();
        Console.SetOut(Console.Error);

        using HostLog log = new(Console.Error);
        LogUnhandledExceptions(log);

        log.Info($"{HostInfo.ServerName} {HostInfo.HostVersion} starting: pid {Environment.ProcessId}, "
            + $"{RuntimeInformation.FrameworkDescription} ({RuntimeInformation.RuntimeIdentifier}), "
            + $"args [{string.Join(' ', Environment.GetCommandLineArgs().Skip(1))}]");

        HostServer server = new(protocolOut, protocolIn, log, new HostServerOptions
        {
            LogDirectory = options.LogDirectory,
            ClientProcessId = options.ClientProcessId,
            StartedAtUtc = startedAtUtc,
            StateRoot = options.StoreDirectory,
        });
        // SIGTERM, SIGINT or SIGHUP during an apply: end like an exit (the apply rolls back first), not at once.
        using PosixSignalRegistration terminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, context => EndAfterApplies(context, server, log));
        using PosixSignalRegistration interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, context => EndAfterApplies(context, server, log));
        using PosixSignalRegistration hangUp = PosixSignalRegistration.Create(PosixSignal.SIGHUP, context => EndAfterApplies(context, server, log));
        server.Start();
        log.Info($"Listening on stdio ({Stopwatch.GetElapsedTime(mainStarted).TotalMilliseconds:0} ms after Main started).");

        HostExit exit = await server.Completion.ConfigureAwait(false);
        await server.State.Edits.Applies.StopBeforeExitAsync(log).ConfigureAwait(false);
        log.Info($"Exiting with code {exit.ExitCode}: {exit.Reason}.");
        if (server.State.Cache.Snapshots is { } snapshots)
        {
            // A short CLI call exits right after its answer: let the approved snapshot it loaded reach the store.
            await snapshots.FlushAsync(TimeSpan.FromSeconds(5)).ConfigureAwait(false);
        }

        log.Info($"Cost of this host: {ProcessCost.Describe()}.");

        // Deliberately no DisposeAsync: a thread may be blocked reading stdin, and returning from
        // Main ends the process (and every stream) at once, which is what "exit promptly" needs.
        return exit.ExitCode;
    }

    /// <summary>A termination signal during an apply becomes an exit request; otherwise the signal ends the process as usual.</summary>
    private static void EndAfterApplies(PosixSignalContext context, HostServer server, HostLog log)
    {
        if (!server.State.Edits.Applies.Busy)
        {
            return;
        }

        context.Cancel = true;
        log.Info($"{context.Signal} during an apply: exiting once it has finished or rolled back.");
        server.Lifecycle.RequestExit(128 + SignalNumber(context.Signal), $"{context.Signal}");
    }

    private static int SignalNumber(PosixSignal signal) => signal switch
    {
        PosixSignal.SIGHUP => 1,
        PosixSignal.SIGINT => 2,
        _ => 15,
    };

    /// <summary>A resident host has no stdio client: its stdout and stderr are not read, so it logs to its file only.</summary>
    private static async Task<int> RunResidentHostAsync(CommandLineOptions options, string socket, DateTime startedAtUtc)
    {
        Console.SetOut(TextWriter.Null);
        using HostLog log = new(TextWriter.Null);
        LogUnhandledExceptions(log);

        log.Info($"{HostInfo.ServerName} {HostInfo.HostVersion} starting as a resident host: pid {Environment.ProcessId}, {RuntimeInformation.FrameworkDescription} ({RuntimeInformation.RuntimeIdentifier}).");
        try
        {
            return await ResidentHost.RunAsync(socket, log, new HostServerOptions { LogDirectory = options.LogDirectory, StartedAtUtc = startedAtUtc, StateRoot = options.StoreDirectory }, options.IdleExit).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is SocketException or IOException or StateFolderException or UnauthorizedAccessException)
        {
            log.Error($"The resident host cannot listen on {socket}: {ex.Message}");
            return 2;
        }
    }

    private static void PrintProtocolSchema()
    {
        using Stream stdout = Console.OpenStandardOutput();
        using (Utf8JsonWriter writer = new(stdout, new JsonWriterOptions { Indented = true }))
        {
            ProtocolSchema.Create().WriteTo(writer);
        }

        stdout.Write("\n"u8);
    }

    /// <summary>A crash or a lost task failure leaves its reason in the host log (both entry points).</summary>
    private static void LogUnhandledExceptions(HostLog log)
    {
        AppDomain.CurrentDomain.UnhandledException += (_, e) =>
            log.Error($"Unhandled exception (terminating: {e.IsTerminating})", e.ExceptionObject as Exception);
        TaskScheduler.UnobservedTaskException += (_, e) =>
        {
            log.Error("Unobserved task exception", e.Exception);
            e.SetObserved();
        };
    }
}
