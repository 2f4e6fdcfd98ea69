using Microsoft.CodeAnalysis;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>One restored copy of fixtures/PackageGenerators and one host.</summary>
public sealed class PackageGeneratorsFixture : IAsyncLifetime
{
    internal FixtureWorkspace Workspace { get; private set; } = null!;

    internal SemanticHost Host { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        this.Workspace = FixtureWorkspace.Restored("PackageGenerators", "PackageGenerators.slnx");
        this.Host = await SemanticHost.StartAsync();
    }

    public async Task DisposeAsync()
    {
        await this.Host.DisposeAsync();
        this.Workspace.Dispose();
    }

    internal Task<EditResult> EditAsync(EditParams parameters) =>
        Poll.WithTimeout(
            this.Host.Host.Client.InvokeWithParameterObjectAsync<EditResult>(ProtocolMethods.Edit, parameters with { Workspace = this.Workspace.Root, Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.Edit);
}

/// <summary>
/// Package-supplied generators the SDK also ships (LoggerMessage, OptionsValidator) run as the SDK's copy,
/// so edits apply; a still-excluded project-reference generator blocks only edits its project can see.
/// </summary>
public sealed class PackageGeneratorTests(PackageGeneratorsFixture fx) : IClassFixture<PackageGeneratorsFixture>
{
    [Fact]
    public async Task SdkShippedPackageGenerators_AreReplacedByTheSdkCopy_AndCompileWithoutErrors()
    {
        SolutionInspectResult result = await fx.Host.InspectAsync(fx.Workspace.Root);
        Assert.DoesNotContain(result.ExcludedAnalyzers, e => e.Project is "Logging/Logging.csproj" or "Options/Options.csproj");
        ExcludedAnalyzers consumer = Assert.Single(result.ExcludedAnalyzers, e => e.Project == "Consumer/Consumer.csproj");
        Assert.Equal(["Generator.dll"], consumer.Analyzers.Select(a => a.Name));

        using ContextLease lease = await fx.Host.CachedLeaseAsync(fx.Workspace.Root);
        Assert.Contains(lease.Context.SubstitutedAnalyzers, s => s.ProjectPath.EndsWith("Logging.csproj", StringComparison.Ordinal) && Path.GetFileName(s.SdkPath) == "Microsoft.Extensions.Logging.Generators.dll" && s.SdkPath.Contains("/packs/", StringComparison.Ordinal));
        Assert.Contains(lease.Context.SubstitutedAnalyzers, s => s.ProjectPath.EndsWith("Options.csproj", StringComparison.Ordinal) && Path.GetFileName(s.SdkPath) == "Microsoft.Extensions.Options.SourceGeneration.dll");
        foreach (string name in new[] { "Logging", "Options" })
        {
            Project project = lease.Solution.Projects.Single(p => p.Name == name);
            Compilation compilation = (await project.GetCompilationAsync())!;
            Assert.Empty(compilation.GetDiagnostics().Where(d => d.Severity == DiagnosticSeverity.Error));
            Assert.NotEmpty(await project.GetSourceGeneratedDocumentsAsync());
        }
    }

    [Fact]
    public async Task Rename_InAProjectNoExcludedGeneratorCanSee_Applies()
    {
        string before = fx.Workspace.Read("Options/RetrySettings.cs");
        EditResult applied = await fx.EditAsync(new EditParams { Action = "rename", Name = "RetrySettings.Defaults", NewName = "Standard", Apply = true });
        Assert.Equal(EditResultKind.Applied, applied.Kind);
        Assert.Contains("Standard()", fx.Workspace.Read("App/Startup.cs"), StringComparison.Ordinal);
        await fx.EditAsync(new EditParams { Action = "rename", Name = "RetrySettings.Standard", NewName = "Defaults", Apply = true });
        Assert.Equal(before, fx.Workspace.Read("Options/RetrySettings.cs"));
    }

    [Fact]
    public async Task Rename_OfAPrivateMember_IsCheckedInItsDeclaringProjectOnly()
    {
        // Consumer (with its excluded generator) depends on Logging, but cannot see a private field of it.
        EditResult preview = await fx.EditAsync(new EditParams { Action = "rename", Name = "DiskMonitor.warnings", NewName = "warningCount" });
        Assert.Equal(EditResultKind.Preview, preview.Kind);
    }

    [Fact]
    public async Task Rename_SeenByAProjectWithAnExcludedGenerator_IsUnverified_NamingExactlyThatProject()
    {
        string before = fx.Workspace.Read("Logging/DiskMonitor.cs");
        SemanticErrorData error = await SemanticErrors.ExpectAsync(
            SemanticErrorKind.Unverified,
            () => fx.EditAsync(new EditParams { Action = "rename", Name = "DiskMonitor.Warnings", NewName = "WarningCount", Apply = true }));
        Assert.Equal(["Consumer/Consumer.csproj: Generator.dll"], error.Details);
        Assert.Contains("1 project that can see the change", error.Message, StringComparison.Ordinal);
        Assert.Equal(before, fx.Workspace.Read("Logging/DiskMonitor.cs"));

        // Without apply, the refused rename is still previewed so a person can read it: no proposal id, and why.
        EditResult refused = await fx.EditAsync(new EditParams { Action = "rename", Name = "DiskMonitor.Warnings", NewName = "WarningCount" });
        Assert.Equal((EditResultKind.Preview, (string?)null), (refused.Kind, refused.ProposalId));
        Assert.Equal(error.Message, refused.CannotApply);
        Assert.Equal(error.Details, refused.CannotApplyDetails);
        Assert.Contains(refused.Operations, o => o.Path == "Logging/DiskMonitor.cs" && o.Excerpts!.Any(e => e.Added.Any(a => a.Contains("WarningCount", StringComparison.Ordinal))));
        Assert.Equal(before, fx.Workspace.Read("Logging/DiskMonitor.cs"));
    }

    [Fact]
    public async Task CodeActions_AreMarkedUnverifiedOnlyWhereApplyingWouldBeRefused_AndApplyElsewhere()
    {
        EditResult blocked = await fx.EditAsync(new EditParams { Action = "code_actions", Path = "Consumer/Report.cs", Line = 8, Character = 35 });
        Assert.NotEmpty(blocked.Actions!);
        Assert.All(blocked.Actions!, a => Assert.True(a.Unverified, a.Title));

        EditResult listing = await fx.EditAsync(new EditParams { Action = "code_actions", Path = "App/Startup.cs", Line = 7, Character = 24 });
        CodeActionEntry makeReadonly = Assert.Single(listing.Actions!, a => a.Title == "Add readonly modifier");
        Assert.False(makeReadonly.Unverified);
        Assert.DoesNotContain(listing.Actions!, a => a.Unverified);
        string before = fx.Workspace.Read("App/Startup.cs");

        // An unverified entry resolves to a preview marked as refused; a verified one to a preview whose proposalId alone applies it.
        EditResult refused = await fx.EditAsync(new EditParams { Action = "code_actions", ProposalId = blocked.ProposalId, ActionIndex = blocked.Actions![0].Index });
        Assert.Equal((EditResultKind.Preview, (string?)null), (refused.Kind, refused.ProposalId));
        Assert.Contains("cannot be verified", refused.CannotApply, StringComparison.Ordinal);
        EditResult listed = await fx.EditAsync(new EditParams { Action = "code_actions", Path = "App/Startup.cs", Line = 7, Character = 24 });
        EditResult preview = await fx.EditAsync(new EditParams { ProposalId = listed.ProposalId, ActionIndex = makeReadonly.Index });
        Assert.Equal((EditResultKind.Preview, (string?)null), (preview.Kind, preview.CannotApply));
        EditResult applied = await fx.EditAsync(new EditParams { ProposalId = preview.ProposalId, Apply = true });
        Assert.Equal(EditResultKind.Applied, applied.Kind);
        Assert.Contains("private static readonly int started;", fx.Workspace.Read("App/Startup.cs"), StringComparison.Ordinal);
        File.WriteAllText(fx.Workspace.Path("App/Startup.cs"), before);
    }

    [Fact]
    public async Task Diagnostics_MarkErrorsAnExcludedGeneratorMayCause_AndCountThemApart()
    {
        DiagnosticsResult result = await Poll.WithTimeout(
            fx.Host.Host.Client.InvokeWithParameterObjectAsync<DiagnosticsResult>(ProtocolMethods.Diagnostics, new DiagnosticsParams { Workspace = fx.Workspace.Root, Severity = "error", Tool = "test-tool" }),
            SemanticHost.Timeout,
            ProtocolMethods.Diagnostics);
        // dotnet build has no error here; SharpClaw sees the namespace and type the project generator writes as missing.
        Assert.Equal(
            [("CS0234", "Consumer/Report.cs", "Generator"), ("CS0103", "Consumer/Report.cs", "Generator")],
            result.Diagnostics!.Select(d => (d.Id, d.Path, d.ExcludedGenerator)));
        Assert.Equal(2, result.PossiblyFromExcludedGenerators);
        Assert.DoesNotContain(result.Diagnostics!, d => d.Id == "CS8795"); // LoggerMessage runs as the SDK's copy
    }

    [Fact]
    public async Task ReadTools_CarryTheExcludedAnalyzers_OfTheAnsweringProject()
    {
        SymbolResolveResult resolved = await fx.Host.Host.Client.InvokeWithParameterObjectAsync<SymbolResolveResult>(
            ProtocolMethods.SymbolResolve, new SymbolResolveParams { Workspace = fx.Workspace.Root, Name = "Report", Tool = "test-tool" });
        Assert.Equal("Consumer/Consumer.csproj", resolved.Project);
        ExcludedAnalyzers excluded = Assert.Single(resolved.ExcludedAnalyzers!, e => e.Project == "Consumer/Consumer.csproj");
        Assert.Equal(["Generator.dll"], excluded.Analyzers.Select(a => a.Name));

        DiagnosticsResult diagnostics = await fx.Host.Host.Client.InvokeWithParameterObjectAsync<DiagnosticsResult>(
            ProtocolMethods.Diagnostics, new DiagnosticsParams { Workspace = fx.Workspace.Root, Ids = ["CS0234"], Tool = "test-tool" });
        Assert.Equal(excluded, Assert.Single(diagnostics.ExcludedAnalyzers!, e => e.Project == "Consumer/Consumer.csproj"), new ExcludedComparer());
        Assert.True(diagnostics.FilteredByIds);
        Assert.Contains(diagnostics.Diagnostics!, d => d.Id == "CS0234" && d.Project == "Consumer/Consumer.csproj");
    }

    private sealed class ExcludedComparer : IEqualityComparer<ExcludedAnalyzers>
    {
        public bool Equals(ExcludedAnalyzers? x, ExcludedAnalyzers? y) =>
            x is not null && y is not null && x.Project == y.Project && x.Analyzers.SequenceEqual(y.Analyzers);

        public int GetHashCode(ExcludedAnalyzers obj) => obj.Project.GetHashCode(StringComparison.Ordinal);
    }
}
