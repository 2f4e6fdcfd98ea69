using SharpClaw.Protocol;
using SharpClaw.Protocol.Store;
using SharpClaw.Server.Store;
using StreamJsonRpc;

namespace SharpClaw.Server.Handlers;

/// <summary><c>sharpclaw/symbolSearch</c>, <c>sharpclaw/workspaceSearch</c>, <c>sharpclaw/clearStore</c>: the syntax-only store (no authorizer is ever passed).</summary>
public sealed class StoreHandler(StoreService service)
{
    [JsonRpcMethod(ProtocolMethods.SymbolSearch, UseSingleObjectParameterDeserialization = true)]
    public Task<SymbolSearchResult> SymbolSearchAsync(SymbolSearchParams? parameters = null, CancellationToken cancellationToken = default) =>
        service.SymbolSearchAsync(parameters ?? new SymbolSearchParams(), cancellationToken);

    [JsonRpcMethod(ProtocolMethods.WorkspaceSearch, UseSingleObjectParameterDeserialization = true)]
    public Task<WorkspaceSearchResult> WorkspaceSearchAsync(WorkspaceSearchParams? parameters = null, CancellationToken cancellationToken = default) =>
        service.WorkspaceSearchAsync(parameters ?? new WorkspaceSearchParams(), cancellationToken);

    [JsonRpcMethod(ProtocolMethods.ClearStore, UseSingleObjectParameterDeserialization = true)]
    public Task<ClearStoreResult> ClearStoreAsync(ClearStoreParams? parameters = null, CancellationToken cancellationToken = default) =>
        service.ClearAsync(parameters ?? new ClearStoreParams(), cancellationToken);
}
