using System.Text.Json;

namespace SharpClaw.Server.Semantic.Evaluation;

/// <summary>
/// The rows of one item type in an MSBuild <c>-getResultOutputFile</c> JSON (<c>{"Items": {"Name": [{...}]}}</c>),
/// each row its string metadata by name. Read with a forward-only <see cref="Utf8JsonReader"/> rather than a
/// <see cref="JsonDocument"/>: a document of a large solution's result (megabytes) rents buffers of that size from
/// the shared array pool, which keeps them after the parse — measured as 4 MB of the host's heap after a 50-project load.
/// </summary>
public static class ResultItems
{
    /// <summary>A row standing for "no row": every metadata reads as empty.</summary>
    public static IReadOnlyDictionary<string, string> Empty { get; } = new Dictionary<string, string>();

    /// <summary>The rows of <paramref name="itemName"/> in file order; empty when the file has none. Non-string values are skipped.</summary>
    /// <exception cref="JsonException">The text is not valid JSON.</exception>
    public static List<IReadOnlyDictionary<string, string>> Read(ReadOnlySpan<byte> utf8, string itemName)
    {
        List<IReadOnlyDictionary<string, string>> rows = [];
        Utf8JsonReader reader = new(utf8, new JsonReaderOptions { CommentHandling = JsonCommentHandling.Skip });
        if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
        {
            return rows;
        }

        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            bool isItems = reader.ValueTextEquals("Items");
            reader.Read();
            if (!isItems || reader.TokenType != JsonTokenType.StartObject)
            {
                reader.Skip();
                continue;
            }

            while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
            {
                bool wanted = reader.ValueTextEquals(itemName);
                reader.Read();
                if (!wanted || reader.TokenType != JsonTokenType.StartArray)
                {
                    reader.Skip();
                    continue;
                }

                while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
                {
                    if (reader.TokenType != JsonTokenType.StartObject)
                    {
                        reader.Skip();
                        continue;
                    }

                    rows.Add(ReadRow(ref reader));
                }
            }
        }

        return rows;
    }

    /// <summary>The metadata value, or empty when the row has none.</summary>
    public static string Get(IReadOnlyDictionary<string, string> row, string name) => row.TryGetValue(name, out string? value) ? value : string.Empty;

    private static Dictionary<string, string> ReadRow(ref Utf8JsonReader reader)
    {
        Dictionary<string, string> row = new(StringComparer.Ordinal);
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            string name = reader.GetString()!;
            reader.Read();
            if (reader.TokenType == JsonTokenType.String)
            {
                row[name] = reader.GetString()!;
            }
            else
            {
                reader.Skip();
            }
        }

        return row;
    }
}
