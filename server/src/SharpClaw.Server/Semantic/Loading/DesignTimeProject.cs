namespace SharpClaw.Server.Semantic.Loading;

/// <summary>
/// What one design-time build of one project flavour (project file × target framework) produced: the
/// values Roslyn's build host reads from the built project instance (ProjectInstanceReader), in the
/// build's own form (item specs as MSBuild has them; the solution factory resolves them as Roslyn does).
/// </summary>
public sealed record DesignTimeProject
{
    /// <summary>The project file (full path).</summary>
    public required string Path { get; init; }

    /// <summary>$(TargetFramework) of this flavour; null when empty.</summary>
    public string? TargetFramework { get; init; }

    /// <summary>The compiler's command line (@(CscCommandLineArgs)), one argument per entry.</summary>
    public required IReadOnlyList<string> CommandLineArgs { get; init; }

    /// <summary>@(Compile) after the build (generated AssemblyInfo and global usings included).</summary>
    public required IReadOnlyList<DesignTimeItem> Documents { get; init; }

    public required IReadOnlyList<DesignTimeItem> AdditionalFiles { get; init; }

    public required IReadOnlyList<DesignTimeItem> EditorConfigFiles { get; init; }

    public required IReadOnlyList<DesignTimeReference> ProjectReferences { get; init; }

    /// <summary>$(TargetPath), $(TargetRefPath), the first @(IntermediateAssembly), $(CompilerGeneratedFilesOutputPath) and $(RootNamespace), as evaluated.</summary>
    public string? TargetPath { get; init; }

    public string? TargetRefPath { get; init; }

    public string? IntermediateAssembly { get; init; }

    public string? GeneratedFilesOutputPath { get; init; }

    public string? RootNamespace { get; init; }
}

/// <param name="ItemSpec">The item as written or produced (may be relative to the project folder).</param>
/// <param name="Link">%(Link), or null.</param>
/// <remarks>
/// No %(FullPath): items handed back to the traversal project get it computed against the traversal's folder, not
/// the project's (and that folder is new on every pass); the solution factory resolves the item spec as Roslyn does.
/// </remarks>
public sealed record DesignTimeItem(string ItemSpec, string? Link);

/// <param name="Path">The referenced project file (full path).</param>
/// <param name="Aliases">%(Aliases), split at commas.</param>
/// <param name="ReferenceOutputAssembly">False only when %(ReferenceOutputAssembly) says false.</param>
public sealed record DesignTimeReference(string Path, IReadOnlyList<string> Aliases, bool ReferenceOutputAssembly);
