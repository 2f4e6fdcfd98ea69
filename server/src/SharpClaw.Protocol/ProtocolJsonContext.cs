using System.Text.Json.Serialization;
using SharpClaw.Protocol.Lifecycle;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Protocol.Status;
using SharpClaw.Protocol.Store;

namespace SharpClaw.Protocol;

/// <summary>
/// Source-generated System.Text.Json metadata for every protocol type: no reflection at startup,
/// and the JSON Schema printed by <c>--print-protocol-schema</c> comes from the same metadata.
/// </summary>
/// <remarks>
/// RespectNullableAnnotations / RespectRequiredConstructorParameters make the C# nullability the
/// contract: non-nullable members are required and non-null, both when reading and in the schema.
/// Add every new request/response type here.
/// </remarks>
[JsonSourceGenerationOptions(
    PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase,
    RespectNullableAnnotations = true,
    RespectRequiredConstructorParameters = true)]
[JsonSerializable(typeof(InitializeParams))]
[JsonSerializable(typeof(InitializeResult))]
[JsonSerializable(typeof(DidOpenTextDocumentParams))]
[JsonSerializable(typeof(DidChangeTextDocumentParams))]
[JsonSerializable(typeof(DidCloseTextDocumentParams))]
[JsonSerializable(typeof(DidSaveTextDocumentParams))]
[JsonSerializable(typeof(HostStatus))]
[JsonSerializable(typeof(SolutionInspectParams))]
[JsonSerializable(typeof(SolutionInspectResult))]
[JsonSerializable(typeof(ProjectGraphParams))]
[JsonSerializable(typeof(ProjectGraphResult))]
[JsonSerializable(typeof(ResolveTargetParams))]
[JsonSerializable(typeof(ResolveTargetResult))]
[JsonSerializable(typeof(ResolveSdkParams))]
[JsonSerializable(typeof(ResolveSdkResult))]
[JsonSerializable(typeof(AuthorizeEvaluationParams))]
[JsonSerializable(typeof(AuthorizeEvaluationResult))]
[JsonSerializable(typeof(LoadProgressParams))]
[JsonSerializable(typeof(SemanticErrorData))]
[JsonSerializable(typeof(SymbolResolveParams))]
[JsonSerializable(typeof(SymbolResolveResult))]
[JsonSerializable(typeof(FindReferencesParams))]
[JsonSerializable(typeof(FindReferencesResult))]
[JsonSerializable(typeof(TypeHierarchyParams))]
[JsonSerializable(typeof(TypeHierarchyResult))]
[JsonSerializable(typeof(DiagnosticsParams))]
[JsonSerializable(typeof(DiagnosticsResult))]
[JsonSerializable(typeof(NavigateParams))]
[JsonSerializable(typeof(NavigateResult))]
[JsonSerializable(typeof(BulkNavigateParams))]
[JsonSerializable(typeof(BulkNavigateResult))]
[JsonSerializable(typeof(SymbolsParams))]
[JsonSerializable(typeof(SymbolsResult))]
[JsonSerializable(typeof(ReachedTestsParams))]
[JsonSerializable(typeof(ReachedTestsResult))]
[JsonSerializable(typeof(LspRequestParams))]
[JsonSerializable(typeof(LspRequestResult))]
[JsonSerializable(typeof(EditParams))]
[JsonSerializable(typeof(EditHistoryParams))]
[JsonSerializable(typeof(EditResult))]
[JsonSerializable(typeof(InterruptedEditsResult))]
[JsonSerializable(typeof(AuthorizeWriteParams))]
[JsonSerializable(typeof(SymbolSearchParams))]
[JsonSerializable(typeof(SymbolSearchResult))]
[JsonSerializable(typeof(WorkspaceSearchParams))]
[JsonSerializable(typeof(WorkspaceSearchResult))]
[JsonSerializable(typeof(ClearStoreParams))]
[JsonSerializable(typeof(ClearStoreResult))]
public sealed partial class ProtocolJsonContext : JsonSerializerContext
{
}
