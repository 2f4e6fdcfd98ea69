using System.Security.Cryptography;
using System.Text.Json;
using SharpClaw.Server.Semantic.Evaluation;

namespace SharpClaw.Server.Semantic.Loading;

/// <summary>
/// A digest of everything a parallel design-time pass returned that shapes a context: each flavour's design-time
/// result (compiler command line, documents, references, output paths) and the evaluation collected with it. Two
/// passes with the same digest build the same solution, so a context that must be re-evaluated on every call
/// (property-driven or wildcard imports) stays loaded — compilations and Roslyn's caches warm — when its
/// re-evaluation comes out the same.
/// </summary>
public static class DesignTimeDigest
{
    // Serialized rather than compared field by field: a property added to either record later is compared too.
    private static readonly JsonSerializerOptions Options = new() { WriteIndented = false };

    public static string Of(IReadOnlyList<DesignTimeProject> projects, IReadOnlyList<EvaluatedProject> evaluated)
    {
        using IncrementalHash hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        hash.AppendData(JsonSerializer.SerializeToUtf8Bytes(projects, Options));
        hash.AppendData(JsonSerializer.SerializeToUtf8Bytes(evaluated, Options));
        return Convert.ToHexString(hash.GetHashAndReset());
    }
}
