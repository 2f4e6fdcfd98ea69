using System.Collections.Immutable;
using System.Reflection;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CodeRefactorings;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>
/// Provider discovery for code actions: every exported C# code fix provider, configuration (suppression)
/// fix provider, refactoring provider and C# IDE analyzer of Roslyn's Features assemblies, found once by
/// reflection and kept for the host's lifetime, in a fixed (type name) order.
/// </summary>
/// <param name="Fixers">C# code fix providers.</param>
/// <param name="ConfigurationProviders">The "Suppress or configure issues" providers.</param>
/// <param name="Refactorings">C# code refactoring providers.</param>
/// <param name="Analyzers">C# IDE analyzers (their diagnostics have fixes too).</param>
internal sealed record CodeActionProviders(
    IReadOnlyList<CodeFixProvider> Fixers,
    IReadOnlyList<CodeActionProviders.ConfigurationProvider> ConfigurationProviders,
    IReadOnlyList<CodeRefactoringProvider> Refactorings,
    ImmutableArray<DiagnosticAnalyzer> Analyzers)
{
    private static readonly Lazy<CodeActionProviders> Loaded = new(Load);

    /// <summary>The providers, discovered on first use.</summary>
    public static CodeActionProviders Default => Loaded.Value;

    /// <summary>Every exported C# fixer/refactoring and C# IDE analyzer of the Features assemblies that has a parameterless constructor.</summary>
    private static CodeActionProviders Load()
    {
        List<Assembly> assemblies = [];
        foreach (string name in new[] { "Microsoft.CodeAnalysis.CSharp.Features", "Microsoft.CodeAnalysis.Features" })
        {
            try
            {
                assemblies.Add(Assembly.Load(name));
            }
            catch (Exception ex) when (ex is FileNotFoundException or FileLoadException or BadImageFormatException)
            {
                // Not shipped: listings then have only what the other assembly offers.
            }
        }

        List<CodeFixProvider> fixers = [];
        List<ConfigurationProvider> configuration = [];
        List<CodeRefactoringProvider> refactorings = [];
        List<DiagnosticAnalyzer> analyzers = [];
        foreach (Type type in assemblies.SelectMany(Types).Where(t => t is { IsAbstract: false, IsGenericTypeDefinition: false }))
        {
            if (typeof(CodeFixProvider).IsAssignableFrom(type)
                && type.GetCustomAttribute<ExportCodeFixProviderAttribute>() is { } fix && fix.Languages.Contains(LanguageNames.CSharp)
                && Create<CodeFixProvider>(type) is { } fixer)
            {
                fixers.Add(fixer);
            }
            else if (ConfigurationProvider.TryCreate(type) is { } configurationProvider)
            {
                configuration.Add(configurationProvider);
            }
            else if (typeof(CodeRefactoringProvider).IsAssignableFrom(type)
                && type.GetCustomAttribute<ExportCodeRefactoringProviderAttribute>() is { } refactoring && refactoring.Languages.Contains(LanguageNames.CSharp)
                && Create<CodeRefactoringProvider>(type) is { } provider)
            {
                refactorings.Add(provider);
            }
            else if (typeof(DiagnosticAnalyzer).IsAssignableFrom(type)
                && type.GetCustomAttribute<DiagnosticAnalyzerAttribute>() is { } analyzer && analyzer.Languages.Contains(LanguageNames.CSharp)
                && Create<DiagnosticAnalyzer>(type) is { } created)
            {
                analyzers.Add(created);
            }
        }

        return new CodeActionProviders(
            [.. fixers.OrderBy(f => f.GetType().FullName, StringComparer.Ordinal)],
            [.. configuration.OrderBy(c => c.Name, StringComparer.Ordinal)],
            [.. refactorings.OrderBy(r => r.GetType().FullName, StringComparer.Ordinal)],
            [.. analyzers.OrderBy(a => a.GetType().FullName, StringComparer.Ordinal)]);
    }

    private static IEnumerable<Type> Types(Assembly assembly)
    {
        try
        {
            return assembly.GetTypes();
        }
        catch (ReflectionTypeLoadException ex)
        {
            return ex.Types.OfType<Type>();
        }
    }

    internal static T? Create<T>(Type type)
        where T : class
    {
        if (type.GetConstructor(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic, Type.EmptyTypes) is null)
        {
            return null;
        }

        try
        {
            return Activator.CreateInstance(type, nonPublic: true) as T;
        }
        catch (Exception ex) when (ex is TargetInvocationException or MissingMethodException or TypeLoadException or MemberAccessException)
        {
            return null;
        }
    }

    /// <summary>
    /// A Roslyn configuration fix provider (suppression, severity and code-style configuration). Their
    /// interface (<c>IConfigurationFixProvider</c>) is internal to Roslyn, so it is called through reflection:
    /// <c>IsFixableDiagnostic(Diagnostic)</c> and <c>GetFixesAsync(TextDocument, TextSpan, IEnumerable&lt;Diagnostic&gt;, CancellationToken)</c>
    /// returning <c>CodeFix</c>es whose <c>Action</c> is the code action.
    /// </summary>
    internal sealed class ConfigurationProvider
    {
        private readonly object instance;
        private readonly MethodInfo isFixable;
        private readonly MethodInfo getFixes;

        private ConfigurationProvider(object instance, MethodInfo isFixable, MethodInfo getFixes)
        {
            this.instance = instance;
            this.isFixable = isFixable;
            this.getFixes = getFixes;
        }

        public string Name => this.instance.GetType().FullName!;

        public static ConfigurationProvider? TryCreate(Type type)
        {
            Type? contract = type.GetInterfaces().FirstOrDefault(i => i.Name == "IConfigurationFixProvider");
            if (contract is null || type.GetCustomAttributes().All(a => a.GetType().Name != "ExportConfigurationFixProviderAttribute"))
            {
                return null;
            }

            MethodInfo? isFixable = contract.GetMethod("IsFixableDiagnostic", [typeof(Diagnostic)]);
            MethodInfo? getFixes = contract.GetMethods().FirstOrDefault(m => m.Name == "GetFixesAsync" && m.GetParameters() is [{ ParameterType.Name: nameof(TextDocument) }, { ParameterType.Name: nameof(TextSpan) }, _, { ParameterType.Name: nameof(CancellationToken) }]);
            object? instance = isFixable is null || getFixes is null ? null : CodeActionProviders.Create<object>(type);
            return instance is null ? null : new ConfigurationProvider(instance, isFixable!, getFixes!);
        }

        public async Task<List<CodeAction>> GetFixesAsync(Document document, Diagnostic diagnostic, CancellationToken cancellationToken)
        {
            List<CodeAction> actions = [];
            try
            {
                if (this.isFixable.Invoke(this.instance, [diagnostic]) is not true)
                {
                    return actions;
                }

                Task task = (Task)this.getFixes.Invoke(this.instance, [document, diagnostic.Location.SourceSpan, new[] { diagnostic }, cancellationToken])!;
                await task.ConfigureAwait(false);
                if (task.GetType().GetProperty("Result")?.GetValue(task) is System.Collections.IEnumerable fixes)
                {
                    foreach (object fix in fixes)
                    {
                        Type fixType = fix.GetType();
                        object? action = fixType.GetProperty("Action")?.GetValue(fix) ?? fixType.GetField("Action")?.GetValue(fix);
                        if (action is CodeAction codeAction)
                        {
                            actions.Add(codeAction);
                        }
                    }
                }
            }
            catch (Exception ex) when (ex is not OperationCanceledException)
            {
                // A provider that needs services this host does not have offers nothing here.
            }

            return actions;
        }
    }
}
