using System.Buffers;
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

    public static string Of(IReadOnlyList<DesignTimeProject> projects, IReadOnlyList<EvaluatedProject> evaluated) =>
        Digest(writer =>
        {
            JsonSerializer.Serialize(writer, projects, Options);
            JsonSerializer.Serialize(writer, evaluated, Options);
        });

    /// <summary>The same digest of an evaluation alone (its projects and the ones that failed).</summary>
    public static string OfEvaluation(EvaluationSnapshot evaluation) =>
        Digest(writer =>
        {
            JsonSerializer.Serialize(writer, evaluation.Projects, Options);
            JsonSerializer.Serialize(writer, evaluation.Failures, Options);
        });

    private static string Digest(Action<Utf8JsonWriter> write)
    {
        using HashingBufferWriter hashing = new();
        using (Utf8JsonWriter writer = new(hashing))
        {
            writer.WriteStartArray();
            write(writer);
            writer.WriteEndArray();
        }

        return hashing.Finish();
    }

    /// <summary>
    /// Hashes what is written through one small reused buffer. Serializing to a byte array would rent a buffer the
    /// size of the whole text (megabytes at 50 projects) from the shared pool, which keeps it alive afterwards.
    /// </summary>
    private sealed class HashingBufferWriter : IBufferWriter<byte>, IDisposable
    {
        private readonly IncrementalHash hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        private byte[] buffer = new byte[16 * 1024];

        public void Advance(int count) => this.hash.AppendData(this.buffer, 0, count);

        public Memory<byte> GetMemory(int sizeHint = 0) => this.Ensure(sizeHint);

        public Span<byte> GetSpan(int sizeHint = 0) => this.Ensure(sizeHint);

        public string Finish() => Convert.ToHexString(this.hash.GetHashAndReset());

        public void Dispose() => this.hash.Dispose();

        private byte[] Ensure(int sizeHint)
        {
            if (sizeHint > this.buffer.Length)
            {
                this.buffer = new byte[sizeHint];
            }

            return this.buffer;
        }
    }
}
