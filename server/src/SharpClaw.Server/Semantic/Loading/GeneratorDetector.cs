using System.Collections.Concurrent;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;

namespace SharpClaw.Server.Semantic.Loading;

/// <summary>
/// Whether an excluded analyzer assembly may contain a source generator, read from its metadata only (no
/// code is loaded or run): a type with <c>[Microsoft.CodeAnalysis.Generator]</c>. A missing or unreadable
/// file counts as a possible generator.
/// </summary>
public static class GeneratorDetector
{
    private static readonly ConcurrentDictionary<(string Path, long Ticks), bool> Cache = new();

    public static bool MayContainGenerator(string path)
    {
        try
        {
            FileInfo info = new(path);
            if (!info.Exists)
            {
                return true;
            }

            return Cache.GetOrAdd((info.FullName, info.LastWriteTimeUtc.Ticks), _ => Scan(path));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return true;
        }
    }

    private static bool Scan(string path)
    {
        try
        {
            using FileStream stream = File.OpenRead(path);
            using PEReader pe = new(stream);
            if (!pe.HasMetadata)
            {
                return false;
            }

            MetadataReader reader = pe.GetMetadataReader();
            foreach (CustomAttributeHandle handle in reader.CustomAttributes)
            {
                CustomAttribute attribute = reader.GetCustomAttribute(handle);
                if (attribute.Parent.Kind != HandleKind.TypeDefinition)
                {
                    continue;
                }

                (string? ns, string? name) = attribute.Constructor.Kind switch
                {
                    HandleKind.MemberReference => TypeName(reader, reader.GetMemberReference((MemberReferenceHandle)attribute.Constructor).Parent),
                    HandleKind.MethodDefinition => TypeName(reader, reader.GetMethodDefinition((MethodDefinitionHandle)attribute.Constructor).GetDeclaringType()),
                    _ => (null, null),
                };
                if (ns == "Microsoft.CodeAnalysis" && name == "GeneratorAttribute")
                {
                    return true;
                }
            }

            return false;
        }
        catch (BadImageFormatException)
        {
            return true;
        }
    }

    private static (string?, string?) TypeName(MetadataReader reader, EntityHandle handle) => handle.Kind switch
    {
        HandleKind.TypeReference => (reader.GetString(reader.GetTypeReference((TypeReferenceHandle)handle).Namespace), reader.GetString(reader.GetTypeReference((TypeReferenceHandle)handle).Name)),
        HandleKind.TypeDefinition => (reader.GetString(reader.GetTypeDefinition((TypeDefinitionHandle)handle).Namespace), reader.GetString(reader.GetTypeDefinition((TypeDefinitionHandle)handle).Name)),
        _ => (null, null),
    };
}
