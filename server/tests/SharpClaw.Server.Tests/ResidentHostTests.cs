using System.Diagnostics;
using System.Net.Sockets;
using System.Text;
using System.Text.Json.Nodes;
using SharpClaw.Protocol;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// The resident host (<c>--listen</c>) as a real process: it listens only in the state folder's hosts/,
/// serves connections from one process, several at once (a verify holds its connection for minutes), does not
/// count an open connection as idle, leaves a socket another resident host already serves to it, replaces a
/// stale socket file, and exits when its socket file is removed.
/// </summary>
public sealed class ResidentHostTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task ASocketOutsideTheStateFoldersHosts_IsRefusedWithExitCode2()
    {
        using TempDirectory temp = new();
        string socket = Path.Combine(temp.Path, "elsewhere.sock");
        (int exitCode, _, _) = await HostProcess.RunToExitAsync("--listen", socket, "--state-directory", Path.Combine(temp.Path, "state"));
        Assert.Equal(2, exitCode);
        Assert.False(File.Exists(socket));
    }

    [Fact]
    public async Task ConnectionsInTurn_AreServedByOneProcess_AndASecondResidentLeavesTheSocketToTheFirst()
    {
        using TempDirectory temp = new();
        (string state, string socket) = StateAndSocket(temp, "host-test");
        await using HostProcess resident = HostProcess.Start("--listen", socket, "--state-directory", state, "--idle-exit", "60");
        int first = await FirstStatusPidAsync(socket);
        int second = await StatusPidAsync(socket);
        Assert.Equal(resident.Id, first);
        Assert.Equal(resident.Id, second);

        (int exitCode, _, _) = await HostProcess.RunToExitAsync("--listen", socket, "--state-directory", state);
        Assert.Equal(0, exitCode);
        Assert.Equal(resident.Id, await StatusPidAsync(socket));

        File.Delete(socket);
        Assert.True(await resident.WaitForExitAsync(Timeout), "the resident host did not exit once its socket file was removed");
        Assert.Equal(0, resident.ExitCode);
    }

    [Fact]
    public async Task AnOpenConnection_DoesNotHoldBackTheNext_NorCountAsIdle()
    {
        using TempDirectory temp = new();
        (string state, string socket) = StateAndSocket(temp, "host-open");
        await using HostProcess resident = HostProcess.Start("--listen", socket, "--state-directory", state, "--idle-exit", "2");
        Assert.Equal(resident.Id, await FirstStatusPidAsync(socket));

        // A long session (as verify's): initialized and left open, longer than the idle limit.
        using Socket held = new(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        await held.ConnectAsync(new UnixDomainSocketEndPoint(socket));
        await using NetworkStream heldStream = new(held);
        await InitializeAsync(heldStream);

        // Another call meanwhile is answered at once, not after the open one ends.
        Assert.Equal(resident.Id, await StatusPidAsync(socket));
        await Task.Delay(TimeSpan.FromSeconds(4)); // past --idle-exit 2: an open connection is not idleness
        Assert.False(resident.HasExited, "the resident host exited as idle while a connection was open");
        await WriteAsync(heldStream, new JsonObject { ["jsonrpc"] = "2.0", ["id"] = 3, ["method"] = ProtocolMethods.Status });
        Assert.Equal(resident.Id, (await ReadAsync(heldStream))["result"]?["processId"]?.GetValue<int>());

        held.Shutdown(SocketShutdown.Both);
        Assert.True(await resident.WaitForExitAsync(Timeout), "the resident host did not exit once idle after the last connection closed");
        Assert.Equal(0, resident.ExitCode);
    }

    [Fact]
    public async Task AStaleSocketFile_IsReplaced()
    {
        using TempDirectory temp = new();
        (string state, string socket) = StateAndSocket(temp, "host-stale");
        await using (HostProcess killed = HostProcess.Start("--listen", socket, "--state-directory", state, "--idle-exit", "60"))
        {
            await WaitForAsync(() => File.Exists(socket));
            Process.GetProcessById(killed.Id).Kill(); // a killed host leaves its socket file behind, with nothing listening on it
            Assert.True(await killed.WaitForExitAsync(Timeout));
        }

        Assert.True(File.Exists(socket));
        await using HostProcess resident = HostProcess.Start("--listen", socket, "--state-directory", state, "--idle-exit", "60");
        Assert.Equal(resident.Id, await FirstStatusPidAsync(socket));
    }

    /// <summary>A state folder in <paramref name="temp"/> and a socket named <paramref name="name"/> in its hosts/, where a resident host may listen.</summary>
    private static (string State, string Socket) StateAndSocket(TempDirectory temp, string name)
    {
        string state = Path.Combine(temp.Path, "state");
        return (state, Path.Combine(StateFolder.Subfolder(StateFolder.Root(state), "hosts"), name + ".sock"));
    }

    /// <summary>The pid of the first session once the host listens (its socket file exists a moment before it does).</summary>
    private static async Task<int> FirstStatusPidAsync(string socket)
    {
        Stopwatch clock = Stopwatch.StartNew();
        while (true)
        {
            try
            {
                return await StatusPidAsync(socket);
            }
            catch (SocketException) when (clock.Elapsed < Timeout)
            {
                await Task.Delay(100);
            }
        }
    }

    /// <summary>One LSP session on the socket: initialize, sharpclaw/status; the host's pid.</summary>
    private static async Task<int> StatusPidAsync(string socket)
    {
        using Socket client = new(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        await client.ConnectAsync(new UnixDomainSocketEndPoint(socket));
        await using NetworkStream stream = new(client);
        await InitializeAsync(stream);
        await WriteAsync(stream, new JsonObject { ["jsonrpc"] = "2.0", ["id"] = 2, ["method"] = ProtocolMethods.Status });
        JsonObject status = await ReadAsync(stream);
        return status["result"]?["processId"]?.GetValue<int>() ?? throw new InvalidOperationException(status.ToJsonString());
    }

    private static async Task InitializeAsync(Stream stream)
    {
        await WriteAsync(stream, new JsonObject { ["jsonrpc"] = "2.0", ["id"] = 1, ["method"] = ProtocolMethods.Initialize, ["params"] = new JsonObject { ["processId"] = Environment.ProcessId, ["rootUri"] = null, ["capabilities"] = new JsonObject() } });
        Assert.NotNull((await ReadAsync(stream))["result"]);
        await WriteAsync(stream, new JsonObject { ["jsonrpc"] = "2.0", ["method"] = ProtocolMethods.Initialized, ["params"] = new JsonObject() });
    }

    private static async Task WriteAsync(Stream stream, JsonObject message)
    {
        byte[] body = Encoding.UTF8.GetBytes(message.ToJsonString());
        await stream.WriteAsync(Encoding.ASCII.GetBytes($"Content-Length: {body.Length}\r\n\r\n"));
        await stream.WriteAsync(body);
    }

    private static async Task<JsonObject> ReadAsync(Stream stream)
    {
        using CancellationTokenSource timeout = new(Timeout);
        while (true)
        {
            StringBuilder header = new();
            while (!header.ToString().EndsWith("\r\n\r\n", StringComparison.Ordinal))
            {
                byte[] one = new byte[1];
                if (await stream.ReadAsync(one, timeout.Token) == 0)
                {
                    throw new EndOfStreamException("the resident host closed the connection");
                }

                header.Append((char)one[0]);
            }

            string lengthLine = header.ToString().Split("\r\n").First(l => l.StartsWith("Content-Length:", StringComparison.OrdinalIgnoreCase));
            byte[] body = new byte[int.Parse(lengthLine["Content-Length:".Length..].Trim(), System.Globalization.CultureInfo.InvariantCulture)];
            await stream.ReadExactlyAsync(body, timeout.Token);
            JsonObject message = JsonNode.Parse(body)!.AsObject();
            if (message["id"] is not null && message["method"] is null)
            {
                return message; // a response; notifications (log, progress) are skipped
            }
        }
    }

    private static async Task WaitForAsync(Func<bool> condition)
    {
        Stopwatch clock = Stopwatch.StartNew();
        while (!condition())
        {
            Assert.True(clock.Elapsed < Timeout, "timed out");
            await Task.Delay(100);
        }
    }
}
