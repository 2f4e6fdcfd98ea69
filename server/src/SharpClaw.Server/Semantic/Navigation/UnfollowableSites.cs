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

    /// <summary>
    /// Reflection that finds members by name, or every member of a kind (the plural forms: a name compared at run
    /// time), with the kinds of member each can find. A method lookup finds accessors too (<c>get_Value</c>).
    /// </summary>
    private static readonly Dictionary<string, MemberKinds> ReflectionByName = new(StringComparer.Ordinal)
    {
        ["GetMethod"] = MemberKinds.Method, ["GetMethods"] = MemberKinds.Method, ["GetRuntimeMethod"] = MemberKinds.Method, ["GetRuntimeMethods"] = MemberKinds.Method, ["GetDeclaredMethod"] = MemberKinds.Method, ["GetDeclaredMethods"] = MemberKinds.Method,
        ["GetProperty"] = MemberKinds.Property, ["GetProperties"] = MemberKinds.Property, ["GetRuntimeProperty"] = MemberKinds.Property, ["GetRuntimeProperties"] = MemberKinds.Property, ["GetDeclaredProperty"] = MemberKinds.Property,
        ["GetField"] = MemberKinds.Field, ["GetFields"] = MemberKinds.Field, ["GetRuntimeField"] = MemberKinds.Field, ["GetRuntimeFields"] = MemberKinds.Field, ["GetDeclaredField"] = MemberKinds.Field,
        ["GetEvent"] = MemberKinds.Event, ["GetEvents"] = MemberKinds.Event, ["GetRuntimeEvent"] = MemberKinds.Event, ["GetRuntimeEvents"] = MemberKinds.Event, ["GetDeclaredEvent"] = MemberKinds.Event,
        ["GetMember"] = MemberKinds.Any, ["GetMembers"] = MemberKinds.Any, ["GetDefaultMembers"] = MemberKinds.Any, ["InvokeMember"] = MemberKinds.Any,
    };

    /// <summary>Reflection that finds constructors (then invoked): like Activator, it constructs the type it is asked on.</summary>
    private static readonly HashSet<string> ReflectionConstructors = ["GetConstructor", "GetConstructors"];

    private static readonly Dictionary<string, MemberKinds> ExpressionByName = new(StringComparer.Ordinal)
    {
        ["Call"] = MemberKinds.Method, ["Property"] = MemberKinds.Property, ["Field"] = MemberKinds.Field, ["PropertyOrField"] = MemberKinds.Property | MemberKinds.Field,
    };

    private static readonly string[] Containers = ["DependencyInjection", "Autofac", "SimpleInjector", "Ninject", "Lamar", "DryIoc", "Unity", "Castle.Windsor", "StructureMap"];

    /// <summary>The sites that could run a member of <paramref name="visited"/>, in file and position order.</summary>
    public static async Task<List<UnfollowableSite>> MetAsync(IEnumerable<ISymbol> visited, Solution solution, CancellationToken cancellationToken)
    {
        List<VisitedMember> members = [];
        HashSet<string> typeNames = new(StringComparer.Ordinal);
        HashSet<string> constructed = new(StringComparer.Ordinal);
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

            members.Add(new VisitedMember(member.Name, typeId, KindOf(member)));
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
                { ByName: true } => members.Any(m => (m.Kind & candidate.Kinds) != 0 && (candidate.OnType is null || candidate.OnType == m.TypeId) && (candidate.Name is null || Named(m, candidate.Name))),
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

    /// <summary>
    /// What a reflection lookup can find the member as: a method by its name, a property or event by its name or an
    /// accessor's (<c>get_Value</c>, found by a method lookup); an indexer by its metadata name (<c>Item</c>).
    /// </summary>
    private static bool Named(VisitedMember member, string name)
    {
        if (member.Name == name || (member.Name == WellKnownMemberNames.Indexer && name == "Item"))
        {
            return true;
        }

        int underscore = name.IndexOf('_', StringComparison.Ordinal);
        return underscore > 0 && (member.Kind & (MemberKinds.Property | MemberKinds.Event)) != 0
            && name[..underscore] is "get" or "set" or "add" or "remove"
            && (name[(underscore + 1)..] == member.Name || (member.Name == WellKnownMemberNames.Indexer && name[(underscore + 1)..] == "Item"));
    }

    /// <summary>
    /// The kinds of lookup that can find a visited member: a method by a method lookup; a property or event also by a
    /// method lookup (its accessors are methods); a field only by a field lookup (reading one runs no member's code
    /// but its type's static initializer, which the walk visits as the type's members, fields included).
    /// </summary>
    private static MemberKinds KindOf(ISymbol member) => member switch
    {
        IPropertySymbol => MemberKinds.Property | MemberKinds.Method,
        IEventSymbol => MemberKinds.Event | MemberKinds.Method,
        IFieldSymbol => MemberKinds.Field,
        _ => MemberKinds.Method,
    };

    private static string MetadataName(INamedTypeSymbol type) =>
        type.ContainingType is { } outer ? MetadataName(outer) + "+" + type.MetadataName
        : type.ContainingNamespace is { IsGlobalNamespace: false } ns ? ns.ToDisplayString() + "." + type.MetadataName
        : type.MetadataName;

    /// <summary>Every unfollowable site of the solution, once per place (a file in several flavours is scanned in each: #if code differs).</summary>
    private static async Task<List<Candidate>> ScanAsync(Solution solution, CancellationToken cancellationToken)
    {
        Dictionary<(string Path, int Start), Candidate> found = [];
        BindingModels models = new();
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
                        model ??= await models.OfAsync(document, cancellationToken).ConfigureAwait(false);
                        if (model is not null && Classify(invocation, model, solution, cancellationToken) is { } candidate)
                        {
                            found.TryAdd((candidate.Location.SourceTree?.FilePath ?? string.Empty, candidate.Location.SourceSpan.Start), candidate);
                        }
                    }
                    else if (hasDynamic && node is MemberAccessExpressionSyntax access)
                    {
                        model ??= await models.OfAsync(document, cancellationToken).ConfigureAwait(false);
                        if (model?.GetTypeInfo(access.Expression, cancellationToken).Type is { TypeKind: TypeKind.Dynamic })
                        {
                            found.TryAdd((access.SyntaxTree.FilePath, access.Name.SpanStart), new Candidate("dynamic", access.Name.GetLocation(), ByName: true, access.Name.Identifier.ValueText, null, null, [], MemberKinds.Any));
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
        && (ReflectionByName.ContainsKey(name) || ReflectionConstructors.Contains(name) || ExpressionByName.ContainsKey(name) || name is "GetType" or "CreateInstance" or "CreateDelegate"
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

        bool reflection = ns.StartsWith("System.Reflection", StringComparison.Ordinal) || container is "System.Type";
        string? onType = invocation.Expression is MemberAccessExpressionSyntax { Expression: TypeOfExpressionSyntax typeOf } && model.GetTypeInfo(typeOf.Type, cancellationToken).Type is INamedTypeSymbol target
            ? Flavours.Identity(target.OriginalDefinition, solution)
            : null;
        if (reflection && ReflectionByName.TryGetValue(method.Name, out MemberKinds kinds))
        {
            return new Candidate("reflection", location, ByName: true, literal, onType, null, [], kinds);
        }

        if (reflection && ReflectionConstructors.Contains(method.Name))
        {
            return new Candidate("reflection", location, ByName: false, null, null, null, onType is null ? [] : [onType]);
        }

        // Delegate.CreateDelegate(type, target, "Name"): a method by its name (the overloads taking a MethodInfo
        // are fed by a lookup found above).
        if (method.Name == "CreateDelegate" && container == "System.Delegate" && method.Parameters.Any(p => p.Type.SpecialType == SpecialType.System_String))
        {
            return new Candidate("reflection", location, ByName: true, literal, null, null, [], MemberKinds.Method);
        }

        if (ExpressionByName.TryGetValue(method.Name, out MemberKinds expressionKinds) && container == "System.Linq.Expressions.Expression")
        {
            return new Candidate("expression tree", location, ByName: true, literal, null, null, [], expressionKinds);
        }

        if (method.Name == "GetType" && method.Parameters.Length > 0 && method.Parameters[0].Type.SpecialType == SpecialType.System_String && container is "System.Type" or "System.Reflection.Assembly")
        {
            return new Candidate("Type.GetType", location, ByName: false, null, null, literal?.Split(',')[0].Trim(), []);
        }

        if (method.Name == "CreateInstance" && container is "System.Activator" or "Microsoft.Extensions.DependencyInjection.ActivatorUtilities" or "System.Reflection.Assembly" or "System.AppDomain")
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
    /// One unfollowable site. By name: the member name (null: computed at run time, or every member of the kinds),
    /// restricted to a type's members when the receiver is <c>typeof(T)</c>, and to the kinds of member the lookup
    /// finds. Type.GetType: the type name (null: computed). Activator, DI and constructor lookups: the types
    /// constructed (none named: any).
    /// </summary>
    private sealed record Candidate(string Kind, Location Location, bool ByName, string? Name, string? OnType, string? TypeName, List<string> Types, MemberKinds Kinds = MemberKinds.Any);

    /// <summary>A member a walk visited, as reflection could find it.</summary>
    private sealed record VisitedMember(string Name, string TypeId, MemberKinds Kind);

    /// <summary>The kinds of member a reflection lookup finds.</summary>
    [Flags]
    private enum MemberKinds
    {
        Method = 1,
        Property = 2,
        Field = 4,
        Event = 8,
        Any = Method | Property | Field | Event,
    }
}
