using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using SharpClaw.Server.Semantic.Symbols;

namespace SharpClaw.Server.Semantic.Navigation;

/// <summary>A place a test walk met and cannot follow: its kind (reflection, Activator, Type.GetType, DI registration by type, dynamic, expression tree) and where.</summary>
internal sealed record UnfollowableSite(string Kind, Location Location);

/// <summary>
/// The places in a solution where code runs members the call graph cannot see: reflection by member name
/// (<c>GetMethod("Format")</c>, <c>InvokeMember</c>), <c>Type.GetType</c> by type name, <c>Activator.CreateInstance</c>
/// and DI registrations by type (the container calls the constructor), <c>dynamic</c> member calls, expression trees
/// built by member name. Found once per solution snapshot (syntax first, the semantic model only at candidates), then
/// matched against the members a walk visited: by member name (restricted to the type of a <c>typeof(T)</c>
/// receiver), by type name, or by a visited constructor. A name or type computed at run time matches any walk that
/// could be concerned, so the answer errs towards saying so.
/// </summary>
internal static class UnfollowableSites
{
    private static readonly ConditionalWeakTable<Solution, Task<List<Candidate>>> Cache = [];

    private static readonly HashSet<string> ReflectionByName =
        ["GetMethod", "GetProperty", "GetField", "GetMember", "GetEvent", "InvokeMember", "GetRuntimeMethod", "GetRuntimeProperty", "GetRuntimeField", "GetDeclaredMethod", "GetDeclaredProperty", "GetDeclaredField"];

    private static readonly HashSet<string> ExpressionByName = ["Call", "Property", "Field", "PropertyOrField"];

    private static readonly string[] Containers = ["DependencyInjection", "Autofac", "SimpleInjector", "Ninject", "Lamar", "DryIoc", "Unity", "Castle.Windsor", "StructureMap"];

    /// <summary>The sites that could run a member of <paramref name="visited"/>, in file and position order.</summary>
    public static async Task<List<UnfollowableSite>> MetAsync(IEnumerable<ISymbol> visited, Solution solution, CancellationToken cancellationToken)
    {
        HashSet<string> names = new(StringComparer.Ordinal);
        HashSet<string> typeNames = new(StringComparer.Ordinal);
        HashSet<string> constructed = new(StringComparer.Ordinal);
        Dictionary<string, HashSet<string>> namesByType = new(StringComparer.Ordinal);
        bool any = false;
        foreach (ISymbol member in visited)
        {
            any = true;
            if (member.ContainingType is not { } type)
            {
                continue;
            }

            string typeId = Flavours.Identity(type, solution);
            typeNames.Add(type.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat.WithGlobalNamespaceStyle(SymbolDisplayGlobalNamespaceStyle.Omitted)));
            typeNames.Add(MetadataName(type));
            if (member is IMethodSymbol { MethodKind: MethodKind.Constructor })
            {
                constructed.Add(typeId);
                continue;
            }

            names.Add(member.Name);
            if (!namesByType.TryGetValue(typeId, out HashSet<string>? ofType))
            {
                namesByType[typeId] = ofType = new(StringComparer.Ordinal);
            }

            ofType.Add(member.Name);
        }

        if (!any)
        {
            return [];
        }

        List<Candidate> candidates = await Cache.GetValue(solution, s => Task.Run(() => ScanAsync(s, CancellationToken.None))).WaitAsync(cancellationToken).ConfigureAwait(false);
        List<UnfollowableSite> met = [];
        foreach (Candidate candidate in candidates)
        {
            bool matches = candidate switch
            {
                { ByName: true, Name: null, OnType: null } => names.Count > 0,
                { ByName: true, Name: null, OnType: { } onType } => namesByType.ContainsKey(onType),
                { ByName: true, Name: { } name, OnType: null } => names.Contains(name),
                { ByName: true, Name: { } name, OnType: { } onType } => namesByType.TryGetValue(onType, out HashSet<string>? ofType) && ofType.Contains(name),
                { TypeName: { } typeName } => typeNames.Contains(typeName) || typeNames.Any(t => t.EndsWith("." + typeName, StringComparison.Ordinal)),
                { Kind: "Type.GetType" } => typeNames.Count > 0,
                { Types.Count: 0 } => constructed.Count > 0,
                _ => candidate.Types.Any(constructed.Contains),
            };
            if (matches)
            {
                met.Add(new UnfollowableSite(candidate.Kind, candidate.Location));
            }
        }

        return met;
    }

    private static string MetadataName(INamedTypeSymbol type) =>
        type.ContainingType is { } outer ? MetadataName(outer) + "+" + type.MetadataName
        : type.ContainingNamespace is { IsGlobalNamespace: false } ns ? ns.ToDisplayString() + "." + type.MetadataName
        : type.MetadataName;

    /// <summary>Every unfollowable site of the solution, once per place (a file in several flavours is scanned in each: #if code differs).</summary>
    private static async Task<List<Candidate>> ScanAsync(Solution solution, CancellationToken cancellationToken)
    {
        Dictionary<(string Path, int Start), Candidate> found = [];
        foreach (Project project in solution.Projects.Where(p => p.Language == LanguageNames.CSharp))
        {
            foreach (Document document in project.Documents)
            {
                if (await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false) is not { } root)
                {
                    continue;
                }

                bool hasDynamic = root.DescendantTokens().Any(t => t.IsKind(SyntaxKind.IdentifierToken) && t.ValueText == "dynamic");
                SemanticModel? model = null;
                foreach (SyntaxNode node in root.DescendantNodes())
                {
                    if (node is InvocationExpressionSyntax invocation && Interesting(invocation))
                    {
                        model ??= await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false);
                        if (model is not null && Classify(invocation, model, solution, cancellationToken) is { } candidate)
                        {
                            found.TryAdd((candidate.Location.SourceTree?.FilePath ?? string.Empty, candidate.Location.SourceSpan.Start), candidate);
                        }
                    }
                    else if (hasDynamic && node is MemberAccessExpressionSyntax access)
                    {
                        model ??= await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false);
                        if (model?.GetTypeInfo(access.Expression, cancellationToken).Type is { TypeKind: TypeKind.Dynamic })
                        {
                            found.TryAdd((access.SyntaxTree.FilePath, access.Name.SpanStart), new Candidate("dynamic", access.Name.GetLocation(), ByName: true, access.Name.Identifier.ValueText, null, null, []));
                        }
                    }
                }
            }
        }

        return [.. found.Values];
    }

    private static string? CalledName(InvocationExpressionSyntax invocation) => invocation.Expression switch
    {
        MemberAccessExpressionSyntax { Name: var name } => name.Identifier.ValueText,
        MemberBindingExpressionSyntax { Name: var name } => name.Identifier.ValueText,
        SimpleNameSyntax name => name.Identifier.ValueText,
        _ => null,
    };

    /// <summary>A syntax-only first cut, so the semantic model is asked only here.</summary>
    private static bool Interesting(InvocationExpressionSyntax invocation) => CalledName(invocation) is { } name
        && (ReflectionByName.Contains(name) || ExpressionByName.Contains(name) || name is "GetType" or "CreateInstance"
            || ((name.StartsWith("Add", StringComparison.Ordinal) || name.StartsWith("TryAdd", StringComparison.Ordinal) || name.StartsWith("Register", StringComparison.Ordinal))
                && (invocation.Expression is MemberAccessExpressionSyntax { Name: GenericNameSyntax } or GenericNameSyntax || invocation.ArgumentList.Arguments.Any(a => a.Expression is TypeOfExpressionSyntax))));

    private static Candidate? Classify(InvocationExpressionSyntax invocation, SemanticModel model, Solution solution, CancellationToken cancellationToken)
    {
        if ((model.GetSymbolInfo(invocation, cancellationToken).Symbol ?? model.GetSymbolInfo(invocation, cancellationToken).CandidateSymbols.FirstOrDefault()) is not IMethodSymbol method)
        {
            return null;
        }

        method = method.ReducedFrom ?? method;
        string container = method.ContainingType.ToDisplayString();
        string ns = method.ContainingNamespace?.ToDisplayString() ?? string.Empty;
        Location location = (invocation.Expression is MemberAccessExpressionSyntax access ? access.Name : invocation.Expression).GetLocation();
        string? literal = invocation.ArgumentList.Arguments.Select(a => model.GetConstantValue(a.Expression, cancellationToken).Value).OfType<string>().FirstOrDefault();
        List<string> types = [.. TypeArguments(invocation, method, model, cancellationToken).Select(t => Flavours.Identity(t, solution))];

        if (ReflectionByName.Contains(method.Name) && (ns.StartsWith("System.Reflection", StringComparison.Ordinal) || container is "System.Type"))
        {
            string? onType = invocation.Expression is MemberAccessExpressionSyntax { Expression: TypeOfExpressionSyntax typeOf } && model.GetTypeInfo(typeOf.Type, cancellationToken).Type is INamedTypeSymbol target
                ? Flavours.Identity(target.OriginalDefinition, solution)
                : null;
            return new Candidate("reflection", location, ByName: true, literal, onType, null, []);
        }

        if (ExpressionByName.Contains(method.Name) && container == "System.Linq.Expressions.Expression")
        {
            return new Candidate("expression tree", location, ByName: true, literal, null, null, []);
        }

        if (method.Name == "GetType" && method.Parameters.Length > 0 && method.Parameters[0].Type.SpecialType == SpecialType.System_String && container is "System.Type" or "System.Reflection.Assembly")
        {
            return new Candidate("Type.GetType", location, ByName: false, null, null, literal?.Split(',')[0].Trim(), []);
        }

        if (method.Name == "CreateInstance" && container is "System.Activator" or "Microsoft.Extensions.DependencyInjection.ActivatorUtilities")
        {
            return new Candidate("Activator", location, ByName: false, null, null, null, types);
        }

        if (types.Count > 0 && Containers.Any(c => ns.Contains(c, StringComparison.Ordinal) || container.Contains(c, StringComparison.Ordinal)))
        {
            return new Candidate("DI registration by type", location, ByName: false, null, null, null, types);
        }

        return null;
    }

    /// <summary>The types an invocation names as generic arguments or <c>typeof</c> arguments (their definitions).</summary>
    private static IEnumerable<INamedTypeSymbol> TypeArguments(InvocationExpressionSyntax invocation, IMethodSymbol method, SemanticModel model, CancellationToken cancellationToken)
    {
        foreach (ITypeSymbol argument in method.TypeArguments)
        {
            if (argument is INamedTypeSymbol named)
            {
                yield return named.OriginalDefinition;
            }
        }

        foreach (ArgumentSyntax argument in invocation.ArgumentList.Arguments)
        {
            if (argument.Expression is TypeOfExpressionSyntax typeOf && model.GetTypeInfo(typeOf.Type, cancellationToken).Type is INamedTypeSymbol named)
            {
                yield return named.OriginalDefinition;
            }
        }
    }

    /// <summary>
    /// One unfollowable site. By name: the member name (null: computed at run time), restricted to a type's members
    /// when the receiver is <c>typeof(T)</c>. Type.GetType: the type name (null: computed). Activator and DI: the
    /// types constructed (none named: any).
    /// </summary>
    private sealed record Candidate(string Kind, Location Location, bool ByName, string? Name, string? OnType, string? TypeName, List<string> Types);
}
