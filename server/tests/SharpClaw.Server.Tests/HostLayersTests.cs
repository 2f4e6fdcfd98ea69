using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// The host's folders are layers: a folder (its namespace: one namespace per folder) may use the folders below it in
/// <see cref="Layers"/> and never one above. Checked on the compiled source: every name the host writes, <c>using</c>
/// directives and doc-comment references included, is bound by Roslyn to its declaration, and the namespace it is
/// declared in must not be higher than the namespace of the file that names it. A new folder fails the test until it
/// is placed in the list.
/// </summary>
public sealed class HostLayersTests
{
    private const string Root = "SharpClaw.Server";

    /// <summary>Top to bottom.</summary>
    private static readonly string[] Layers =
    [
        Root,                                 // Program: the command line, stdio or the resident host
        Root + ".Hosting",                    // the process and its connections: JSON-RPC, the request gate, the handler table
        Root + ".Handlers",                   // one class per method family, over HostState (a connection's services)
        Root + ".Semantic.Lsp",               // raw LSP methods over the other semantic features
        Root + ".Semantic.Edits",             // plans, validation, writes, journal, code actions
        Root + ".Semantic.Navigation",        // navigate, bulk navigate, symbols, references, hierarchies
        Root + ".Semantic.Symbols",           // selectors, formats, flavours, diagnostics
        Root + ".Semantic",                   // the request rule every feature shares, solutionInspect, projectGraph
        Root + ".Semantic.Cache",             // the contexts a request gets: LRU, loads, authorization, refresh
        Root + ".Semantic.Snapshots",         // warm restart from approved snapshots
        Root + ".Store",                      // the per-user SQLite store, syntax index, symbol and text search
        Root + ".Semantic.Contexts",          // a compilation context, its key, request and lease
        Root + ".Semantic.Loading",           // MSBuildWorkspace and design-time loads, analyzer trust, progress
        Root + ".Semantic.Evaluation",        // MSBuild evaluation, project.assets.json
        Root + ".Semantic.Fingerprints",      // build and source files a context depends on
        Root + ".Semantic.Discovery",         // the target rule
        Root + ".Semantic.Authorization",     // asking the client before evaluation or a write
        Root + ".Semantic.OpenDocuments",     // the editor's buffers
        Root + ".Semantic.TestSelection",     // which members a change touched, from syntax alone
        Root + ".Toolchain",                  // installed SDKs
        Root + ".Infrastructure",             // paths, stat, the log, the state folder, the typed error, name matching
    ];

    private static readonly Lazy<(IReadOnlyList<SyntaxTree> Trees, Compilation Compilation)> Host = new(() =>
    {
        IReadOnlyList<SyntaxTree> trees = HostCompilation.ParseSource(TestPaths.ServerSource);
        return (trees, HostCompilation.Create(trees));
    });

    [Fact]
    public void EveryFileDeclaresTheNamespaceOfItsFolder()
    {
        List<string> wrong = [];
        foreach (SyntaxTree tree in Host.Value.Trees)
        {
            string relative = Path.GetRelativePath(TestPaths.ServerSource, Path.GetDirectoryName(tree.FilePath)!);
            string expected = relative == "." ? Root : Root + "." + relative.Replace(Path.DirectorySeparatorChar, '.');
            List<string> declared = tree.GetRoot().DescendantNodes().OfType<BaseNamespaceDeclarationSyntax>().Select(n => n.Name.ToString()).ToList();
            if (declared is not [{ } only] || only != expected)
            {
                wrong.Add($"{Relative(tree)}: declares [{string.Join(", ", declared)}], its folder is {expected}");
            }
        }

        Assert.True(wrong.Count == 0, string.Join('\n', wrong));
    }

    [Fact]
    public void EveryFolderIsALayer()
    {
        List<string> unplaced = Host.Value.Trees.Select(FileNamespace).Distinct().Where(ns => Array.IndexOf(Layers, ns) < 0).Order(StringComparer.Ordinal).ToList();
        Assert.True(unplaced.Count == 0, $"Place each folder in HostLayersTests.Layers, below everything it uses: {string.Join(", ", unplaced)}");
    }

    [Fact]
    public void NoFolderUsesAFolderAboveIt()
    {
        List<string> upward = UpwardReferences(Host.Value.Compilation, Host.Value.Trees);
        Assert.True(upward.Count == 0, $"{upward.Count} references run up the layers (top to bottom: {string.Join(" > ", Layers.Select(Short))}):\n{string.Join('\n', upward)}");
    }

    /// <summary>The check finds an upward reference: a file of Infrastructure naming Hosting's HostServer in code and in a using directive.</summary>
    [Fact]
    public void APlantedUpwardReference_IsFound()
    {
        SyntaxTree planted = CSharpSyntaxTree.ParseText(
            """
            using SharpClaw.Server.Hosting;

            namespace SharpClaw.Server.Infrastructure;

            internal static class PlantedUpwardReference
            {
                public static string Name => nameof(HostServer) + typeof(SharpClaw.Server.Handlers.HostState).Name;
            }
            """,
            HostCompilation.ParseOptions,
            Path.Combine(TestPaths.ServerSource, "Infrastructure", "PlantedUpwardReference.cs"));

        List<string> upward = UpwardReferences(Host.Value.Compilation.AddSyntaxTrees(planted), [planted]);

        Assert.Equal(
            [
                "Infrastructure/PlantedUpwardReference.cs:1: Infrastructure uses Hosting (using SharpClaw.Server.Hosting), which is above it",
                "Infrastructure/PlantedUpwardReference.cs:7: Infrastructure uses Hosting (HostServer), which is above it",
                "Infrastructure/PlantedUpwardReference.cs:7: Infrastructure uses Handlers (HostState), which is above it",
            ],
            upward);
    }

    /// <summary>Each place in <paramref name="trees"/> that names a symbol of the host declared in a higher layer (once per line and symbol).</summary>
    private static List<string> UpwardReferences(Compilation compilation, IEnumerable<SyntaxTree> trees)
    {
        List<string> found = [];
        foreach (SyntaxTree source in trees)
        {
            SyntaxTree tree = compilation.SyntaxTrees.Single(t => t.FilePath == source.FilePath);
            SemanticModel model = compilation.GetSemanticModel(tree);
            HostCompilation.AssertCompiles(model);
            string from = FileNamespace(tree);
            int fromLayer = Array.IndexOf(Layers, from);
            foreach (SyntaxNode node in tree.GetRoot().DescendantNodes(descendIntoTrivia: true))
            {
                // Every use of a declaration is a name (a type, member, attribute, cref or extension method) or a
                // target-typed new(); what a name's type then offers was declared in a layer that names it itself.
                (ISymbol? symbol, string? shown) = node switch
                {
                    UsingDirectiveSyntax { Name: { } name } => (model.GetSymbolInfo(name).Symbol, "using " + name),
                    _ when node.Parent is UsingDirectiveSyntax => (null, null), // the directive itself is checked once
                    SimpleNameSyntax or ImplicitObjectCreationExpressionSyntax => (model.GetSymbolInfo(node).Symbol, null),
                    _ => (null, null),
                };
                if (symbol is null || (symbol is INamespaceSymbol && shown is null) || DeclaringNamespace(symbol, compilation) is not { } to)
                {
                    continue;
                }

                int toLayer = Array.IndexOf(Layers, to);
                if (toLayer >= 0 && toLayer < fromLayer)
                {
                    int line = tree.GetLineSpan(node.Span).StartLinePosition.Line + 1;
                    string entry = $"{Relative(tree)}:{line}: {Short(from)} uses {Short(to)} ({shown ?? Declared(symbol).Name}), which is above it";
                    if (!found.Contains(entry))
                    {
                        found.Add(entry);
                    }
                }
            }
        }

        return found;
    }

    /// <summary>The host namespace <paramref name="symbol"/> is declared in, or null for anything outside the host.</summary>
    private static string? DeclaringNamespace(ISymbol symbol, Compilation compilation)
    {
        ISymbol declared = Declared(symbol);
        if (!SymbolEqualityComparer.Default.Equals(declared.ContainingAssembly, compilation.Assembly) && declared is not INamespaceSymbol)
        {
            return null;
        }

        string? name = (declared as INamespaceSymbol ?? declared.ContainingNamespace)?.ToDisplayString();
        return name is not null && (name == Root || name.StartsWith(Root + ".", StringComparison.Ordinal)) ? name : null;
    }

    /// <summary>The declaration behind a use: an extension method's own, a generic's definition.</summary>
    private static ISymbol Declared(ISymbol symbol) =>
        (symbol is IMethodSymbol { ReducedFrom: { } extension } ? extension : symbol).OriginalDefinition;

    private static string FileNamespace(SyntaxTree tree) =>
        tree.GetRoot().DescendantNodes().OfType<BaseNamespaceDeclarationSyntax>().FirstOrDefault()?.Name.ToString() ?? "(global)";

    private static string Relative(SyntaxTree tree) =>
        Path.GetRelativePath(TestPaths.ServerSource, tree.FilePath).Replace(Path.DirectorySeparatorChar, '/');

    private static string Short(string ns) => ns == Root ? "Program" : ns[(Root.Length + 1)..];
}
