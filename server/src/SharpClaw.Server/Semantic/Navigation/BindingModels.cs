using Microsoft.CodeAnalysis;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>
/// The semantic models one question binds its reference and call sites with, one per document, without nullable
/// analysis: which symbol a site names does not depend on it, and in a <c>#nullable enable</c> project asking a
/// document's own model binds each member body twice (its nullable walk too). On serilog/serilog, classifying the
/// 40-odd call sites of one callers question took 1.2 s that way. Roslyn's reference search binds the same way.
/// Kept for one question only: a model holds what it bound.
/// </summary>
internal sealed class BindingModels
{
    private readonly Dictionary<DocumentId, Task<SemanticModel?>> models = [];

    public Task<SemanticModel?> OfAsync(Document document, CancellationToken cancellationToken)
    {
        lock (this.models)
        {
            if (!this.models.TryGetValue(document.Id, out Task<SemanticModel?>? model) || model.IsFaulted || model.IsCanceled)
            {
                this.models[document.Id] = model = CreateAsync(document, cancellationToken);
            }

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
