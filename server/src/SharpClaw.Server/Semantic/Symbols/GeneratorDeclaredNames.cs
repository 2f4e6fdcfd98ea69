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
    /// <summary>Per snapshot's reach, the scan of each name asked about.</summary>
    private static readonly ConditionalWeakTable<GeneratorReach, System.Collections.Concurrent.ConcurrentDictionary<(string Name, int Arity), Task<GeneratorDeclaredNames>>> Cache = [];

    /// <summary>Project → how many base types, attributes and typeof operands there name the scanned type and bind to nothing.</summary>
    private readonly Dictionary<ProjectId, int> unresolved;

    private GeneratorDeclaredNames(Dictionary<ProjectId, int> unresolved) => this.unresolved = unresolved;

    /// <summary>
    /// Where the type name <paramref name="name"/> (simple name, arity) binds to nothing in the projects of <paramref name="reach"/>
    /// (scanned once per solution snapshot and name). Only the places that write that name are bound: a scan of every
    /// name bound each base type, attribute and typeof of every project in reach (1.4 s of a first answer on serilog/serilog).
    /// </summary>
    private static Task<GeneratorDeclaredNames> OfAsync(GeneratorReach reach, Solution solution, (string Name, int Arity) name, CancellationToken cancellationToken) =>
        // The scan is shared by every caller of this snapshot: one caller's cancellation stops its wait, not the scan.
        Cache.GetOrCreateValue(reach)
            .GetOrAdd(name, key => Task.Run(() => ScanAsync(reach, solution, key, CancellationToken.None), CancellationToken.None))
            .WaitAsync(cancellationToken);

    /// <summary>
    /// The excluded generators that may declare the scanned type (<c>ContainerAttribute</c> also written <c>Container</c>),
    /// with the projects where uses of its name bind to nothing; null when there is none. <paramref name="display"/> names
    /// it in the answer.
    /// </summary>
    private List<GeneratorGap>? Gaps(GeneratorReach reach, Solution solution, string workspace, string display)
    {
        // Per generator: each project's uses, counted once per project file (a multi-targeted project's flavours name the same uses).
        Dictionary<ExcludedGeneratorName, Dictionary<string, int>> byGenerator = [];
        foreach ((ProjectId id, int count) in this.unresolved)
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

    /// <summary>
    /// The excluded generators that may declare the symbol's type (a member's containing type) themselves, with the
    /// projects where uses of its name bind to nothing; null when there is none.
    /// </summary>
    public static async Task<List<GeneratorGap>?> GapsAsync(GeneratorReach reach, Solution solution, string workspace, ISymbol symbol, CancellationToken cancellationToken)
    {
        INamedTypeSymbol? type = symbol as INamedTypeSymbol ?? symbol.ContainingType;
        if (type is null)
        {
            return null;
        }

        // Named as written, without its namespace: the generator's type is another one of the same name.
        GeneratorDeclaredNames declared = await OfAsync(reach, solution, (type.Name, type.Arity), cancellationToken).ConfigureAwait(false);
        return declared.Gaps(reach, solution, workspace, type.Arity == 0 ? type.Name : $"{type.Name}<{string.Join(", ", type.TypeParameters.Select(t => t.Name))}>");
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

        GeneratorDeclaredNames declared = await OfAsync(reach, solution, (name, arity), cancellationToken).ConfigureAwait(false);
        List<GeneratorGap>? gaps = declared.Gaps(reach, solution, workspace, display);
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

    private static async Task<GeneratorDeclaredNames> ScanAsync(GeneratorReach reach, Solution solution, (string Name, int Arity) wanted, CancellationToken cancellationToken)
    {
        Dictionary<ProjectId, int> unresolved = [];
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
                    .OfType<NameSyntax>()
                    .Where(n => Names(n, wanted))];
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

                    unresolved[project.Id] = unresolved.GetValueOrDefault(project.Id) + 1;
                }
            }
        }

        return new GeneratorDeclaredNames(unresolved);
    }

    /// <summary>Whether a name written in source names the type <paramref name="wanted"/>: an attribute <c>[Container]</c> names <c>ContainerAttribute</c> too.</summary>
    private static bool Names(NameSyntax name, (string Name, int Arity) wanted)
    {
        (string simple, int arity) = NameOf(name);
        return arity == wanted.Arity
            && (simple == wanted.Name
                || (name.Parent is AttributeSyntax && !simple.EndsWith("Attribute", StringComparison.Ordinal) && simple + "Attribute" == wanted.Name));
    }
}
