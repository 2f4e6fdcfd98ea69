namespace SharpClaw.Protocol.Semantic;

/// <summary>
/// Params of <c>sharpclaw/lspRequest</c>: one standard LSP request (zero-based positions, file URIs),
/// answered from the host's own Roslyn services. <see cref="Params"/> is the request's params as JSON text.
/// </summary>
public sealed record LspRequestParams : WorkspaceRequestParams
{
    /// <summary>The LSP method, e.g. <c>textDocument/definition</c>.</summary>
    public string? Method { get; init; }

    /// <summary>The LSP params object as JSON text (default <c>{}</c>).</summary>
    public string? Params { get; init; }

    /// <summary>The caller accepts a method that might change files (one the host does not list as read-only).</summary>
    public bool? Apply { get; init; }
}

/// <summary>The LSP result as JSON text (<c>null</c> where LSP answers null).</summary>
/// <param name="Json">The result, serialized as the LSP specification shapes it.</param>
public sealed record LspRequestResult(string Json)
{
    /// <summary>
    /// For implementation, references, incoming calls and subtypes: the excluded generators whose code could add to
    /// the list (navigate's caveat; null when none could).
    /// </summary>
    public IReadOnlyList<GeneratorGap>? GeneratorGaps { get; init; }
}
