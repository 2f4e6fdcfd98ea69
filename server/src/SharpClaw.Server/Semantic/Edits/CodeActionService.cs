using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CodeRefactorings;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Symbols;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>A code action listing: the entries in index order and how to compute each one.</summary>
/// <param name="FilePath">The document (absolute).</param>
/// <param name="FileHash">Its content hash when listed (a change makes the listing stale).</param>
/// <param name="Entries">Index-aligned with <paramref name="Resolvers"/>.</param>
/// <param name="Resolvers">Computes the action of each entry (fix-all entries compute lazily).</param>
/// <param name="Solution">The snapshot the actions were computed on (their changes are relative to it).</param>
public sealed record CodeActionListing(
    Solution Solution,
    string FilePath,
    string? FileHash,
    IReadOnlyList<CodeActionEntry> Entries,
    IReadOnlyList<Func<CancellationToken, Task<CodeAction?>>> Resolvers)
{
    /// <summary>Index-aligned with <see cref="Entries"/>: the LSP CodeActionKind of each (quickfix or refactor).</summary>
    public IReadOnlyList<string> Kinds { get; init; } = [];
}

/// <summary>
/// code_actions from Roslyn's C# code fix and refactoring providers (Microsoft.CodeAnalysis.CSharp.Features):
/// fixes for the diagnostics at a position (compiler and IDE analyzers), refactorings for the position or
/// selection, nested actions flattened to menu paths, one fix-all entry per scope, and the "Suppress or
/// configure issues" entries hidden unless <c>all</c> is set. Resolving an entry runs it against the solution
/// snapshot and turns its solution change into a validated plan.
/// </summary>
public static class CodeActionService
{
    public const string SuppressGroup = "Suppress or configure issues";

    /// <summary>The LSP CodeActionKind of a code fix (fix-all and suppressions included).</summary>
    public const string QuickFix = "quickfix";

    /// <summary>The LSP CodeActionKind of a refactoring.</summary>
    public const string Refactor = "refactor";

    /// <summary>How many providers were found (fixers, refactorings, analyzers).</summary>
    public static (int Fixers, int Refactorings, int Analyzers) ProviderCounts =>
        (CodeActionProviders.Default.Fixers.Count, CodeActionProviders.Default.Refactorings.Count, CodeActionProviders.Default.Analyzers.Length);

    public static async Task<CodeActionListing> ListAsync(ContextLease lease, string workspace, EditParams parameters, CancellationToken cancellationToken)
    {
        if (string.IsNullOrWhiteSpace(parameters.Path))
        {
            throw SemanticException.InvalidRequest("code_actions needs 'path' with line and character, or 'path' with 'diagnostic'.");
        }

        string path = FileRenameService.ResolveFile(lease.Solution, workspace, parameters.Path);
        // The default flavour's copy of a file several target frameworks compile (the one most of the solution compiles against).
        Document document = SolutionPaths.DocumentIdsAt(lease.Solution, path).Select(id => lease.Solution.GetDocument(id)!).OrderBy(d => Flavours.Rank(d.Project)).First();
        SourceText text = await document.GetTextAsync(cancellationToken).ConfigureAwait(false);
        ImmutableArray<Diagnostic> diagnostics = await DocumentDiagnosticsAsync(document, cancellationToken).ConfigureAwait(false);

        TextSpan span;
        List<Diagnostic> targets;
        if (!string.IsNullOrWhiteSpace(parameters.Diagnostic))
        {
            string code = parameters.Diagnostic.Trim();
            int fromLine = (parameters.Line ?? 1) - 1;
            Diagnostic first = diagnostics
                .Where(d => string.Equals(d.Id, code, StringComparison.OrdinalIgnoreCase) && d.Location.GetLineSpan().StartLinePosition.Line >= fromLine)
                .OrderBy(d => d.Location.SourceSpan.Start)
                .FirstOrDefault()
                ?? throw SemanticException.InvalidRequest($"{PathUtil.ToWorkspaceRelative(workspace, path)} has no {code} diagnostic{(parameters.Line is { } l ? $" at or after line {l}" : string.Empty)}.");
            span = first.Location.SourceSpan;
            targets = [first];
        }
        else
        {
            if (parameters.Line is null)
            {
                throw SemanticException.InvalidRequest("code_actions needs line and character (or diagnostic).");
            }

            int start = Position(text, parameters.Line.Value, parameters.Character ?? 1);
            int end = parameters.EndLine is { } endLine ? Position(text, endLine, parameters.EndCharacter ?? 1) : start;
            if (end < start)
            {
                throw SemanticException.InvalidRequest("endLine/endCharacter must not be before line/character.");
            }

            span = TextSpan.FromBounds(start, end);
            int line = parameters.Line.Value - 1;
            targets = [.. diagnostics.Where(d =>
            {
                FileLinePositionSpan at = d.Location.GetLineSpan();
                return d.Location.SourceSpan.IntersectsWith(span) || (at.StartLinePosition.Line <= line && line <= at.EndLinePosition.Line);
            })];
        }

        List<(string Title, bool Hidden, string Kind, Func<CancellationToken, Task<CodeAction?>> Resolve)> entries = [];
        HashSet<(string Provider, string Key, FixAllScope Scope)> fixAllSeen = [];
        foreach (Diagnostic diagnostic in targets)
        {
            foreach (CodeFixProvider fixer in CodeActionProviders.Default.Fixers.Where(f => f.FixableDiagnosticIds.Contains(diagnostic.Id)))
            {
                List<CodeAction> actions = [];
                try
                {
                    await fixer.RegisterCodeFixesAsync(new CodeFixContext(document, diagnostic, (action, _) => actions.Add(action), cancellationToken)).ConfigureAwait(false);
                }
                catch (Exception ex) when (ex is not OperationCanceledException)
                {
                    continue; // A provider that needs editor services this host does not have.
                }

                foreach (CodeAction action in actions)
                {
                    AddFlattened(entries, string.Empty, action, hidden: false, QuickFix);
                }

                if (fixer.GetFixAllProvider() is not { } fixAll)
                {
                    continue;
                }

                foreach (CodeAction action in actions.Where(a => a.NestedActions.IsEmpty))
                {
                    foreach (FixAllScope scope in fixAll.GetSupportedFixAllScopes().Where(s => s is FixAllScope.Document or FixAllScope.Project or FixAllScope.Solution))
                    {
                        if (!fixAllSeen.Add((fixer.GetType().FullName!, action.EquivalenceKey ?? action.Title, scope)))
                        {
                            continue;
                        }

                        CodeFixProvider provider = fixer;
                        string? key = action.EquivalenceKey;
                        string id = diagnostic.Id;
                        entries.Add(($"Fix All: {action.Title} ({scope})", false, QuickFix, async ct =>
                        {
                            FixAllContext context = new(document, provider, scope, key, [id], new SolutionDiagnostics(), ct);
                            return await fixAll.GetFixAsync(context).ConfigureAwait(false);
                        }));
                    }
                }
            }
        }

        // "Suppress or configure issues": Roslyn's configuration fix providers (suppress in source or in a
        // suppression file, configure severity or code style), hidden unless 'all' is set.
        foreach (Diagnostic diagnostic in targets)
        {
            foreach (CodeActionProviders.ConfigurationProvider provider in CodeActionProviders.Default.ConfigurationProviders)
            {
                foreach (CodeAction action in await provider.GetFixesAsync(document, diagnostic, cancellationToken).ConfigureAwait(false))
                {
                    AddFlattened(entries, SuppressGroup + " > ", action, hidden: true, QuickFix);
                }
            }
        }

        foreach (CodeRefactoringProvider refactoring in CodeActionProviders.Default.Refactorings)
        {
            List<CodeAction> actions = [];
            try
            {
                await refactoring.ComputeRefactoringsAsync(new CodeRefactoringContext(document, span, actions.Add, cancellationToken)).ConfigureAwait(false);
            }
            catch (Exception ex) when (ex is not OperationCanceledException)
            {
                continue;
            }

            foreach (CodeAction action in actions)
            {
                AddFlattened(entries, string.Empty, action, hidden: false, Refactor);
            }
        }

        // Stable indexes: hidden entries keep their numbers (they come last, like the editor's menu).
        List<(string Title, bool Hidden, string Kind, Func<CancellationToken, Task<CodeAction?>> Resolve)> ordered = [.. entries.Where(e => !e.Hidden), .. entries.Where(e => e.Hidden)];
        // Entries that applying would refuse (an excluded generator can see this document's project) say so.
        bool unverified = EditVerifiability.BlockingGenerators(lease.Context, EditVerifiability.ProjectsThatSee(lease.Solution, [.. SolutionPaths.DocumentIdsAt(lease.Solution, path).Select(id => id.ProjectId)])).Count > 0;
        return new CodeActionListing(
            lease.Solution,
            path,
            ContentHash.OfFile(path),
            [.. ordered.Select((e, i) => new CodeActionEntry(i, e.Title, e.Hidden, unverified))],
            [.. ordered.Select(e => e.Resolve)])
        {
            Kinds = [.. ordered.Select(e => e.Kind)],
        };
    }

    public static async Task<EditPlan> ResolveAsync(ContextLease lease, string workspace, CodeActionListing listing, int index, CancellationToken cancellationToken)
    {
        if (index < 0 || index >= listing.Entries.Count)
        {
            throw SemanticException.InvalidRequest($"actionIndex {index} is not in the listing (0 to {listing.Entries.Count - 1}).");
        }

        CodeActionEntry entry = listing.Entries[index];
        CodeAction action = await listing.Resolvers[index](cancellationToken).ConfigureAwait(false)
            ?? throw SemanticException.InvalidRequest($"'{entry.Title}' produced no change.");
        ImmutableArray<CodeActionOperation> operations = await action.GetOperationsAsync(cancellationToken).ConfigureAwait(false);
        ApplyChangesOperation? apply = operations.OfType<ApplyChangesOperation>().FirstOrDefault();
        if (apply is null)
        {
            throw SemanticException.InvalidRequest($"'{entry.Title}' reveals its edits only when executed by an editor; SharpClaw cannot preview or apply it.");
        }

        Solution before = listing.Solution;
        // The action ran in one flavour of the document; its text is the file's text in every flavour, and
        // every flavour is validated with it.
        Solution after = await SolutionDiff.ShareWithLinkedCopiesAsync(before, apply.ChangedSolution, cancellationToken).ConfigureAwait(false);
        SemanticException? refusal = EditVerifiability.Refusal(lease, workspace, $"The code action '{entry.Title}'", EditVerifiability.ProjectsThatSee(before, EditVerifiability.ChangedProjects(before, after)));
        EditPlan plan = await SolutionDiff.PlanAsync(before, after, workspace, "code_actions", entry.Title, cancellationToken, lease.Buffers).ConfigureAwait(false);
        IReadOnlyList<NewError> errors = await EditValidator.FindNewErrorsAsync(before, after, workspace, cancellationToken).ConfigureAwait(false);
        if (errors.Count > 0)
        {
            throw SemanticException.Edit(
                SemanticErrorKind.NewErrors,
                $"'{entry.Title}' would introduce {errors.Sum(e => e.Count)} compiler error(s); nothing was changed.",
                [.. errors.Select(RenameService.Line)]);
        }

        return plan with { Refusal = refusal };
    }

    private static void AddFlattened(List<(string, bool, string, Func<CancellationToken, Task<CodeAction?>>)> entries, string prefix, CodeAction action, bool hidden, string kind)
    {
        if (action.NestedActions.IsEmpty)
        {
            entries.Add((prefix + action.Title, hidden, kind, _ => Task.FromResult<CodeAction?>(action)));
            return;
        }

        foreach (CodeAction nested in action.NestedActions)
        {
            AddFlattened(entries, prefix + action.Title + " > ", nested, hidden, kind);
        }
    }

    private static int Position(SourceText text, int line, int character)
    {
        if (line < 1 || line > text.Lines.Count)
        {
            throw SemanticException.InvalidRequest($"line {line} is outside the file (1 to {text.Lines.Count}).");
        }

        TextLine at = text.Lines[line - 1];
        return at.Start + Math.Clamp(character - 1, 0, at.End - at.Start);
    }

    /// <summary>Compiler diagnostics plus the C# IDE analyzers' diagnostics of one document.</summary>
    private static async Task<ImmutableArray<Diagnostic>> DocumentDiagnosticsAsync(Document document, CancellationToken cancellationToken)
    {
        SemanticModel model = (await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false))!;
        ImmutableArray<Diagnostic> compiler = model.GetDiagnostics(cancellationToken: cancellationToken);
        ImmutableArray<DiagnosticAnalyzer> analyzers = CodeActionProviders.Default.Analyzers;
        if (analyzers.IsEmpty)
        {
            return compiler;
        }

        try
        {
            CompilationWithAnalyzers withAnalyzers = model.Compilation.WithAnalyzers(
                analyzers,
                new CompilationWithAnalyzersOptions(document.Project.AnalyzerOptions, onAnalyzerException: null, concurrentAnalysis: false, logAnalyzerExecutionTime: false));
            ImmutableArray<Diagnostic> syntax = await withAnalyzers.GetAnalyzerSyntaxDiagnosticsAsync(model.SyntaxTree, cancellationToken).ConfigureAwait(false);
            ImmutableArray<Diagnostic> semantic = await withAnalyzers.GetAnalyzerSemanticDiagnosticsAsync(model, null, cancellationToken).ConfigureAwait(false);
            return [.. compiler, .. syntax.Where(d => !d.IsSuppressed), .. semantic.Where(d => !d.IsSuppressed)];
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            return compiler;
        }
    }

    /// <summary>Fix-all's view of diagnostics: compiler plus IDE analyzer diagnostics per document/project.</summary>
    private sealed class SolutionDiagnostics : FixAllContext.DiagnosticProvider
    {
        public override async Task<IEnumerable<Diagnostic>> GetDocumentDiagnosticsAsync(Document document, CancellationToken cancellationToken) =>
            await DocumentDiagnosticsAsync(document, cancellationToken).ConfigureAwait(false);

        public override async Task<IEnumerable<Diagnostic>> GetProjectDiagnosticsAsync(Project project, CancellationToken cancellationToken)
        {
            Compilation? compilation = await project.GetCompilationAsync(cancellationToken).ConfigureAwait(false);
            return compilation is null ? [] : compilation.GetDiagnostics(cancellationToken).Where(d => !d.Location.IsInSource);
        }

        public override async Task<IEnumerable<Diagnostic>> GetAllDiagnosticsAsync(Project project, CancellationToken cancellationToken)
        {
            List<Diagnostic> all = [.. await this.GetProjectDiagnosticsAsync(project, cancellationToken).ConfigureAwait(false)];
            foreach (Document document in project.Documents)
            {
                all.AddRange(await DocumentDiagnosticsAsync(document, cancellationToken).ConfigureAwait(false));
            }

            return all;
        }
    }
}
