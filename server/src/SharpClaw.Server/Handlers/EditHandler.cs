using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Semantic.Authorization;
using StreamJsonRpc;

namespace SharpClaw.Server.Handlers;

/// <summary><c>sharpclaw/edit</c>, <c>sharpclaw/undoEdit</c>, <c>sharpclaw/redoEdit</c>, <c>sharpclaw/interruptedEdits</c>.</summary>
public sealed class EditHandler(HostState state, JsonRpc rpc)
{
    [JsonRpcMethod(ProtocolMethods.Edit, UseSingleObjectParameterDeserialization = true)]
    public Task<EditResult> EditAsync(EditParams? parameters = null, CancellationToken cancellationToken = default) =>
        state.Edits.EditAsync(parameters ?? new EditParams(), new JsonRpcEvaluationAuthorizer(rpc), new JsonRpcWriteAuthorizer(rpc), cancellationToken);

    [JsonRpcMethod(ProtocolMethods.UndoEdit, UseSingleObjectParameterDeserialization = true)]
    public Task<EditResult> UndoAsync(EditHistoryParams? parameters = null, CancellationToken cancellationToken = default) =>
        state.Edits.UndoAsync(parameters ?? new EditHistoryParams(), new JsonRpcWriteAuthorizer(rpc), cancellationToken);

    [JsonRpcMethod(ProtocolMethods.InterruptedEdits, UseSingleObjectParameterDeserialization = true)]
    public Task<InterruptedEditsResult> InterruptedEditsAsync(EditHistoryParams? parameters = null, CancellationToken cancellationToken = default) =>
        state.Edits.RecoverInterruptedAsync(parameters ?? new EditHistoryParams(), cancellationToken);

    [JsonRpcMethod(ProtocolMethods.RedoEdit, UseSingleObjectParameterDeserialization = true)]
    public Task<EditResult> RedoAsync(EditHistoryParams? parameters = null, CancellationToken cancellationToken = default) =>
        state.Edits.RedoAsync(parameters ?? new EditHistoryParams(), new JsonRpcWriteAuthorizer(rpc), cancellationToken);
}
