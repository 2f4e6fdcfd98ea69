using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using SharpClaw.Server.Semantic.Symbols;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>
/// The callers of an implicit user-defined conversion, which Roslyn's reference search does not report (no syntax
/// names it: <c>Money m = 1.5m;</c>): every expression the compiler converts with it, in the projects that can see
/// its declaring project (every flavour). Binds each expression of those documents, so it runs only when a test walk
/// reaches such an operator.
/// </summary>
internal static class ConversionCallers
{
    public static async Task<List<CallSites>> FindAsync(IMethodSymbol conversion, Solution solution, CancellationToken cancellationToken)
    {
        string target = Flavours.Identity(conversion, solution);
        HashSet<ProjectId> declaring = [.. conversion.Locations.Where(l => l.IsInSource).Select(l => solution.GetDocumentId(l.SourceTree)?.ProjectId).OfType<ProjectId>()];
        foreach (ProjectId id in declaring.ToList())
        {
            if (solution.GetProject(id)?.FilePath is { } file)
            {
                declaring.UnionWith(solution.Projects.Where(p => p.FilePath == file).Select(p => p.Id));
            }
        }

        ProjectDependencyGraph graph = solution.GetProjectDependencyGraph();
        HashSet<ProjectId> seeing = [.. declaring, .. declaring.SelectMany(graph.GetProjectsThatTransitivelyDependOnThisProject)];
        Dictionary<string, (ISymbol Symbol, List<Location> Sites)> callers = new(StringComparer.Ordinal);
        BindingModels models = new(); // Every expression of every document is bound: no nullable walk on top.
        foreach (ProjectId id in seeing)
        {
            foreach (Document document in solution.GetProject(id)?.Documents ?? [])
            {
                if (await models.OfAsync(document, cancellationToken).ConfigureAwait(false) is not { } model
                    || await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false) is not { } root)
                {
                    continue;
                }

                foreach (ExpressionSyntax expression in root.DescendantNodes().OfType<ExpressionSyntax>())
                {
                    Conversion converted = model.GetConversion(expression, cancellationToken);
                    if (!converted.IsUserDefined || !converted.IsImplicit || converted.MethodSymbol is not { } method || Flavours.Identity(method, solution) != target)
                    {
                        continue;
                    }

                    if (model.GetEnclosingSymbol(expression.SpanStart, cancellationToken) is not { } enclosing)
                    {
                        continue;
                    }

                    if (expression.FirstAncestorOrSelf<EqualsValueClauseSyntax>()?.Parent is VariableDeclaratorSyntax { Parent.Parent: FieldDeclarationSyntax } declarator
                        && model.GetDeclaredSymbol(declarator, cancellationToken) is { } field)
                    {
                        enclosing = field; // A field initializer: the walk maps it to the constructors.
                    }

                    string key = Flavours.Identity(enclosing, solution);
                    if (!callers.TryGetValue(key, out (ISymbol Symbol, List<Location> Sites) entry))
                    {
                        callers[key] = entry = (enclosing, []);
                    }

                    entry.Sites.Add(expression.GetLocation());
                }
            }
        }

        return [.. callers.Values.Select(c => new CallSites(c.Symbol, c.Sites, Via: null))];
    }
}
