using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Loading;

namespace SharpClaw.Server.Semantic.Symbols;

/// <summary>
/// Compiler errors an absent source generator causes: a partial member without its generated
/// implementation, an unknown type, namespace or member. In a project whose generator SharpClaw excluded
/// such an error may not exist in a real build, so it is marked with the generator and counted apart.
/// </summary>
public static class ExcludedGeneratorErrors
{
    /// <summary>
    /// CS8795/CS9248 partial method/property without implementation; CS0234, CS0246 unknown namespace or type; CS0103 unknown name;
    /// CS0117, CS1061 unknown member; CS0535 unimplemented interface member; and what an absent polyfill generator (PolySharp)
    /// causes: CS0518 predefined type missing (IsExternalInit), CS0656 compiler-required member missing (System.Index.GetOffset),
    /// CS0122 another assembly's internal copy of the polyfill seen instead of the project's own.
    /// </summary>
    public static readonly IReadOnlySet<string> Codes = new HashSet<string>(StringComparer.OrdinalIgnoreCase) { "CS8795", "CS9248", "CS0234", "CS0246", "CS0103", "CS0117", "CS1061", "CS0535", "CS0518", "CS0656", "CS0122" };

    /// <summary>Project file → the names of its excluded generators (comma separated).</summary>
    public static Dictionary<string, string> ByProject(SemanticContext context) =>
        context.ExcludedAnalyzers
            .Where(e => GeneratorDetector.MayContainGenerator(e.AnalyzerPath))
            .GroupBy(e => e.ProjectPath, PathUtil.Comparer)
            .ToDictionary(
                g => g.Key,
                g => string.Join(", ", g.Select(e => Path.GetFileNameWithoutExtension(e.AnalyzerPath)).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal)),
                PathUtil.Comparer);

    /// <summary>The excluded generators that may explain an error of <paramref name="code"/> in <paramref name="projectPath"/>, or null.</summary>
    public static string? PossibleCause(IReadOnlyDictionary<string, string> byProject, string? projectPath, string severity, string code) =>
        severity == "error" && Codes.Contains(code) && projectPath is not null && byProject.TryGetValue(projectPath, out string? names) ? names : null;
}
