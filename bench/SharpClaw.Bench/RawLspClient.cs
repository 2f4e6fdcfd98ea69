using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.Json.Nodes;

namespace SharpClaw.Bench;

/// <summary>
/// Just enough of an LSP-framed JSON-RPC client to drive the real host process (dotnet SharpClaw.Server.dll)
/// and answer its authorization requests, for measuring the process itself.
/// </summary>
internal sealed class RawLspClient : IAsyncDisposable
{
    private readonly Process process;
    private int nextId;

    private RawLspClient(Process process) => this.process = process;

    public int ProcessId => this.process.Id;

    public static RawLspClient Start(string serverDll, IReadOnlyDictionary<string, string>? environment = null)
    {
        ProcessStartInfo startInfo = new("dotnet")
        {
            UseShellExecute = false,
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        startInfo.ArgumentList.Add(serverDll);
        foreach ((string name, string value) in environment ?? new Dictionary<string, string>())
        {
            startInfo.Environment[name] = value;
        }

        Process process = Process.Start(startInfo) ?? throw new InvalidOperationException("Could not start the host.");
        _ = Task.Run(async () =>
        {
            // Keep stderr drained (the host logs there).
            char[] buffer = new char[4096];
            while (await process.StandardError.ReadAsync(buffer).ConfigureAwait(false) > 0)
            {
            }
        });
        return new RawLspClient(process);
    }

    /// <summary>Sends a request; grants every sharpclaw/authorizeEvaluation on the way; returns the response.</summary>
    public async Task<JsonObject> RequestAsync(string method, JsonNode? parameters)
    {
        int id = ++this.nextId;
        await this.SendAsync(new JsonObject { ["jsonrpc"] = "2.0", ["id"] = id, ["method"] = method, ["params"] = parameters });
        while (true)
        {
            JsonObject message = await this.ReadAsync();
            if (message["method"] is not null && message["id"] is not null)
            {
                await this.SendAsync(new JsonObject { ["jsonrpc"] = "2.0", ["id"] = message["id"]!.DeepClone(), ["result"] = new JsonObject { ["granted"] = true } });
            }
            else if (message["method"] is null && message["id"]?.GetValue<int>() == id)
            {
                return message;
            }
        }
    }

    /// <summary>VmRSS and VmHWM of the host process, in bytes (Linux).</summary>
    public (long Rss, long Peak) Memory()
    {
        long rss = 0;
        long peak = 0;
        foreach (string line in File.ReadLines($"/proc/{this.process.Id}/status"))
        {
            if (line.StartsWith("VmRSS:", StringComparison.Ordinal))
            {
                rss = Kilobytes(line) * 1024;
            }
            else if (line.StartsWith("VmHWM:", StringComparison.Ordinal))
            {
                peak = Kilobytes(line) * 1024;
            }
        }

        return (rss, peak);
    }

    public async ValueTask DisposeAsync()
    {
        try
        {
            await this.RequestAsync("shutdown", null);
            await this.SendAsync(new JsonObject { ["jsonrpc"] = "2.0", ["method"] = "exit" });
            using CancellationTokenSource timeout = new(TimeSpan.FromSeconds(10));
            await this.process.WaitForExitAsync(timeout.Token);
        }
        catch (Exception ex) when (ex is IOException or OperationCanceledException or InvalidOperationException)
        {
            this.process.Kill(entireProcessTree: true);
        }

        this.process.Dispose();
    }

    private static long Kilobytes(string line) =>
        long.Parse(line.Split(':', 2)[1].Trim().Split(' ')[0], CultureInfo.InvariantCulture);

    private async Task SendAsync(JsonObject message)
    {
        byte[] body = Encoding.UTF8.GetBytes(message.ToJsonString());
        Stream stdin = this.process.StandardInput.BaseStream;
        await stdin.WriteAsync(Encoding.ASCII.GetBytes(string.Create(CultureInfo.InvariantCulture, $"Content-Length: {body.Length}\r\n\r\n")));
        await stdin.WriteAsync(body);
        await stdin.FlushAsync();
    }

    private async Task<JsonObject> ReadAsync()
    {
        Stream stdout = this.process.StandardOutput.BaseStream;
        int length = 0;
        while (true)
        {
            string line = await ReadLineAsync(stdout);
            if (line.Length == 0)
            {
                break;
            }

            if (line.StartsWith("Content-Length:", StringComparison.OrdinalIgnoreCase))
            {
                length = int.Parse(line["Content-Length:".Length..].Trim(), CultureInfo.InvariantCulture);
            }
        }

        byte[] body = new byte[length];
        await stdout.ReadExactlyAsync(body);
        return JsonNode.Parse(body)!.AsObject();
    }

    private static async Task<string> ReadLineAsync(Stream stream)
    {
        StringBuilder line = new();
        byte[] one = new byte[1];
        while (await stream.ReadAsync(one) == 1)
        {
            if (one[0] == (byte)'\n')
            {
                return line.ToString().TrimEnd('\r');
            }

            line.Append((char)one[0]);
        }

        throw new EndOfStreamException("The host closed stdout.");
    }
}
