using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Threading.Channels;

namespace SharpClaw.Server.Tests.Infrastructure;

/// <summary>
/// Runs the real host ("dotnet SharpClaw.Server.dll") and talks to it the way vscode-jsonrpc does:
/// raw LSP base-protocol framing on stdin/stdout. Everything on stdout is parsed strictly, so any
/// stray byte outside a well-formed frame is recorded as a protocol violation.
/// </summary>
internal sealed class HostProcess : IAsyncDisposable
{
    /// <summary>A deadline, never a wait: a passing call returns at once; a host's start alone took over 15 s on a loaded 2-core machine.</summary>
    private static readonly TimeSpan DefaultTimeout = TimeSpan.FromSeconds(60);

    private readonly Process process;
    private readonly Channel<JsonObject> messages = Channel.CreateUnbounded<JsonObject>();
    private readonly List<string> violations = [];
    private readonly StringBuilder stderr = new();
    private readonly Task stdoutReader;
    private readonly Task stderrReader;
    private int nextId;

    private HostProcess(Process process)
    {
        this.process = process;
        this.stdoutReader = Task.Run(this.ReadStdoutAsync);
        this.stderrReader = Task.Run(this.ReadStderrAsync);
    }

    public int Id => this.process.Id;

    public bool HasExited => this.process.HasExited;

    public int ExitCode => this.process.ExitCode;

    public string Stderr
    {
        get
        {
            lock (this.stderr)
            {
                return this.stderr.ToString();
            }
        }
    }

    /// <summary>Bytes on stdout that were not part of a well-formed JSON-RPC frame.</summary>
    public IReadOnlyList<string> ProtocolViolations
    {
        get
        {
            lock (this.violations)
            {
                return [.. this.violations];
            }
        }
    }

    public static HostProcess Start(params string[] arguments) =>
        new(Process.Start(CreateStartInfo(arguments)) ?? throw new InvalidOperationException("Could not start the host."));

    /// <summary>Starts the host with extra environment variables (TMPDIR, SHARPCLAW_STATE_DIR, ...).</summary>
    public static HostProcess StartWithEnvironment(IReadOnlyDictionary<string, string> environment, params string[] arguments)
    {
        ProcessStartInfo startInfo = CreateStartInfo(arguments);
        foreach ((string name, string value) in environment)
        {
            startInfo.Environment[name] = value;
        }

        return new(Process.Start(startInfo) ?? throw new InvalidOperationException("Could not start the host."));
    }

    /// <summary>Runs the host to completion (for modes that don't speak JSON-RPC).</summary>
    public static async Task<(int ExitCode, string Stdout, string Stderr)> RunToExitAsync(params string[] arguments)
    {
        using Process process = Process.Start(CreateStartInfo(arguments)) ?? throw new InvalidOperationException("Could not start the host.");
        process.StandardInput.Close();
        Task<string> stdout = process.StandardOutput.ReadToEndAsync();
        Task<string> stderr = process.StandardError.ReadToEndAsync();
        using CancellationTokenSource timeout = new(DefaultTimeout);
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            Assert.Fail($"The host did not exit within {DefaultTimeout.TotalSeconds} s.");
        }

        return (process.ExitCode, await stdout, await stderr);
    }

    public async Task SendAsync(JsonObject message)
    {
        byte[] body = Encoding.UTF8.GetBytes(message.ToJsonString());
        byte[] header = Encoding.ASCII.GetBytes(string.Create(CultureInfo.InvariantCulture, $"Content-Length: {body.Length}\r\n\r\n"));
        Stream stdin = this.process.StandardInput.BaseStream;
        await stdin.WriteAsync(header);
        await stdin.WriteAsync(body);
        await stdin.FlushAsync();
    }

    /// <summary>Sends <paramref name="json"/> as one frame, byte for byte, and returns the response with that id.</summary>
    public async Task<JsonObject> RequestRawAsync(int id, string json)
    {
        byte[] body = Encoding.UTF8.GetBytes(json);
        byte[] header = Encoding.ASCII.GetBytes(string.Create(CultureInfo.InvariantCulture, $"Content-Length: {body.Length}\r\n\r\n"));
        Stream stdin = this.process.StandardInput.BaseStream;
        await stdin.WriteAsync(header);
        await stdin.WriteAsync(body);
        await stdin.FlushAsync();
        JsonObject response = await Poll.WithTimeout(this.messages.Reader.ReadAsync().AsTask(), DefaultTimeout, $"the response to raw request {id}");
        Assert.Equal(id, response["id"]?.GetValue<int>());
        return response;
    }

    public Task NotifyAsync(string method, JsonNode? parameters = null)
    {
        JsonObject message = new() { ["jsonrpc"] = "2.0", ["method"] = method };
        if (parameters is not null)
        {
            message["params"] = parameters;
        }

        return this.SendAsync(message);
    }

    /// <summary>Sends a request (params omitted when null, like vscode-jsonrpc) and returns the whole response.</summary>
    public async Task<JsonObject> RequestAsync(string method, JsonNode? parameters = null)
    {
        int id = Interlocked.Increment(ref this.nextId);
        JsonObject message = new() { ["jsonrpc"] = "2.0", ["id"] = id, ["method"] = method };
        if (parameters is not null)
        {
            message["params"] = parameters;
        }

        await this.SendAsync(message);
        JsonObject response = await Poll.WithTimeout(this.messages.Reader.ReadAsync().AsTask(), DefaultTimeout, $"the response to {method}");
        Assert.Equal(id, response["id"]?.GetValue<int>());
        return response;
    }

    /// <summary>
    /// Sends a request and returns its response, answering server→client requests on the way with
    /// <paramref name="answer"/> (its result goes back as "result") and collecting notifications.
    /// </summary>
    public async Task<JsonObject> RequestServingAsync(
        string method, JsonNode? parameters, Func<JsonObject, JsonNode?> answer, List<JsonObject> notifications, TimeSpan timeout)
    {
        int id = Interlocked.Increment(ref this.nextId);
        JsonObject message = new() { ["jsonrpc"] = "2.0", ["id"] = id, ["method"] = method };
        if (parameters is not null)
        {
            message["params"] = parameters;
        }

        await this.SendAsync(message);
        using CancellationTokenSource cancellation = new(timeout);
        while (true)
        {
            JsonObject incoming = await this.messages.Reader.ReadAsync(cancellation.Token);
            if (incoming["method"] is not null && incoming["id"] is not null)
            {
                await this.SendAsync(new JsonObject { ["jsonrpc"] = "2.0", ["id"] = incoming["id"]!.DeepClone(), ["result"] = answer(incoming) });
            }
            else if (incoming["method"] is not null)
            {
                notifications.Add(incoming);
            }
            else if (incoming["id"]?.GetValue<int>() == id)
            {
                return incoming;
            }
        }
    }

    public async Task<bool> WaitForExitAsync(TimeSpan timeout)
    {
        using CancellationTokenSource cancellation = new(timeout);
        try
        {
            await this.process.WaitForExitAsync(cancellation.Token);
        }
        catch (OperationCanceledException)
        {
            return false;
        }

        // Let the readers see EOF so ProtocolViolations/Stderr are complete.
        await Task.WhenAll(this.stdoutReader, this.stderrReader).WaitAsync(timeout);
        return true;
    }

    public void CloseStdin() => this.process.StandardInput.Close();

    public async ValueTask DisposeAsync()
    {
        try
        {
            if (!this.process.HasExited)
            {
                this.process.Kill(entireProcessTree: true);
                await this.process.WaitForExitAsync();
            }
        }
        catch (InvalidOperationException)
        {
            // Never started or already reaped.
        }

        this.process.Dispose();
    }

    private static ProcessStartInfo CreateStartInfo(string[] arguments)
    {
        ProcessStartInfo startInfo = new(TestPaths.DotnetHost)
        {
            UseShellExecute = false,
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        startInfo.ArgumentList.Add(TestPaths.ServerDll);
        foreach (string argument in arguments)
        {
            startInfo.ArgumentList.Add(argument);
        }

        return startInfo;
    }

    private void Violation(string text)
    {
        lock (this.violations)
        {
            this.violations.Add(text);
        }
    }

    private async Task ReadStdoutAsync()
    {
        Stream stdout = this.process.StandardOutput.BaseStream;
        try
        {
            while (true)
            {
                int? length = await ReadHeadersAsync(stdout);
                if (length is null)
                {
                    return; // Clean EOF between frames.
                }

                byte[] body = new byte[length.Value];
                await stdout.ReadExactlyAsync(body);
                JsonObject? message = null;
                try
                {
                    message = JsonNode.Parse(body) as JsonObject;
                }
                catch (JsonException ex)
                {
                    this.Violation($"invalid JSON body: {ex.Message}: {Encoding.UTF8.GetString(body)}");
                }

                if (message is null || message["jsonrpc"]?.GetValue<string>() != "2.0")
                {
                    this.Violation($"not a JSON-RPC 2.0 message: {Encoding.UTF8.GetString(body)}");
                    continue;
                }

                await this.messages.Writer.WriteAsync(message);
            }
        }
        catch (Exception ex) when (ex is EndOfStreamException or FormatException)
        {
            this.Violation(ex.Message);
        }
        finally
        {
            this.messages.Writer.TryComplete();
        }
    }

    /// <summary>Reads "Header: value\r\n" lines up to the blank line; null on EOF before any byte.</summary>
    private async Task<int?> ReadHeadersAsync(Stream stdout)
    {
        int? contentLength = null;
        bool sawAnyByte = false;
        while (true)
        {
            string? line = await ReadAsciiLineAsync(stdout, sawAnyByte);
            if (line is null)
            {
                return null;
            }

            sawAnyByte = true;
            if (line.Length == 0)
            {
                return contentLength ?? throw new FormatException("frame without Content-Length");
            }

            int colon = line.IndexOf(':', StringComparison.Ordinal);
            string name = colon > 0 ? line[..colon].Trim() : string.Empty;
            string value = colon > 0 ? line[(colon + 1)..].Trim() : string.Empty;
            if (name.Equals("Content-Length", StringComparison.OrdinalIgnoreCase) && int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out int length))
            {
                contentLength = length;
            }
            else if (!name.Equals("Content-Type", StringComparison.OrdinalIgnoreCase))
            {
                throw new FormatException($"unexpected stdout line outside a frame: '{line}'");
            }
        }
    }

    private static async Task<string?> ReadAsciiLineAsync(Stream stream, bool insideFrame)
    {
        StringBuilder line = new();
        byte[] one = new byte[1];
        while (true)
        {
            int read = await stream.ReadAsync(one);
            if (read == 0)
            {
                if (line.Length == 0 && !insideFrame)
                {
                    return null;
                }

                throw new EndOfStreamException($"stdout ended inside a frame header: '{line}'");
            }

            if (one[0] == (byte)'\n')
            {
                if (line.Length == 0 || line[^1] != '\r')
                {
                    throw new FormatException($"header line not terminated by CRLF: '{line}'");
                }

                return line.ToString(0, line.Length - 1);
            }

            line.Append((char)one[0]);
        }
    }

    private async Task ReadStderrAsync()
    {
        char[] buffer = new char[4096];
        int read;
        while ((read = await this.process.StandardError.ReadAsync(buffer)) > 0)
        {
            lock (this.stderr)
            {
                this.stderr.Append(buffer, 0, read);
            }
        }
    }
}
