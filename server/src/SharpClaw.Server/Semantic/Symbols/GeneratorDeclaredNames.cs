using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Symbols;

/// <summary>
/// Types an excluded generator may declare itself (post-initialization output, as Jab declares
/// <c>Jab.IServiceProvider&lt;T&gt;</c>): in a project in reach of an excluded generator, a base type, attribute or typeof
/// operand whose name binds to nothing at all. Without the generator's output such a type does not exist, so every type implementing
/// it has an error type as base, and a list of its implementations or references would be a confident "none". Names are
/// matched by simple name and arity (the namespace of a name that binds to nothing is unknown), so answers say "may".
/// </summary>
internal sealed class GeneratorDeclaredNames
{
    private static readonly ConditionalWeakTable<GeneratorReach, Task<GeneratorDeclaredNames>> Cache = [];

    /// <summary>(simple name, arity) → project → how many base types, attributes and typeof operands there name it and bind to nothing.</summary>
    private readonly Dictionary<(string Name, int Arity), Dictionary<ProjectId, int>> unresolved;

    private GeneratorDeclaredNames(Dictionary<(string Name, int Arity), Dictionary<ProjectId, int>> unresolved) => this.unresolved = unresolved;

    /// <summary>The names that bind to nothing in the projects of <paramref name="reach"/> (scanned once per solution snapshot).</summary>
    public static Task<GeneratorDeclaredNames> OfAsync(GeneratorReach reach, Solution solution, CancellationToken cancellationToken) =>
        // The scan is shared by every caller of this snapshot: one caller's cancellation stops its wait, not the scan.
        Cache.GetValue(reach, r => Task.Run(() => ScanAsync(r, solution, CancellationToken.None), CancellationToken.None)).WaitAsync(cancellationToken);

    /// <summary>
    /// The excluded generators that may declare a type named <paramref name="name"/> with <paramref name="arity"/> type
    /// parameters (<c>ContainerAttribute</c> also as <c>Container</c>), with the projects where uses of the name bind to
    /// nothing; null when there is none. <paramref name="display"/> names it in the answer.
    /// </summary>
    public List<GeneratorGap>? Gaps(GeneratorReach reach, Solution solution, string workspace, string name, int arity, string display)
    {
        if (!this.unresolved.TryGetValue((name, arity), out Dictionary<ProjectId, int>? uses))
        {
            return null;
        }

        // Per generator: each project's uses, counted once per project file (a multi-targeted project's flavours name the same uses).
        Dictionary<ExcludedGeneratorName, Dictionary<string, int>> byGenerator = [];
        foreach ((ProjectId id, int count) in uses)
        {
            if (solution.GetProject(id) is not { } project)
            {
                continue;
            }

            string path = project.FilePath is null ? project.Name : PathUtil.ToWorkspaceRelative(workspace, project.FilePath);
            foreach (ExcludedGeneratorName generator in reach.InReach(id))
            {
                if (!byGenerator.TryGetValue(generator, out Dictionary<string, int>? projects))
                {
                    byGenerator[generator] = projects = new(StringComparer.Ordinal);
                }

                projects.TryAdd(path, count);
            }
        }

        return byGenerator.Count == 0
            ? null
            : [.. byGenerator
                .OrderBy(g => g.Key.Name, StringComparer.Ordinal)
                .Select(g => new GeneratorGap(
                    g.Key.Name,
                    g.Key.Origin,
                    g.Value.Count,
                    // The projects where most is missing first, so a long list cut at MaxProjects keeps them.
                    [.. g.Value.OrderByDescending(p => p.Value).ThenBy(p => p.Key, StringComparer.Ordinal).Take(GeneratorGap.MaxProjects).Select(p => p.Key)])
                {
                    Declares = display,
                    UnresolvedUses = g.Value.Values.Sum(),
                })];
    }

    /// <summary>As <see cref="Gaps(GeneratorReach, Solution, string, string, int, string)"/> for a symbol: its type's name (a member's containing type).</summary>
    public List<GeneratorGap>? Gaps(GeneratorReach reach, Solution solution, string workspace, ISymbol symbol)
    {
        INamedTypeSymbol? type = symbol as INamedTypeSymbol ?? symbol.ContainingType;
        // Named as written, without its namespace: the generator's type is another one of the same name.
        return type is null ? null : this.Gaps(reach, solution, workspace, type.Name, type.Arity, type.Arity == 0 ? type.Name : $"{type.Name}<{string.Join(", ", type.TypeParameters.Select(t => t.Name))}>");
    }

    /// <summary>
    /// A symbol_not_found error for a name the excluded generators in reach may declare, saying so (the candidates kept);
    /// else <paramref name="notFound"/> unchanged. <paramref name="display"/> is the name as the request wrote it.
    /// </summary>
    public static async Task<SemanticException> ExplainAsync(GeneratorReach reach, Solution solution, string workspace, SemanticException notFound, string name, int arity, string display, CancellationToken cancellationToken)
    {
        if (reach.IsEmpty || name.Length == 0)
        {
            return notFound;
        }

        GeneratorDeclaredNames declared = await OfAsync(reach, solution, cancellationToken).ConfigureAwait(false);
        List<GeneratorGap>? gaps = declared.Gaps(reach, solution, workspace, name, arity, display);
        return gaps is null
            ? notFound
            : new SemanticException(notFound.Error with { Message = $"No compiled code declares {display}: {Sentence(gaps)} {notFound.Message}" });
    }

    /// <summary>
    /// "Providers.Gen (project generator, not run) may declare it: 3 uses (base types, attributes, typeof) in App/App.csproj name it and
    /// bind to nothing, so what implements or uses it there cannot be listed." — one clause per generator.
    /// </summary>
    internal static string Sentence(IEnumerable<GeneratorGap> gaps)
    {
        List<GeneratorGap> declaring = [.. gaps.Where(g => g.Declares is not null)];
        string who = string.Join("; ", declaring.Select(g =>
            $"{g.Generator} ({g.Origin}, not run) may declare it: {Uses(g.UnresolvedUses ?? 0)} in {string.Join(", ", g.Projects)}{(g.ProjectCount > g.Projects.Count ? $" and {g.ProjectCount - g.Projects.Count} more" : string.Empty)} name it and bind to nothing"));
        return $"{who}, so what implements or uses it there cannot be listed.";
    }

    private static string Uses(int count) => count == 1 ? "1 use (base type, attribute or typeof)" : $"{count} uses (base types, attributes, typeof)";

    /// <summary>The simple name and arity a type name is written with (<c>Jab.IServiceProvider&lt;int&gt;</c>: IServiceProvider, 1).</summary>
    internal static (string Name, int Arity) NameOf(NameSyntax name) => name switch
    {
        QualifiedNameSyntax qualified => NameOf(qualified.Right),
        AliasQualifiedNameSyntax alias => NameOf(alias.Name),
        GenericNameSyntax generic => (generic.Identifier.ValueText, generic.Arity),
        SimpleNameSyntax simple => (simple.Identifier.ValueText, 0),
        _ => (name.ToString(), 0),
    };

    /// <summary>The simple name and arity a queried name is written with (<c>Ns.IProvider&lt;T&gt;</c>: IProvider, 1).</summary>
    internal static (string Name, int Arity) NameOf(string written)
    {
        string name = NameQuery.WithoutParameters(written.Trim()).Trim();
        int open = name.IndexOf('<', StringComparison.Ordinal);
        int arity = 0;
        if (open >= 0)
        {
            arity = 1;
            int depth = 0;
            foreach (char c in name[open..])
            {
                depth += c switch { '<' => 1, '>' => -1, _ => 0 };
                arity += c == ',' && depth == 1 ? 1 : 0;
            }

            name = name[..open];
        }

        int dot = name.LastIndexOf('.');
        return (dot >= 0 ? name[(dot + 1)..] : name, arity);
    }

    /// <summary>Whether a type name written in source binds to nothing (no type and no candidate).</summary>
    internal static bool BindsToNothing(SemanticModel model, TypeSyntax type, CancellationToken cancellationToken) =>
        model.GetTypeInfo(type, cancellationToken).Type is IErrorTypeSymbol { CandidateReason: CandidateReason.None }
        && model.GetSymbolInfo(type, cancellationToken) is { Symbol: null, CandidateSymbols.IsEmpty: true };

    private static async Task<GeneratorDeclaredNames> ScanAsync(GeneratorReach reach, Solution solution, CancellationToken cancellationToken)
    {
        Dictionary<(string Name, int Arity), Dictionary<ProjectId, int>> unresolved = [];
        if (reach.IsEmpty)
        {
            return new GeneratorDeclaredNames(unresolved);
        }

        foreach (Project project in solution.Projects.Where(p => reach.InReach(p.Id).Count > 0))
        {
            foreach (Document document in project.Documents)
            {
                SyntaxNode? root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
                // Base types, attribute names and typeof operands (Jab's tests name IServiceProvider<T> only in typeof):
                // places a type the generator declares is named, bound only where they are (a body only around a typeof).
                List<NameSyntax> named = root is null ? [] : [.. root.DescendantNodes()
                    .Select(n => n switch
                    {
                        SimpleBaseTypeSyntax { Type: NameSyntax b } => b,
                        AttributeSyntax a => a.Name,
                        TypeOfExpressionSyntax { Type: NameSyntax t } => t,
                        _ => null,
                    })
                    .OfType<NameSyntax>()];
                if (named.Count == 0)
                {
                    continue;
                }

                SemanticModel? model = await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false);
                foreach (NameSyntax name in named)
                {
                    if (model is null || !BindsToNothing(model, name, cancellationToken))
                    {
                        continue;
                    }

                    (string simple, int arity) = NameOf(name);
                    Add(unresolved, (simple, arity), project.Id);
                    if (name.Parent is AttributeSyntax && !simple.EndsWith("Attribute", StringComparison.Ordinal))
                    {
                        Add(unresolved, (simple + "Attribute", arity), project.Id);
                    }
                }
            }
        }

        return new GeneratorDeclaredNames(unresolved);
    }

    private static void Add(Dictionary<(string Name, int Arity), Dictionary<ProjectId, int>> unresolved, (string Name, int Arity) key, ProjectId project)
    {
        if (!unresolved.TryGetValue(key, out Dictionary<ProjectId, int>? uses))
        {
            unresolved[key] = uses = [];
        }

        uses[project] = uses.GetValueOrDefault(project) + 1;
    }
}
