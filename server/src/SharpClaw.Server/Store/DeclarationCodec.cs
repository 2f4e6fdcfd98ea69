using System.Text;

namespace SharpClaw.Server.Store;

/// <summary>
/// A file's declarations as one blob in its <c>files</c> row: one insert per file instead of one per
/// declaration (the index build's largest cost), read back in one pass when a host loads the index image.
/// Layout: a version byte, the count, then per declaration its strings (name, display, kind, container or
/// nothing, signature), its four one-based positions and its #if condition or nothing, all as <see cref="BinaryWriter"/> writes them.
/// </summary>
internal static class DeclarationCodec
{
    private const byte Version = 2;

    public static byte[] Encode(IReadOnlyList<SyntaxDeclaration> declarations)
    {
        using MemoryStream stream = new();
        using (BinaryWriter writer = new(stream, Encoding.UTF8, leaveOpen: true))
        {
            writer.Write(Version);
            writer.Write7BitEncodedInt(declarations.Count);
            foreach (SyntaxDeclaration d in declarations)
            {
                writer.Write(d.Name);
                writer.Write(d.Display);
                writer.Write(d.Kind);
                writer.Write(d.Container is not null);
                if (d.Container is not null)
                {
                    writer.Write(d.Container);
                }

                writer.Write(d.Signature);
                writer.Write7BitEncodedInt(d.Line);
                writer.Write7BitEncodedInt(d.Character);
                writer.Write7BitEncodedInt(d.EndLine);
                writer.Write7BitEncodedInt(d.EndCharacter);
                writer.Write(d.Condition is not null);
                if (d.Condition is not null)
                {
                    writer.Write(d.Condition);
                }
            }
        }

        return stream.ToArray();
    }

    /// <summary>The declarations of a blob <see cref="Encode"/> wrote; a blob of another layout is damage, as SQLite reports it.</summary>
    public static SyntaxDeclaration[] Decode(byte[] blob)
    {
        using BinaryReader reader = new(new MemoryStream(blob, writable: false), Encoding.UTF8);
        if (reader.ReadByte() != Version)
        {
            throw new InvalidDataException("A declaration blob of an unknown layout.");
        }

        SyntaxDeclaration[] declarations = new SyntaxDeclaration[reader.Read7BitEncodedInt()];
        for (int i = 0; i < declarations.Length; i++)
        {
            string name = reader.ReadString();
            string display = reader.ReadString();
            string kind = reader.ReadString();
            string? container = reader.ReadBoolean() ? reader.ReadString() : null;
            string signature = reader.ReadString();
            (int line, int character, int endLine, int endCharacter) = (reader.Read7BitEncodedInt(), reader.Read7BitEncodedInt(), reader.Read7BitEncodedInt(), reader.Read7BitEncodedInt());
            string? condition = reader.ReadBoolean() ? reader.ReadString() : null;
            declarations[i] = new SyntaxDeclaration(name, display, kind, container, signature, line, character, endLine, endCharacter, condition);
        }

        return declarations;
    }
}
