using System.Buffers;
using System.Globalization;
using System.IO.Pipelines;
using System.Text;
using System.Text.Json;
using SharpClaw.Server.Infrastructure;
using StreamJsonRpc;
using StreamJsonRpc.Protocol;

namespace SharpClaw.Server.Hosting;

/// <summary>
/// The host's reading side of the wire: LSP framing like <see cref="HeaderDelimitedMessageHandler"/>,
/// but every incoming frame is scanned first (one forward pass, no recursion) for what would
/// otherwise end the connection or reach a handler as a raw .NET error: nesting deeper than
/// <see cref="MaxDepth"/>, a lone UTF-16 surrogate, and — in requests — a NUL character. Such a
/// message is not deserialized; it becomes a request to <see cref="RejectedMessageMethod"/> with the
/// same id, which answers <c>InvalidRequest</c> naming the argument, and the host stays alive.
/// </summary>
public sealed class GuardedMessageHandler(Stream sendingStream, Stream receivingStream, IJsonRpcMessageFormatter formatter)
    : HeaderDelimitedMessageHandler(sendingStream, receivingStream, formatter)
{
    /// <summary>Deepest nesting accepted, below System.Text.Json's own limit of 64 (which would close the connection).</summary>
    public const int MaxDepth = 48;

    /// <summary>The internal method a rejected message is routed to (see <see cref="RejectedMessageHandler"/>).</summary>
    public const string RejectedMessageMethod = "sharpclaw/$rejectedMessage";

    private static readonly byte[] HeaderEnd = "\r\n\r\n"u8.ToArray();

    protected override async ValueTask<JsonRpcMessage?> ReadCoreAsync(CancellationToken cancellationToken)
    {
        PipeReader pipe = this.Reader ?? throw new InvalidOperationException("The host's message handler has no reader.");
        while (true)
        {
            ReadResult read = await pipe.ReadAsync(cancellationToken).ConfigureAwait(false);
            ReadOnlySequence<byte> buffer = read.Buffer;
            if (!TryFrame(buffer, out long bodyStart, out long bodyLength))
            {
                if (read.IsCompleted || read.IsCanceled || buffer.Length > 64 * 1024)
                {
                    // Not a frame we can read ahead: the base handler reports it as it always did.
                    pipe.AdvanceTo(buffer.Start, buffer.Start);
                    return await base.ReadCoreAsync(cancellationToken).ConfigureAwait(false);
                }

                pipe.AdvanceTo(buffer.Start, buffer.End);
                continue;
            }

            if (buffer.Length < bodyStart + bodyLength)
            {
                if (read.IsCompleted || read.IsCanceled)
                {
                    pipe.AdvanceTo(buffer.Start, buffer.Start);
                    return await base.ReadCoreAsync(cancellationToken).ConfigureAwait(false);
                }

                pipe.AdvanceTo(buffer.Start, buffer.End);
                continue;
            }

            ReadOnlySequence<byte> body = buffer.Slice(bodyStart, bodyLength);
            (string? problem, RequestId id) = Scan(body);
            if (problem is null)
            {
                pipe.AdvanceTo(buffer.Start, buffer.Start);
                return await base.ReadCoreAsync(cancellationToken).ConfigureAwait(false);
            }

            pipe.AdvanceTo(body.End);
            return new JsonRpcRequest
            {
                RequestId = id,
                Method = RejectedMessageMethod,
                NamedArguments = new Dictionary<string, object?> { ["reason"] = problem },
            };
        }
    }

    /// <summary>Finds the Content-Length frame at the start of <paramref name="buffer"/>.</summary>
    private static bool TryFrame(ReadOnlySequence<byte> buffer, out long bodyStart, out long bodyLength)
    {
        bodyStart = 0;
        bodyLength = 0;
        SequenceReader<byte> reader = new(buffer);
        if (!reader.TryReadTo(out ReadOnlySequence<byte> headers, HeaderEnd, advancePastDelimiter: true))
        {
            return false;
        }

        foreach (string line in Encoding.ASCII.GetString(headers.ToArray()).Split("\r\n"))
        {
            int colon = line.IndexOf(':', StringComparison.Ordinal);
            if (colon > 0
                && line[..colon].Trim().Equals("Content-Length", StringComparison.OrdinalIgnoreCase)
                && long.TryParse(line[(colon + 1)..].Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out long length))
            {
                bodyStart = reader.Consumed;
                bodyLength = length;
                return true;
            }
        }

        return false;
    }

    /// <summary>The first problem in the message (naming the argument) and its top-level id, if any.</summary>
    internal static (string? Problem, RequestId Id) Scan(ReadOnlySequence<byte> body)
    {
        string? problem = null;
        string? nulProblem = null;
        RequestId id = RequestId.NotSpecified;
        bool hasMethod = false;
        List<Frame> stack = [];
        int overflow = 0;
        string? property = null;
        Utf8JsonReader reader = new(body, new JsonReaderOptions { MaxDepth = int.MaxValue });
        try
        {
            while (reader.Read())
            {
                switch (reader.TokenType)
                {
                    case JsonTokenType.StartObject or JsonTokenType.StartArray:
                        if (stack.Count > MaxDepth)
                        {
                            problem ??= $"{Describe(stack, property)} is nested deeper than {MaxDepth} levels.";
                            overflow++;
                        }
                        else
                        {
                            stack.Add(new Frame(Leaf(stack, property), reader.TokenType == JsonTokenType.StartArray));
                        }

                        property = null;
                        continue;
                    case JsonTokenType.EndObject or JsonTokenType.EndArray:
                        if (overflow > 0)
                        {
                            overflow--;
                        }
                        else if (stack.Count > 0)
                        {
                            stack.RemoveAt(stack.Count - 1);
                        }

                        break;
                    case JsonTokenType.PropertyName:
                        property = reader.GetString();
                        continue;
                    case JsonTokenType.String:
                        string? text = null;
                        try
                        {
                            text = reader.GetString();
                        }
                        catch (InvalidOperationException)
                        {
                            problem ??= $"{Describe(stack, property)} contains a lone UTF-16 surrogate.";
                        }

                        if (stack.Count == 1 && property == "id" && text is not null)
                        {
                            id = new RequestId(text);
                        }
                        else if (stack.Count == 1 && property == "method")
                        {
                            hasMethod = true;
                        }
                        else if (text is not null && nulProblem is null && text.Contains('\0', StringComparison.Ordinal))
                        {
                            nulProblem = $"{Describe(stack, property)} contains a NUL character at position {text.IndexOf('\0', StringComparison.Ordinal) + 1}.";
                        }

                        break;
                    case JsonTokenType.Number:
                        if (stack.Count == 1 && property == "id" && reader.TryGetInt64(out long number))
                        {
                            id = new RequestId(number);
                        }

                        break;
                }

                property = null;
                if (overflow == 0 && stack.Count > 0 && stack[^1].IsArray)
                {
                    stack[^1].Index++;
                }
            }
        }
        catch (JsonException)
        {
            // Malformed JSON: the formatter reports it as it always did.
            return (null, id);
        }

        // NUL characters are refused only in requests (a notification's document text may hold one).
        problem ??= hasMethod && !id.IsEmpty ? nulProblem : null;
        return (problem, id);
    }

    private static string Leaf(List<Frame> stack, string? property) =>
        stack.Count > 0 && stack[^1].IsArray ? $"[{stack[^1].Index}]" : property ?? string.Empty;

    /// <summary>"argument 'newName'", "argument 'queries[2].file'": the argument as the client wrote it.</summary>
    private static string Describe(List<Frame> stack, string? property)
    {
        StringBuilder text = new();
        IEnumerable<string> segments = stack.Skip(1).Select(f => f.Name).Append(Leaf(stack, property));
        foreach (string segment in segments.Where(s => s.Length > 0))
        {
            if (text.Length > 0 && !segment.StartsWith('['))
            {
                text.Append('.');
            }

            text.Append(segment);
        }

        string where = text.ToString();
        if (where == "params")
        {
            return "the parameters";
        }

        return where.StartsWith("params.", StringComparison.Ordinal) || where.StartsWith("params[", StringComparison.Ordinal)
            ? $"argument '{where["params".Length..].TrimStart('.')}'"
            : where.Length == 0 ? "the message" : $"'{where}'";
    }

    private sealed class Frame(string name, bool isArray)
    {
        public string Name { get; } = name;

        public bool IsArray { get; } = isArray;

        public int Index { get; set; }
    }
}

/// <summary>Answers a message <see cref="GuardedMessageHandler"/> refused to read: InvalidRequest with its reason.</summary>
public sealed class RejectedMessageHandler(HostLog log)
{
    [JsonRpcMethod(GuardedMessageHandler.RejectedMessageMethod)]
    public void Reject(string reason)
    {
        log.Warn($"Refused a message: {reason}");
        throw SemanticException.InvalidRequest(reason).ToRpcException();
    }
}
