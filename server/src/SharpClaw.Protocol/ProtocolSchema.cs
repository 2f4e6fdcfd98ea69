using System.Reflection;
using System.Text.Json.Nodes;
using System.Text.Json.Schema;
using SharpClaw.Protocol.Store;

namespace SharpClaw.Protocol;

/// <summary>
/// JSON Schemas of the host's results, generated from the same source-generated metadata the host
/// serializes with, plus the contract rules written on the records: a param's <see cref="BoundsAttribute"/>
/// as <c>minimum</c> / <c>maximum</c> / <c>default</c> (<c>minItems</c> / <c>maxItems</c> for a list), its
/// <see cref="OneOfAttribute{T}"/> as <c>enum</c>, and each request's <see cref="RequestScheduling"/> as
/// <c>x-scheduling</c> on its result schema. The TypeScript side checks its zod mirror against this (drift detection).
/// </summary>
public static class ProtocolSchema
{
    /// <summary>Key of the <c>sharpclaw/authorizeEvaluation</c> params schema (server → client request).</summary>
    public const string AuthorizeEvaluationParamsKey = ProtocolMethods.AuthorizeEvaluation + ":params";

    /// <summary>Key of the <c>sharpclaw/authorizeEvaluation</c> result schema (what the client answers).</summary>
    public const string AuthorizeEvaluationResultKey = ProtocolMethods.AuthorizeEvaluation + ":result";

    /// <summary>Key of the <c>sharpclaw/authorizeWrite</c> params schema (server → client request).</summary>
    public const string AuthorizeWriteParamsKey = ProtocolMethods.AuthorizeWrite + ":params";

    /// <summary>Key of the <c>sharpclaw/authorizeWrite</c> result schema (the same shape as authorizeEvaluation's).</summary>
    public const string AuthorizeWriteResultKey = ProtocolMethods.AuthorizeWrite + ":result";

    /// <summary>Key of the <c>sharpclaw/loadProgress</c> notification params schema.</summary>
    public const string LoadProgressParamsKey = ProtocolMethods.LoadProgress + ":params";

    /// <summary>Key of the schema of <c>error.data</c> for JSON-RPC errors with code -32001.</summary>
    public const string ErrorDataKey = "error:data";

    /// <summary>Key of a request's params schema (<c>method:params</c>).</summary>
    public static string ParamsKey(string method) => method + ":params";

    /// <summary>The annotation on a request's result schema that names its <see cref="RequestScheduling"/>.</summary>
    public const string SchedulingKeyword = "x-scheduling";

    /// <summary>
    /// Returns the result schema of each request keyed by method name (<c>sharpclaw/status</c>,
    /// <c>initialize</c>, <c>sharpclaw/solutionInspect</c>, <c>sharpclaw/projectGraph</c>, <c>sharpclaw/symbolResolve</c>,
    /// <c>sharpclaw/findReferences</c>, <c>sharpclaw/typeHierarchy</c>, <c>sharpclaw/diagnostics</c>, <c>sharpclaw/navigate</c>,
    /// <c>sharpclaw/bulkNavigate</c>, <c>sharpclaw/symbols</c>, the edit methods), every request's params (<c>method:params</c>;
    /// not <c>initialize</c>'s, which are LSP's, nor the parameterless <c>sharpclaw/status</c>), the
    /// server→client shapes (<c>sharpclaw/authorizeEvaluation:params</c>, <c>sharpclaw/authorizeEvaluation:result</c>,
    /// <c>sharpclaw/loadProgress:params</c>) and the semantic error data (<c>error:data</c>).
    /// </summary>
    public static JsonObject Create()
    {
        // Nullability comes from the C# annotations (RespectNullableAnnotations on the context);
        // anything null-oblivious is treated as non-nullable rather than silently nullable.
        JsonSchemaExporterOptions options = new() { TreatNullObliviousAsNonNullable = true, TransformSchemaNode = ExportRules };
        JsonObject schemas = new()
        {
            [ProtocolMethods.Status] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.HostStatus, options),
            [ProtocolMethods.Initialize] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.InitializeResult, options),
            [ProtocolMethods.SolutionInspect] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.SolutionInspectResult, options),
            [ProtocolMethods.ProjectGraph] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.ProjectGraphResult, options),
            [ProtocolMethods.ResolveTarget] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.ResolveTargetResult, options),
            [ProtocolMethods.ResolveSdk] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.ResolveSdkResult, options),
            [ProtocolMethods.SymbolResolve] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.SymbolResolveResult, options),
            [ProtocolMethods.FindReferences] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.FindReferencesResult, options),
            [ProtocolMethods.TypeHierarchy] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.TypeHierarchyResult, options),
            [ProtocolMethods.Diagnostics] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.DiagnosticsResult, options),
            [ProtocolMethods.Navigate] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.NavigateResult, options),
            [ProtocolMethods.BulkNavigate] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.BulkNavigateResult, options),
            [ProtocolMethods.Symbols] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.SymbolsResult, options),
            [ParamsKey(ProtocolMethods.Navigate)] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.NavigateParams, options),
            [ParamsKey(ProtocolMethods.BulkNavigate)] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.BulkNavigateParams, options),
            [ParamsKey(ProtocolMethods.Symbols)] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.SymbolsParams, options),
            [ProtocolMethods.ReachedTests] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.ReachedTestsResult, options),
            [ParamsKey(ProtocolMethods.ReachedTests)] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.ReachedTestsParams, options),
            [ProtocolMethods.SymbolSearch] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.SymbolSearchResult, options),
            [ParamsKey(ProtocolMethods.SymbolSearch)] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.SymbolSearchParams, options),
            [ProtocolMethods.WorkspaceSearch] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.WorkspaceSearchResult, options),
            [ParamsKey(ProtocolMethods.WorkspaceSearch)] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.WorkspaceSearchParams, options),
            [ProtocolMethods.ClearStore] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.ClearStoreResult, options),
            [ParamsKey(ProtocolMethods.ClearStore)] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.ClearStoreParams, options),
            [ProtocolMethods.LspRequest] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.LspRequestResult, options),
            [ParamsKey(ProtocolMethods.LspRequest)] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.LspRequestParams, options),
            [ProtocolMethods.Edit] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.EditResult, options),
            [ProtocolMethods.UndoEdit] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.EditResult, options),
            [ProtocolMethods.InterruptedEdits] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.InterruptedEditsResult, options),
            [ParamsKey(ProtocolMethods.InterruptedEdits)] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.EditHistoryParams, options),
            [ProtocolMethods.RedoEdit] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.EditResult, options),
            [ParamsKey(ProtocolMethods.Edit)] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.EditParams, options),
            [ParamsKey(ProtocolMethods.UndoEdit)] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.EditHistoryParams, options),
            [ParamsKey(ProtocolMethods.RedoEdit)] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.EditHistoryParams, options),
            [ParamsKey(ProtocolMethods.SolutionInspect)] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.SolutionInspectParams, options),
            [ParamsKey(ProtocolMethods.ProjectGraph)] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.ProjectGraphParams, options),
            [ParamsKey(ProtocolMethods.ResolveTarget)] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.ResolveTargetParams, options),
            [ParamsKey(ProtocolMethods.ResolveSdk)] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.ResolveSdkParams, options),
            [AuthorizeWriteParamsKey] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.AuthorizeWriteParams, options),
            [AuthorizeWriteResultKey] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.AuthorizeEvaluationResult, options),
            [ParamsKey(ProtocolMethods.SymbolResolve)] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.SymbolResolveParams, options),
            [ParamsKey(ProtocolMethods.FindReferences)] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.FindReferencesParams, options),
            [ParamsKey(ProtocolMethods.TypeHierarchy)] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.TypeHierarchyParams, options),
            [ParamsKey(ProtocolMethods.Diagnostics)] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.DiagnosticsParams, options),
            [AuthorizeEvaluationParamsKey] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.AuthorizeEvaluationParams, options),
            [AuthorizeEvaluationResultKey] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.AuthorizeEvaluationResult, options),
            [LoadProgressParamsKey] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.LoadProgressParams, options),
            [ErrorDataKey] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.SemanticErrorData, options),
        };
        foreach ((string method, RequestScheduling scheduling) in MethodScheduling.Methods)
        {
            if (schemas[method] is JsonObject result)
            {
                result[SchedulingKeyword] = MethodScheduling.Name(scheduling);
            }
        }

        return schemas;
    }

    /// <summary>Writes a property's <see cref="BoundsAttribute"/> and <see cref="OneOfAttribute{T}"/> into its schema.</summary>
    private static JsonNode ExportRules(JsonSchemaExporterContext context, JsonNode schema)
    {
        if (context.PropertyInfo?.AttributeProvider is not ICustomAttributeProvider attributes || schema is not JsonObject node)
        {
            return schema;
        }

        foreach (object attribute in attributes.GetCustomAttributes(inherit: true))
        {
            if (attribute is BoundsAttribute bounds)
            {
                bool list = node["type"] is JsonArray types ? types.Any(t => t?.GetValue<string>() == "array") : node["type"]?.GetValue<string>() == "array";
                node[list ? "minItems" : "minimum"] = bounds.Minimum;
                node[list ? "maxItems" : "maximum"] = bounds.Maximum;
                if (bounds.HasDefault)
                {
                    node["default"] = bounds.Default;
                }
            }
            else if (attribute is IOneOf oneOf)
            {
                // A nullable param lists null too, so the enum does not contradict its type.
                bool nullable = node["type"] is JsonArray types && types.Any(t => t?.GetValue<string>() == "null");
                JsonArray values = [.. oneOf.Values.Select(v => (JsonNode?)JsonValue.Create(v))];
                if (nullable)
                {
                    values.Add(null);
                }

                node["enum"] = values;
            }
        }

        return node;
    }
}
