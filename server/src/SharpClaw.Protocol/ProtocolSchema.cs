using System.Text.Json.Nodes;
using System.Text.Json.Schema;

namespace SharpClaw.Protocol;

/// <summary>
/// JSON Schemas of the host's results, generated from the same source-generated metadata the host
/// serializes with. The TypeScript side checks its zod mirror against this (drift detection).
/// </summary>
public static class ProtocolSchema
{
    /// <summary>Returns <c>{ "sharpclaw/status": schema, "initialize": schema }</c>.</summary>
    public static JsonObject Create()
    {
        // Nullability comes from the C# annotations (RespectNullableAnnotations on the context);
        // anything null-oblivious is treated as non-nullable rather than silently nullable.
        JsonSchemaExporterOptions options = new() { TreatNullObliviousAsNonNullable = true };
        return new JsonObject
        {
            [ProtocolMethods.Status] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.HostStatus, options),
            [ProtocolMethods.Initialize] = JsonSchemaExporter.GetJsonSchemaAsNode(ProtocolJsonContext.Default.InitializeResult, options),
        };
    }
}
