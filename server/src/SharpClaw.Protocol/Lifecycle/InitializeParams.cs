namespace SharpClaw.Protocol.Lifecycle;

/// <summary>
/// The parts of LSP's <c>InitializeParams</c> the host reads. Everything else the client sends
/// (capabilities, trace, locale, ...) is ignored, so every member here is optional: this type is
/// input from vscode-languageclient and must never reject a well-formed LSP request.
/// </summary>
public sealed record InitializeParams
{
    /// <summary>The client's process id, or null when the client has none (LSP allows null).</summary>
    public int? ProcessId { get; init; }

    public ClientInfo? ClientInfo { get; init; }

    public string? RootUri { get; init; }

    public IReadOnlyList<WorkspaceFolder>? WorkspaceFolders { get; init; }

    public SharpClawInitializationOptions? InitializationOptions { get; init; }
}

public sealed record ClientInfo
{
    public string? Name { get; init; }

    public string? Version { get; init; }
}

public sealed record WorkspaceFolder
{
    public string? Uri { get; init; }

    public string? Name { get; init; }
}

/// <summary>The extension's own <c>initializationOptions</c>.</summary>
public sealed record SharpClawInitializationOptions
{
    /// <summary>
    /// Folder for the host's log file. Used only when <c>--log-directory</c> was not given.
    /// </summary>
    public string? LogDirectory { get; init; }
}
