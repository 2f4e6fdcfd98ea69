namespace SharpClaw.Server.Semantic.Evaluation;

/// <summary>
/// The build files an MSBuild run actually imported, from its own log: with <c>MSBUILDLOGIMPORTS=1</c> MSBuild logs an
/// "Importing project" message (low importance, so a detailed file log) for every import it follows — also those whose
/// path a property or wildcard decides, which no static scan can know. The child's messages are English
/// (<see cref="DotnetCli.QuietEnvironment"/> sets <c>DOTNET_CLI_UI_LANGUAGE</c>); a log without a single import line
/// (another language, a logger that failed) reads as unknown, never as "imports nothing".
/// </summary>
public static class ImportLog
{
    private const string Prefix = "Importing project \"";
    private const string Infix = "\" into project \"";

    public static IReadOnlyDictionary<string, string> Environment { get; } = new Dictionary<string, string> { ["MSBUILDLOGIMPORTS"] = "1" };

    /// <summary>The file logger's switch; null when <paramref name="logFile"/> cannot be named in it (a ';' separates its parameters).</summary>
    public static string? Switch(string logFile) =>
        logFile.Contains(';', StringComparison.Ordinal) ? null : $"-flp:Verbosity=detailed;LogFile={logFile};Encoding=UTF-8";

    /// <summary>
    /// The distinct files the log says were imported, in first-seen order; null when it names none (or is missing).
    /// Files in the log's own folder are left out: the run's generated collector targets, written anew for every run.
    /// </summary>
    public static async Task<IReadOnlyList<string>?> ReadAsync(string logFile, CancellationToken cancellationToken)
    {
        if (!File.Exists(logFile))
        {
            return null;
        }

        string generated = Path.GetDirectoryName(Path.GetFullPath(logFile))!;
        HashSet<string> seen = new(Infrastructure.PathUtil.Comparer);
        List<string> files = [];
        using StreamReader reader = new(logFile);
        while (await reader.ReadLineAsync(cancellationToken).ConfigureAwait(false) is { } line)
        {
            ReadOnlySpan<char> text = line.AsSpan().TrimStart();
            if (!text.StartsWith(Prefix, StringComparison.Ordinal))
            {
                continue;
            }

            text = text[Prefix.Length..];
            int end = text.LastIndexOf(Infix, StringComparison.Ordinal);
            if (end > 0 && text[..end].ToString() is var file && seen.Add(file) && !Infrastructure.PathUtil.IsUnder(file, generated))
            {
                files.Add(file);
            }
        }

        // Counted before leaving the generated ones out: every run imports the SDK's files, so none at all means unknown.
        return seen.Count > 0 ? files : null;
    }
}
