using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using StreamJsonRpc;

namespace SharpClaw.Server.Infrastructure;

/// <summary>
/// A typed semantic failure. Handlers turn it into a JSON-RPC error with code -32001 and
/// <see cref="SemanticErrorData"/> as <c>data</c> (see <see cref="ToRpcException"/>).
/// </summary>
public sealed class SemanticException : Exception
{
    public SemanticException(SemanticErrorData data, Exception? inner = null)
        : base(data.Message, inner)
    {
        this.Error = data;
    }

    public SemanticException()
        : this(new SemanticErrorData(SemanticErrorKind.LoadFailed, "Semantic request failed.", null, null, null))
    {
    }

    public SemanticException(string message)
        : this(new SemanticErrorData(SemanticErrorKind.LoadFailed, message, null, null, null))
    {
    }

    public SemanticException(string message, Exception innerException)
        : this(new SemanticErrorData(SemanticErrorKind.LoadFailed, message, null, null, null), innerException)
    {
    }

    /// <summary>The error record sent to the client (named to avoid hiding <see cref="Exception.Data"/>).</summary>
    public SemanticErrorData Error { get; }

    public SemanticErrorKind Kind => this.Error.Kind;

    public static SemanticException InvalidRequest(string message) =>
        new(new SemanticErrorData(SemanticErrorKind.InvalidRequest, message, null, null, null));

    public static SemanticException NoTarget(string message, IReadOnlyList<string>? candidates) =>
        new(new SemanticErrorData(SemanticErrorKind.NoTarget, message, candidates, null, null));

    public static SemanticException TargetAmbiguous(string message, IReadOnlyList<string> candidates) =>
        new(new SemanticErrorData(SemanticErrorKind.TargetAmbiguous, message, candidates, null, null));

    public static SemanticException PermissionDenied(string message) =>
        new(new SemanticErrorData(SemanticErrorKind.PermissionDenied, message, null, null, null));

    public static SemanticException MissingPrerequisites(string message, string? command, IReadOnlyList<ProjectIssue>? projects = null) =>
        new(new SemanticErrorData(SemanticErrorKind.MissingPrerequisites, message, null, projects, command));

    /// <summary>For queries that need a project that failed to load (loads themselves report partial loads in their result).</summary>
    public static SemanticException PartialLoad(string message, IReadOnlyList<ProjectIssue> projects) =>
        new(new SemanticErrorData(SemanticErrorKind.PartialLoad, message, null, projects, null));

    public static SemanticException LoadFailed(string message, IReadOnlyList<ProjectIssue>? projects = null, Exception? inner = null) =>
        new(new SemanticErrorData(SemanticErrorKind.LoadFailed, message, null, projects, null), inner);

    /// <summary>A typed edit failure (stale_edit, unverified, new_errors, ...) with optional detail lines.</summary>
    public static SemanticException Edit(SemanticErrorKind kind, string message, IReadOnlyList<string>? details = null, Exception? inner = null) =>
        new(new SemanticErrorData(kind, message, null, null, null) { Details = details is { Count: > 0 } ? details : null }, inner);

    /// <summary>The same failure, also reporting <paramref name="interrupted"/> (see <see cref="SemanticErrorData.Interrupted"/>).</summary>
    public SemanticException WithInterrupted(IReadOnlyList<InterruptedEdit> interrupted) =>
        new(this.Error with { Interrupted = interrupted }, this.InnerException);

    /// <summary>The JSON-RPC error StreamJsonRpc sends for this failure.</summary>
    public LocalRpcException ToRpcException() => new(this.Message, this)
    {
        ErrorCode = ProtocolErrorCodes.SemanticError,
        ErrorData = this.Error,
    };
}
