using System.Collections.Concurrent;
using System.Text.Json;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using StreamJsonRpc;

namespace SharpClaw.Server.Tests.Infrastructure;

/// <summary>
/// The test's side of the server→client protocol: answers <c>sharpclaw/authorizeEvaluation</c>
/// programmatically and records every request and <c>sharpclaw/loadProgress</c> notification.
/// </summary>
internal sealed class TestClient
{
    private readonly ConcurrentQueue<AuthorizeEvaluationParams> requests = new();
    private readonly ConcurrentQueue<LoadProgressParams> progress = new();

    /// <summary>Decides each authorization request; grants everything by default.</summary>
    public Func<AuthorizeEvaluationParams, Task<AuthorizeEvaluationResult>> Answer { get; set; } =
        _ => Task.FromResult(new AuthorizeEvaluationResult { Granted = true, Message = null });

    public IReadOnlyList<AuthorizeEvaluationParams> AuthorizationRequests => [.. this.requests];

    public IReadOnlyList<LoadProgressParams> Progress => [.. this.progress];

    public void GrantAll() => this.Answer = _ => Task.FromResult(new AuthorizeEvaluationResult { Granted = true });

    public void DenyAll(string? message = "denied by the test") =>
        this.Answer = _ => Task.FromResult(new AuthorizeEvaluationResult { Granted = false, Message = message });

    [JsonRpcMethod(ProtocolMethods.AuthorizeEvaluation, UseSingleObjectParameterDeserialization = true)]
    public Task<AuthorizeEvaluationResult> AuthorizeAsync(AuthorizeEvaluationParams parameters)
    {
        this.requests.Enqueue(parameters);
        return this.Answer(parameters);
    }

    private readonly ConcurrentQueue<AuthorizeWriteParams> writeRequests = new();

    /// <summary>Decides each write authorization request; grants everything by default.</summary>
    public Func<AuthorizeWriteParams, Task<AuthorizeEvaluationResult>> WriteAnswer { get; set; } =
        _ => Task.FromResult(new AuthorizeEvaluationResult { Granted = true, Message = null });

    public IReadOnlyList<AuthorizeWriteParams> WriteRequests => [.. this.writeRequests];

    [JsonRpcMethod(ProtocolMethods.AuthorizeWrite, UseSingleObjectParameterDeserialization = true)]
    public Task<AuthorizeEvaluationResult> AuthorizeWriteAsync(AuthorizeWriteParams parameters)
    {
        this.writeRequests.Enqueue(parameters);
        return this.WriteAnswer(parameters);
    }

    [JsonRpcMethod(ProtocolMethods.LoadProgress, UseSingleObjectParameterDeserialization = true)]
    public void OnLoadProgress(LoadProgressParams parameters) => this.progress.Enqueue(parameters);
}

/// <summary>Helpers for typed semantic errors on the client side.</summary>
internal static class SemanticErrors
{
    public static SemanticErrorData DataOf(RemoteInvocationException exception)
    {
        Assert.Equal(ProtocolErrorCodes.SemanticError, exception.ErrorCode);
        object? data = exception.DeserializedErrorData ?? exception.ErrorData;
        return data switch
        {
            SemanticErrorData typed => typed,
            JsonElement element => element.Deserialize(ProtocolJsonContext.Default.SemanticErrorData)!,
            _ => JsonSerializer.Deserialize(JsonSerializer.Serialize(data), ProtocolJsonContext.Default.SemanticErrorData)!,
        };
    }

    public static async Task<SemanticErrorData> ExpectAsync(SemanticErrorKind kind, Func<Task> call)
    {
        RemoteInvocationException exception = await Assert.ThrowsAsync<RemoteInvocationException>(call);
        SemanticErrorData data = DataOf(exception);
        Assert.True(data.Kind == kind, $"Expected {kind} but got {data.Kind}: {data.Message}");
        Assert.False(string.IsNullOrWhiteSpace(data.Message));
        return data;
    }
}
