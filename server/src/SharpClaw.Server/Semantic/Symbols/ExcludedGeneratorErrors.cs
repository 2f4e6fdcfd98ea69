using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace SharpClaw.Server.Semantic.Symbols;

/// <summary>
/// Where an error in reach of an excluded generator (<see cref="GeneratorReach"/>) most likely comes from it: inside a
/// <c>partial</c> type of a project the generator runs in, which the generator may complete (an interface, members,
/// the other half of a partial method). Such errors are listed first among those the generator may explain. Which
/// errors are marked at all is a rule by reach, never a list of codes: a missing interface surfaces as CS0311,
/// CS0266, CS1503, CS0019 or anything else the compiler says about the code that uses it.
/// </summary>
public static class ExcludedGeneratorErrors
{
    /// <summary>The partial type (with its containing types, dotted) around <paramref name="position"/>, or null.</summary>
    public static string? PartialTypeAt(SyntaxTree tree, int position, CancellationToken cancellationToken)
    {
        SyntaxNode root = tree.GetRoot(cancellationToken);
        if (position < 0 || position >= root.FullSpan.End)
        {
            return null;
        }

        SyntaxNode? node = root.FindToken(position).Parent;
        TypeDeclarationSyntax? partial = node?.AncestorsAndSelf().OfType<TypeDeclarationSyntax>().FirstOrDefault(t => t.Modifiers.Any(SyntaxKind.PartialKeyword));
        if (partial is null)
        {
            return null;
        }

        return string.Join(".", partial.AncestorsAndSelf().OfType<BaseTypeDeclarationSyntax>().Reverse().Select(t => t.Identifier.ValueText));
    }
}
