using System.Composition.Hosting;
using System.Reflection;
using Microsoft.CodeAnalysis.Host.Mef;
using Microsoft.CodeAnalysis.MSBuild;

namespace SharpClaw.Server.Semantic.Loading;

/// <summary>
/// The Roslyn services of every workspace the host builds (MSBuildWorkspace, the design-time pass, a restored snapshot):
/// MSBuild's defaults without Roslyn's SQLite persistent storage. That storage writes a database per solution path under
/// LocalApplicationData/Microsoft/VisualStudio/Roslyn/Cache — outside SharpClaw's private state folder, never cleared by
/// Clear Cache, one more folder for every path ever opened — and a "database table is locked" from it failed a query.
/// Without it Roslyn falls back to its no-op storage and keeps its indices in memory for the host's lifetime.
/// </summary>
public static class RoslynHostServices
{
    private const string PersistentStorageNamespace = "Microsoft.CodeAnalysis.SQLite";

    public static MefHostServices Default { get; } = Create();

    private static MefHostServices Create()
    {
        IEnumerable<Type> parts = MSBuildMefHostServices.DefaultAssemblies
            .SelectMany(TypesOf)
            .Where(type => type.Namespace is not { } name || !(name == PersistentStorageNamespace || name.StartsWith(PersistentStorageNamespace + ".", StringComparison.Ordinal)));
        return MefHostServices.Create(new ContainerConfiguration().WithParts(parts).CreateContainer());
    }

    private static IEnumerable<Type> TypesOf(Assembly assembly)
    {
        try
        {
            return assembly.DefinedTypes;
        }
        catch (ReflectionTypeLoadException ex)
        {
            // What MEF would see too: the types that load.
            return ex.Types.OfType<Type>();
        }
    }
}
