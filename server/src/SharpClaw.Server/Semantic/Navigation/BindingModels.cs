using Microsoft.CodeAnalysis;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>
/// The semantic models one search binds sites with (the call and reference sites of a question, the expressions a
/// conversion's callers or a walk's unfollowable sites are looked for in), without nullable analysis: which symbol or
/// conversion a site names does not depend on it, and in a <c>#nullable enable</c> project a document's own model runs
/// the nullable walk of each member body it binds as well. On serilog/serilog, classifying the call sites of one callers
/// question took 1.2 s that way, 0.5 s with these. Roslyn's reference search binds the same way. A model keeps what it
/// bound, so only the last few documents' models are kept: a question's sites come grouped by caller, and a scan or a
/// test walk visits thousands of documents.
/// </summary>
internal sealed class BindingModels
{
    private const int Kept = 16;

    /// <summary>Most recently used last.</summary>
    private readonly List<(DocumentId Document, Task<SemanticModel?> Model)> models = [];

    public Task<SemanticModel?> OfAsync(Document document, CancellationToken cancellationToken)
    {
        lock (this.models)
        {
            int index = this.models.FindIndex(m => m.Document == document.Id);
            Task<SemanticModel?> model;
            if (index >= 0 && this.models[index].Model is { IsFaulted: false, IsCanceled: false } kept)
            {
                model = kept;
                this.models.RemoveAt(index);
            }
            else
            {
                if (index >= 0)
                {
                    this.models.RemoveAt(index);
                }

                model = CreateAsync(document, cancellationToken);
                if (this.models.Count == Kept)
                {
                    this.models.RemoveAt(0);
                }
            }

            this.models.Add((document.Id, model));
            return model;
        }
    }

    private static async Task<SemanticModel?> CreateAsync(Document document, CancellationToken cancellationToken)
    {
        SyntaxTree? tree = await document.GetSyntaxTreeAsync(cancellationToken).ConfigureAwait(false);
        Compilation? compilation = await document.Project.GetCompilationAsync(cancellationToken).ConfigureAwait(false);
        // Experimental in Roslyn's public API (dotnet/roslyn#70609), stable in the version the host pins; Roslyn's own
        // searches use the same model.
#pragma warning disable RSEXPERIMENTAL001
        return tree is null || compilation is null ? null : compilation.GetSemanticModel(tree, SemanticModelOptions.DisableNullableAnalysis);
#pragma warning restore RSEXPERIMENTAL001
    }
}
