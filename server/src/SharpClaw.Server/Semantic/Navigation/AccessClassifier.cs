using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>How a reference uses a field, property, local, parameter or event.</summary>
[Flags]
internal enum Access
{
    None = 0,
    Read = 1,
    Write = 2,
}

/// <summary>
/// Classifies one reference as a read, a write or both, per the bridge-tools table:
/// <c>x = 1</c>, <c>x += 1</c>, <c>x++</c>, <c>out x</c>, <c>Volatile.Write(ref x, …)</c> write;
/// <c>Volatile.Read(ref x)</c> and <c>Interlocked.Read(ref x)</c> read; any other <c>ref x</c> (a ref
/// local or argument, e.g. <c>Interlocked.Exchange(ref x, 0)</c>, even to a method that only reads) reads
/// and writes; <c>nameof(x)</c> does neither; everything else reads. Declarations and their initializers
/// are not references at all, so they are neither.
/// </summary>
internal static class AccessClassifier
{
    public static Access Classify(SyntaxNode reference, SemanticModel model, CancellationToken cancellationToken)
    {
        if (reference.FirstAncestorOrSelf<ExpressionSyntax>() is not { } expression)
        {
            return Access.None;
        }

        // Climb to the whole target expression: this.x, a.b.x, (x), x!.
        while (true)
        {
            SyntaxNode? parent = expression.Parent;
            if ((parent is MemberAccessExpressionSyntax access && access.Name == expression)
                || (parent is MemberBindingExpressionSyntax binding && binding.Name == expression)
                || (parent is ConditionalAccessExpressionSyntax conditional && conditional.WhenNotNull == expression)
                || parent is ParenthesizedExpressionSyntax
                || (parent is PostfixUnaryExpressionSyntax bang && bang.IsKind(SyntaxKind.SuppressNullableWarningExpression)))
            {
                expression = (ExpressionSyntax)parent;
                continue;
            }

            break;
        }

        switch (expression.Parent)
        {
            case AssignmentExpressionSyntax assignment when assignment.Left == expression:
                return Access.Write;
            case PostfixUnaryExpressionSyntax postfix when postfix.IsKind(SyntaxKind.PostIncrementExpression) || postfix.IsKind(SyntaxKind.PostDecrementExpression):
                return Access.Write;
            case PrefixUnaryExpressionSyntax prefix when prefix.IsKind(SyntaxKind.PreIncrementExpression) || prefix.IsKind(SyntaxKind.PreDecrementExpression):
                return Access.Write;
            case RefExpressionSyntax:
                return Access.Read | Access.Write;
            case ArgumentSyntax argument:
                return ClassifyArgument(argument, model, cancellationToken);
            default:
                return Access.Read;
        }
    }

    private static Access ClassifyArgument(ArgumentSyntax argument, SemanticModel model, CancellationToken cancellationToken)
    {
        if (argument.Parent is ArgumentListSyntax { Parent: InvocationExpressionSyntax { Expression: IdentifierNameSyntax { Identifier.ValueText: "nameof" } } })
        {
            return Access.None;
        }

        // (x, y) = ... deconstructs into x.
        if (argument.Parent is TupleExpressionSyntax tuple && IsAssignedTuple(tuple))
        {
            return Access.Write;
        }

        if (argument.RefKindKeyword.IsKind(SyntaxKind.OutKeyword))
        {
            return Access.Write;
        }

        if (!argument.RefKindKeyword.IsKind(SyntaxKind.RefKeyword))
        {
            return Access.Read;
        }

        SyntaxNode? call = argument.Parent?.Parent;
        IMethodSymbol? method = call is null ? null : (model.GetSymbolInfo(call, cancellationToken).Symbol as IMethodSymbol);
        string? type = method?.ContainingType?.ToDisplayString();
        return (type, method?.Name) switch
        {
            ("System.Threading.Volatile", "Read") or ("System.Threading.Interlocked", "Read") => Access.Read,
            ("System.Threading.Volatile", "Write") => Access.Write,
            _ => Access.Read | Access.Write,
        };
    }

    private static bool IsAssignedTuple(TupleExpressionSyntax tuple)
    {
        SyntaxNode current = tuple;
        while (current.Parent is ArgumentSyntax { Parent: TupleExpressionSyntax outer })
        {
            current = outer;
        }

        return current.Parent is AssignmentExpressionSyntax assignment && assignment.Left == current;
    }
}
