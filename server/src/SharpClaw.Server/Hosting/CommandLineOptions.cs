using System.Globalization;

namespace SharpClaw.Server.Hosting;

/// <summary>The host's command line. Parsing is hand-rolled: a parser library would cost startup time.</summary>
public sealed record CommandLineOptions
{
    public const string Usage = """
        Usage: dotnet SharpClaw.Server.dll [options]

        Speaks JSON-RPC 2.0 with LSP framing (Content-Length headers) on stdin/stdout.

        Options:
          --log-directory DIR      Write sharpclaw-host-<pid>.log into DIR (created if missing).
                                   Otherwise initializationOptions.logDirectory is used, if sent.
          --clientProcessId N      Exit when process N exits (like initialize's processId).
          --state-directory DIR    The private per-user state folder (locks, evaluation projects,
                                   journals). Otherwise the client's rule: SHARPCLAW_STATE_DIR,
                                   else the user's cache folder (see Infrastructure/StateFolder.cs).
          --store-directory DIR    Keep the store (syntax index, approved snapshots) under DIR instead
                                   of the state folder (VS Code: the extension's storage).
          --stdio                  Accepted and ignored: stdio is the default transport.
          --listen PATH            Be a resident host: serve connections (several at once) on the Unix
                                   domain socket PATH, which must be in <state folder>/hosts/, keeping
                                   loaded solutions between them (the CLI's warm calls).
          --idle-exit SECONDS      With --listen: exit after SECONDS without an open connection (default 600).
          --print-protocol-schema  Print the JSON Schemas of the protocol results and exit.
          --version                Print the host version and exit.
          -h, --help               Print this help and exit.

        """;

    public string? LogDirectory { get; init; }

    public int? ClientProcessId { get; init; }

    public string? StateDirectory { get; init; }

    /// <summary>The root of the store's per-workspace folders (<c>--store-directory</c>); null: the state folder.</summary>
    public string? StoreDirectory { get; init; }

    /// <summary>The resident host's socket (<c>--listen</c>); null: one stdio connection.</summary>
    public string? Listen { get; init; }

    /// <summary>How long a resident host waits for its next connection before it exits.</summary>
    public TimeSpan IdleExit { get; init; } = TimeSpan.FromSeconds(600);

    public bool PrintProtocolSchema { get; init; }

    public bool ShowHelp { get; init; }

    public bool ShowVersion { get; init; }

    /// <summary>
    /// Parses the arguments. Accepts "--name value" and "--name=value" (vscode-languageclient
    /// passes "--clientProcessId=N" to node servers, so both spellings are worth supporting).
    /// </summary>
    public static bool TryParse(IReadOnlyList<string> args, out CommandLineOptions options, out string? error)
    {
        options = new CommandLineOptions();
        error = null;
        for (int i = 0; i < args.Count; i++)
        {
            string arg = args[i];
            string name = arg;
            string? inlineValue = null;
            int equals = arg.IndexOf('=', StringComparison.Ordinal);
            if (arg.StartsWith("--", StringComparison.Ordinal) && equals > 0)
            {
                name = arg[..equals];
                inlineValue = arg[(equals + 1)..];
            }

            switch (name)
            {
                case "--log-directory":
                    if (!TryTakeValue(args, ref i, name, inlineValue, out string? directory, out error))
                    {
                        return false;
                    }

                    options = options with { LogDirectory = directory };
                    break;

                case "--state-directory":
                    if (!TryTakeValue(args, ref i, name, inlineValue, out string? stateDirectory, out error))
                    {
                        return false;
                    }

                    options = options with { StateDirectory = stateDirectory };
                    break;

                case "--store-directory":
                    if (!TryTakeValue(args, ref i, name, inlineValue, out string? storeDirectory, out error))
                    {
                        return false;
                    }

                    options = options with { StoreDirectory = storeDirectory };
                    break;

                case "--listen":
                    if (!TryTakeValue(args, ref i, name, inlineValue, out string? socket, out error))
                    {
                        return false;
                    }

                    options = options with { Listen = socket };
                    break;

                case "--idle-exit":
                    if (!TryTakeValue(args, ref i, name, inlineValue, out string? idleText, out error))
                    {
                        return false;
                    }

                    if (!int.TryParse(idleText, NumberStyles.None, CultureInfo.InvariantCulture, out int idle) || idle is < 1 or > 86400)
                    {
                        error = $"{name} expects a number of seconds from 1 to 86400, got '{idleText}'.";
                        return false;
                    }

                    options = options with { IdleExit = TimeSpan.FromSeconds(idle) };
                    break;

                case "--clientProcessId":
                    if (!TryTakeValue(args, ref i, name, inlineValue, out string? pidText, out error))
                    {
                        return false;
                    }

                    if (!int.TryParse(pidText, NumberStyles.None, CultureInfo.InvariantCulture, out int pid) || pid <= 0)
                    {
                        error = $"{name} expects a positive process id, got '{pidText}'.";
                        return false;
                    }

                    options = options with { ClientProcessId = pid };
                    break;

                case "--stdio" when inlineValue is null:
                    break;

                case "--print-protocol-schema" when inlineValue is null:
                    options = options with { PrintProtocolSchema = true };
                    break;

                case "--version" when inlineValue is null:
                    options = options with { ShowVersion = true };
                    break;

                case "-h" or "--help" when inlineValue is null:
                    options = options with { ShowHelp = true };
                    break;

                default:
                    error = $"Unknown option '{arg}'.";
                    return false;
            }
        }

        return true;
    }

    private static bool TryTakeValue(IReadOnlyList<string> args, ref int index, string name, string? inlineValue, out string? value, out string? error)
    {
        value = inlineValue;
        if (value is null && index + 1 < args.Count)
        {
            value = args[++index];
        }

        if (string.IsNullOrWhiteSpace(value))
        {
            error = $"{name} expects a value.";
            return false;
        }

        error = null;
        return true;
    }
}
