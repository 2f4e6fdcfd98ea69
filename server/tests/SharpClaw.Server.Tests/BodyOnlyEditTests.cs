using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Text;
using SharpClaw.Server.Semantic.Edits;
using SharpClaw.Server.Semantic.Loading;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// fixtures/BodyOnlyEdits: an edit's compile check (code actions, renames of locals) when the edit stays inside
/// member bodies of Lib. Such an edit can only break its own file, so the check compiles no dependent project (App):
/// before, every preview compiled every project that depends on the changed one, in every flavour. A changed
/// declaration, or a body change that changes what a source generator declares, is still checked in App.
/// The solution is loaded once (with Roslyn's MSBuildWorkspace, in this process); each test forks its own snapshots (Roslyn solutions are immutable).
/// </summary>
public sealed class BodyOnlyEditTests(BodyOnlyEditTests.Loaded fx) : IClassFixture<BodyOnlyEditTests.Loaded>
{
    private const string Shapes = "Lib/Shapes.cs";

    [Fact]
    public async Task ABodyEdit_WithoutANewError_FindsNone_AndCompilesNoDependentProject()
    {
        Solution after = await fx.EditAsync(Shapes, "double area = width * height;", "double area = height * width;");

        IReadOnlyList<NewError> errors = await EditValidator.FindNewErrorsAsync(fx.Solution, after, fx.Workspace.Root, CancellationToken.None);

        Assert.Empty(errors);
        Assert.False(after.GetProject(fx.App)!.TryGetCompilation(out _), "App was compiled to check an edit inside a member body of Lib.");
    }

    [Fact]
    public async Task ABodyEdit_ThatBreaksItsOwnFile_IsFound()
    {
        Solution after = await fx.EditAsync(Shapes, "return area;", "return aera;");

        NewError error = Assert.Single(await EditValidator.FindNewErrorsAsync(fx.Solution, after, fx.Workspace.Root, CancellationToken.None));

        Assert.Equal(("CS0103", Shapes, 8), (error.Code, error.Path, error.Line));
    }

    [Fact]
    public async Task ADeclarationEdit_ThatBreaksADependent_IsFound()
    {
        Solution after = await fx.EditAsync(Shapes, "public double Area()", "internal double Area()");

        NewError error = Assert.Single(await EditValidator.FindNewErrorsAsync(fx.Solution, after, fx.Workspace.Root, CancellationToken.None));

        Assert.Equal(("CS0122", "App/Program.cs", 4), (error.Code, error.Path, error.Line));
    }

    [Fact]
    public async Task ABodyEdit_ThatChangesWhatAGeneratorDeclares_IsCheckedInTheDependentToo()
    {
        // A generator that reads Lib's bodies: each "Register:Name" literal declares the constant Lib.Registered.Name,
        // which App uses. Changing the literal is a body edit that removes what App binds to.
        Solution before = fx.Solution.AddAnalyzerReference(fx.Lib, new GeneratorReference(new RegisterGenerator()));
        before = before.AddDocument(DocumentId.CreateNewId(fx.App), "Uses.cs", SourceText.From("static class Uses { public static int Kilo => Lib.Registered.Kilo; }"), filePath: fx.Workspace.Path("App/Uses.cs"));
        Assert.Empty(await EditValidator.FindNewErrorsAsync(fx.Solution, before, fx.Workspace.Root, CancellationToken.None));
        Solution after = await Loaded.EditAsync(before, fx.Workspace.Path(Shapes), "\"Register:Kilo\"", "\"Register:Mega\"");

        NewError error = Assert.Single(await EditValidator.FindNewErrorsAsync(before, after, fx.Workspace.Root, CancellationToken.None));

        Assert.Equal(("CS0117", "App/Uses.cs"), (error.Code, error.Path));
    }

    /// <summary>fixtures/BodyOnlyEdits, restored and loaded once in this process (<see cref="InProcessLoad"/>).</summary>
    public sealed class Loaded : IAsyncLifetime
    {
        private LoadedWorkspace? loaded;

        internal FixtureWorkspace Workspace { get; private set; } = null!;

        internal Solution Solution => this.loaded!.Solution;

        internal ProjectId Lib => this.Solution.Projects.Single(p => p.Name == "Lib").Id;

        internal ProjectId App => this.Solution.Projects.Single(p => p.Name == "App").Id;

        public async Task InitializeAsync()
        {
            this.Workspace = FixtureWorkspace.Restored("BodyOnlyEdits", "BodyOnlyEdits.slnx");
            this.loaded = await InProcessLoad.SolutionAsync(this.Workspace, "BodyOnlyEdits.slnx");
            // Errors are compared against the loaded state: both projects compile cleanly before any edit.
            foreach (Project project in this.Solution.Projects)
            {
                Assert.DoesNotContain((await project.GetCompilationAsync())!.GetDiagnostics(), d => d.Severity == DiagnosticSeverity.Error);
            }
        }

        public Task DisposeAsync()
        {
            this.loaded?.Dispose();
            this.Workspace.Dispose();
            return Task.CompletedTask;
        }

        /// <summary>The loaded solution with <paramref name="find"/> replaced by <paramref name="replace"/> in <paramref name="relative"/>.</summary>
        internal Task<Solution> EditAsync(string relative, string find, string replace) => EditAsync(this.Solution, this.Workspace.Path(relative), find, replace);

        internal static async Task<Solution> EditAsync(Solution solution, string path, string find, string replace)
        {
            DocumentId id = Assert.Single(solution.GetDocumentIdsWithFilePath(path));
            string text = (await solution.GetDocument(id)!.GetTextAsync()).ToString();
            Assert.Contains(find, text, StringComparison.Ordinal);
            return solution.WithDocumentText(id, SourceText.From(text.Replace(find, replace, StringComparison.Ordinal)));
        }
    }

    /// <summary>Declares <c>Lib.Registered.Name</c> for each "Register:Name" string literal in a method body.</summary>
    private sealed class RegisterGenerator : IIncrementalGenerator
    {
        public void Initialize(IncrementalGeneratorInitializationContext context)
        {
            IncrementalValuesProvider<string> names = context.SyntaxProvider.CreateSyntaxProvider(
                static (node, _) => node is LiteralExpressionSyntax { Token.ValueText: var value } && value.StartsWith("Register:", StringComparison.Ordinal),
                static (syntax, _) => ((LiteralExpressionSyntax)syntax.Node).Token.ValueText["Register:".Length..]);
            context.RegisterSourceOutput(names.Collect(), static (output, all) => output.AddSource(
                "Registered.g.cs",
                $"namespace Lib {{ public static class Registered {{ {string.Concat(all.Select(n => $"public const int {n} = 1; "))}}} }}"));
        }
    }

    /// <summary>A generator given to a project in memory, as an analyzer reference would give it.</summary>
    private sealed class GeneratorReference(IIncrementalGenerator generator) : AnalyzerReference
    {
        // One wrapper for every call: Roslyn keeps a generator's state by its instance.
        private readonly ISourceGenerator wrapped = generator.AsSourceGenerator();

        public override string? FullPath => null;

        public override object Id => this;

        public override string Display => nameof(RegisterGenerator);

        public override ImmutableArray<DiagnosticAnalyzer> GetAnalyzersForAllLanguages() => [];

        public override ImmutableArray<DiagnosticAnalyzer> GetAnalyzers(string language) => [];

        public override ImmutableArray<ISourceGenerator> GetGeneratorsForAllLanguages() => [this.wrapped];

        public override ImmutableArray<ISourceGenerator> GetGenerators(string language) => [this.wrapped];
    }
}
