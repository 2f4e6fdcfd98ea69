using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Authorization;
using SharpClaw.Server.Semantic.Cache;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Symbols;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>
/// <c>sharpclaw/symbols</c>: a file's declarations with their ranges, nested under their containers, or the
/// workspace's symbols matching a query, best matches first (exact, prefix, camel humps, substring; types before members
/// before fields), then by file and position. Generated declarations are listed only when nothing else matches.
/// </summary>
public sealed class SymbolsService(SemanticContextCache cache)
{
    public async Task<SymbolsResult> SymbolsAsync(SymbolsParams parameters, IEvaluationAuthorizer? authorizer, CancellationToken cancellationToken)
    {
        bool hasPath = !string.IsNullOrWhiteSpace(parameters.Path);
        bool hasQuery = !string.IsNullOrWhiteSpace(parameters.Query);
        if (hasPath == hasQuery)
        {
            throw SemanticException.InvalidRequest("Pass either 'file' (document symbols) or 'query' (workspace symbols).");
        }

        int offset = ParamCheck.Bounded<SymbolsParams>(nameof(SymbolsParams.Offset), parameters.Offset);
        int limit = ParamCheck.Bounded<SymbolsParams>(nameof(SymbolsParams.Limit), parameters.Limit);
        ContextRequest request = SemanticWorkspaceService.CreateRequest(parameters);
        return await cache.QueryAsync(request, authorizer, lease => SymbolsCoreAsync(lease, request, parameters, hasPath, hasQuery, offset, limit, cancellationToken), cancellationToken).ConfigureAwait(false);
    }

    private static async Task<SymbolsResult> SymbolsCoreAsync(ContextLease lease, ContextRequest request, SymbolsParams parameters, bool hasPath, bool hasQuery, int offset, int limit, CancellationToken cancellationToken)
    {
        string workspace = request.Target.Workspace;
        List<Project> projects = SymbolResolver.SelectProjects(lease.Solution, workspace, parameters.Project);
        List<SymbolItem> items; // The page.
        List<Project> answering;
        ResolvedFile? file = null;
        bool incomplete = false;
        int total = 0;
        if (hasPath)
        {
            file = FileResolver.Resolve(lease.Solution, workspace, parameters.Path!);
            Document? document = FileResolver.Documents(projects, file).FirstOrDefault();
            SemanticModel model;
            if (document is null)
            {
                // A file outside every project: declarations from its syntax alone.
                string text = BoundedFileRead.ReadText(file.FullPath, BoundedFileRead.MaxSourceBytes, out BoundedFileRead.Refusal refusal)
                    ?? throw SemanticException.InvalidRequest($"{file.Relative} {BoundedFileRead.Describe(refusal, BoundedFileRead.MaxSourceBytes)}; name a C# source file of the workspace.");
                SyntaxTree tree = CSharpSyntaxTree.ParseText(text, path: file.FullPath, cancellationToken: cancellationToken);
                model = CSharpCompilation.Create("loose", [tree]).GetSemanticModel(tree);
                answering = [];
                incomplete = true;
            }
            else
            {
                model = await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false) ?? throw SemanticException.InvalidRequest($"{file.Relative} has no semantic model.");
                answering = [document.Project];
            }

            List<SymbolItem> all = DocumentSymbols(model, workspace, cancellationToken);
            total = all.Count;
            items = [.. all.Skip(offset).Take(limit)];
        }
        else
        {
            HashSet<ProjectId> selected = [.. projects.Select(p => p.Id)];
            string query = parameters.Query!.Trim();

            // Filtered by name before deduplicating: symbols that share a display name share their name, so the groups
            // are the same, and a warm query no longer deduplicates the whole index.
            SymbolIndex index = await SymbolResolver.IndexAsync(lease.Solution, cancellationToken).ConfigureAwait(false);
            ulong wanted = NameFilter.QueryMask(query);
            List<SymbolMatch> matching = [];
            for (int i = 0; i < index.All.Count; i++)
            {
                SymbolMatch m = index.All[i];
                if (NameFilter.MayMatch(index.NameMasks[i], wanted) && selected.Contains(m.Project.Id)
                    && m.Symbol is not IMethodSymbol { MethodKind: MethodKind.Constructor or MethodKind.StaticConstructor }
                    && NameFilter.MayBeSubsequence(query, m.Symbol.Name) && NameMatch.Score(m.Symbol.Name, query) < int.MaxValue)
                {
                    matching.Add(m);
                }
            }

            List<SymbolMatch> named = SymbolResolver.Deduplicate(matching, index);
            List<(SymbolMatch Match, int Score, SourceLocation Location)> found = [];
            foreach (SymbolMatch match in named)
            {
                // Only the location (the display strings of a full description, for thousands of matches, were most of
                // the call), and kept with the snapshot's index: at 200 projects, placing 3,840 matches took half the call.
                if (index.FirstLocation(match, workspace, lease.Solution) is { } location)
                {
                    found.Add((match, NameMatch.Score(match.Symbol.Name, query), location));
                }
            }

            // Generated declarations (source generators, obj/**, *.g.cs) only when nothing written by hand matches,
            // so one list never mixes file:// links of generated files with workspace paths.
            List<(SymbolMatch Match, int Score, SourceLocation Location)> written = [.. found.Where(f => !IsGeneratedDeclaration(f.Location))];
            if (written.Count > 0)
            {
                found = written;
            }

            found.Sort(static (a, b) =>
            {
                int order = a.Score.CompareTo(b.Score);
                order = order != 0 ? order : KindRank(a.Match.Symbol).CompareTo(KindRank(b.Match.Symbol));
                order = order != 0 ? order : string.CompareOrdinal(a.Location.Path, b.Location.Path);
                order = order != 0 ? order : a.Location.Line.CompareTo(b.Location.Line);
                order = order != 0 ? order : a.Location.Character.CompareTo(b.Location.Character);
                return order != 0 ? order : string.CompareOrdinal(a.Match.Display, b.Match.Display);
            });
            total = found.Count;
            List<(SymbolMatch Match, int Score, SourceLocation Location)> shown = found.GetRange(Math.Min(offset, total), Math.Clamp(total - offset, 0, limit));
            items = [.. shown.Select(f => new SymbolItem(f.Match.Display, f.Match.Kind, f.Location.Path, f.Location.Line, f.Location.Character, null, null, 0))];
            // The projects of the page's symbols, not of every match: a name found in 190 projects would otherwise
            // list all of them (about 8 KB at 200 projects) beside a page of 50.
            answering = [.. shown.Select(f => f.Match.Project).DistinctBy(p => p.Id)];
        }

        bool truncated = offset + items.Count < total;
        List<AnsweringProject> projectsAnswering = [.. answering
            .Select(p => new AnsweringProject(p.FilePath is null ? p.Name : PathUtil.ToWorkspaceRelative(workspace, p.FilePath), lease.Context.Frameworks.GetValueOrDefault(p.Id)))
            .Distinct()
            .OrderBy(p => p.Project, StringComparer.Ordinal)];
        return new SymbolsResult(
            file?.Relative,
            hasQuery ? parameters.Query!.Trim() : null,
            items,
            total,
            offset,
            limit,
            truncated,
            truncated ? offset + items.Count : null,
            projectsAnswering,
            incomplete,
            SymbolQueryService.Excluded(lease, workspace))
        {
            ResolvedFile = file?.Reported,
        };
    }

    /// <summary>Declarations in document order with their nesting depth (namespaces are not listed).</summary>
    private static List<SymbolItem> DocumentSymbols(SemanticModel model, string workspace, CancellationToken cancellationToken)
    {
        List<SymbolItem> items = [];
        SyntaxNode root = model.SyntaxTree.GetRoot(cancellationToken);
        Walk(root, 0);
        return items;

        void Walk(SyntaxNode node, int depth)
        {
            foreach (SyntaxNode child in node.ChildNodes())
            {
                switch (child)
                {
                    case BaseNamespaceDeclarationSyntax:
                        Walk(child, depth);
                        break;
                    case GlobalStatementSyntax:
                        break;
                    case BaseFieldDeclarationSyntax field:
                        foreach (VariableDeclaratorSyntax variable in field.Declaration.Variables)
                        {
                            Add(variable, field, depth);
                        }

                        break;
                    case MemberDeclarationSyntax member:
                        Add(member, member, depth);
                        if (member is BaseTypeDeclarationSyntax)
                        {
                            Walk(member, depth + 1);
                        }

                        break;
                }
            }
        }

        void Add(SyntaxNode declared, SyntaxNode range, int depth)
        {
            if (model.GetDeclaredSymbol(declared, cancellationToken) is not { } symbol)
            {
                return;
            }

            Location? at = symbol.Locations.FirstOrDefault(l => l.SourceTree == model.SyntaxTree && range.Span.Contains(l.SourceSpan));
            FileLinePositionSpan start = (at ?? range.GetLocation()).GetLineSpan();
            FileLinePositionSpan end = range.GetLocation().GetLineSpan();
            items.Add(new SymbolItem(
                symbol.ToDisplayString(SymbolFormat.NameFormat),
                SymbolFormat.KindOf(symbol),
                PathUtil.ToWorkspaceRelative(workspace, start.Path),
                start.StartLinePosition.Line + 1,
                start.StartLinePosition.Character + 1,
                end.EndLinePosition.Line + 1,
                end.EndLinePosition.Character + 1,
                depth));
        }
    }

    /// <summary>Within one match quality: types, then members that run code, then fields and the rest.</summary>
    private static int KindRank(ISymbol symbol) => symbol switch
    {
        INamedTypeSymbol => 0,
        IMethodSymbol or IPropertySymbol or IEventSymbol => 1,
        _ => 2,
    };

    /// <summary>A declaration in a generated file: a source generator's output, or a file under obj/ or named *.g.cs / *.g.i.cs.</summary>
    internal static bool IsGeneratedDeclaration(SourceLocation location) =>
        location.Generated == true || SymbolFormat.IsGeneratedPath(location.Path);
}
