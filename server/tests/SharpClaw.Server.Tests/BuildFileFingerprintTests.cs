using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>Imports (inside and outside the workspace), restore assets in the artifacts layout, dynamic imports.</summary>
public sealed class BuildFileFingerprintTests
{
    /// <summary>
    /// One restored OutsideImport copy and one host (its cold load paid once) for the literal imports and the
    /// .editorconfig files: imports inside and outside the workspace are followed and their edits re-authorize;
    /// an .editorconfig's content edit refreshes in place, adding one is structural.
    /// </summary>
    [Fact]
    public async Task LiteralImports_AreFollowedRecursively_IncludingOutsideTheWorkspace_AndEditorConfigEditsRefreshInPlace_AddingOneIsStructural()
    {
        // Restored from the fixture cache: the imports set properties only, no restore input; an .editorconfig is none either.
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("OutsideImport", "OutsideImport.csproj");
        string outside = Path.Combine(fixture.Parent, "SharpClaw.Outside.props");
        File.WriteAllText(outside, "<Project>\n  <PropertyGroup>\n    <OutsideImported>true</OutsideImported>\n  </PropertyGroup>\n</Project>\n");
        fixture.Write(".editorconfig", "root = true\n\n[*.cs]\ndotnet_diagnostic.CA1822.severity = none\n");
        await using SemanticHost host = await SemanticHost.StartAsync();

        SolutionInspectResult loaded = await host.InspectAsync(fixture.Root);
        ProjectGraphResult graph = await host.GraphAsync(fixture.Root);

        Assert.Empty(loaded.DynamicImports);
        ProjectGraphNode node = Assert.Single(graph.Projects);
        Assert.Contains("build/Local.props", node.Imports);
        Assert.Contains("build/Nested.props", node.Imports);
        Assert.Contains(outside, node.Imports);

        // Source edits: no evaluation. Imported files, inside or outside, nested or not: re-authorization.
        fixture.Edit("Value.cs", t => t.Replace("=> 1", "=> 2", StringComparison.Ordinal));
        Assert.True((await host.InspectAsync(fixture.Root)).FromCache);
        await AssertReauthorizesAsync(host, fixture, outside, () => File.AppendAllText(outside, "<!-- changed -->\n"));
        await AssertReauthorizesAsync(host, fixture, "build/Nested.props", () => fixture.Edit("build/Nested.props", t => t.Replace("true", "yes", StringComparison.Ordinal)));
        await AssertReauthorizesAsync(host, fixture, "build/Local.props", () => fixture.Edit("build/Local.props", t => t + "\n"));

        // A conditional import that disappears changes evaluation too.
        await AssertReauthorizesAsync(host, fixture, outside, () => File.Delete(outside));

        // An .editorconfig's content edit: refreshed in place, nothing asked.
        int asked = host.Client.AuthorizationRequests.Count;
        fixture.Edit(".editorconfig", t => t.Replace("none", "warning", StringComparison.Ordinal));
        Assert.True((await host.InspectAsync(fixture.Root)).FromCache);
        Assert.Equal(asked, host.Client.AuthorizationRequests.Count);
        using (ContextLease lease = await host.CachedLeaseAsync(fixture.Root))
        {
            Microsoft.CodeAnalysis.AnalyzerConfigDocument config = lease.Solution.Projects.Single().AnalyzerConfigDocuments.Single(d => d.FilePath == fixture.Path(".editorconfig"));
            Assert.Contains("warning", (await config.GetTextAsync()).ToString(), StringComparison.Ordinal);
        }

        // Adding one is structural.
        await AssertReauthorizesAsync(host, fixture, "build/.editorconfig", () => fixture.Write("build/.editorconfig", "[*.cs]\nindent_size = 2\n"));
    }

    /// <summary>
    /// One restored ArtifactsLayout copy and one host for every change to its build inputs (each change is
    /// asserted alone, one after the other): a same-size edit with the write time put back, a touch, the
    /// assets file, Directory.Build.props, the assets file deleted.
    /// </summary>
    [Fact]
    public async Task ArtifactsLayout_AssetsFileIsTheEvaluatedOne_AndItsChangesForceReauthorization_EvenASameSizeEditWithRestoredWriteTime()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("ArtifactsLayout", "ArtifactsLayout.slnx");
        string props = fixture.Path("Directory.Build.props");
        DateTime written = DateTime.UtcNow.AddMinutes(-5);
        File.SetLastWriteTimeUtc(props, written);
        await using SemanticHost host = await SemanticHost.StartAsync();
        const string Assets = "artifacts/obj/App/project.assets.json";

        SolutionInspectResult result = await host.InspectAsync(fixture.Root);
        ProjectGraphResult graph = await host.GraphAsync(fixture.Root);

        Assert.Equal(Assets, Assert.Single(result.Projects).AssetsFile);
        Assert.Equal((Assets, true), (Assert.Single(graph.Projects).AssetsFile, Assert.Single(graph.Projects).Restored));
        Assert.False(Directory.Exists(fixture.Path("src/App/obj")), "The fixture should not have an obj folder next to the project.");
        Assert.Contains("Directory.Build.props", Assert.Single(graph.Projects).Imports);

        // Windows has no inode change time; size and write time decide there.
        if (!OperatingSystem.IsWindows())
        {
            // Same size, same write time afterwards (touch -d): only the content (and the inode change time) differ.
            long size = new FileInfo(props).Length;
            await AssertReauthorizesAsync(host, fixture, "Directory.Build.props", () =>
            {
                fixture.Edit("Directory.Build.props", t => t.Replace("<UseArtifactsOutput>true<", "<UseArtifactsOutput>True<", StringComparison.Ordinal));
                File.SetLastWriteTimeUtc(props, written);
            });
            Assert.Equal(size, new FileInfo(props).Length);
            Assert.Equal(written, File.GetLastWriteTimeUtc(props));

            // A touch that restores the time without changing the content is not a change (content decides).
            File.SetLastWriteTimeUtc(props, written.AddSeconds(1));
            File.SetLastWriteTimeUtc(props, written);
            Assert.True((await host.InspectAsync(fixture.Root)).FromCache);
        }

        await AssertReauthorizesAsync(host, fixture, Assets, () => fixture.Edit(Assets, t => t + "\n"));
        await AssertReauthorizesAsync(host, fixture, "Directory.Build.props", () => fixture.Edit("Directory.Build.props", t => t.Replace("</PropertyGroup>", "  <Nullable>enable</Nullable>\n  </PropertyGroup>", StringComparison.Ordinal)));

        // Deleting the assets is structural too, and the reload then names the restore command.
        fixture.DeleteFile(Assets);
        SemanticErrorData missing = await SemanticErrors.ExpectAsync(SemanticErrorKind.MissingPrerequisites, () => host.InspectAsync(fixture.Root));
        Assert.Equal("dotnet restore \"ArtifactsLayout.slnx\"", missing.Command);
        Assert.Contains(Assets, missing.Projects![0].Reason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task WildcardAndPropertyImports_NeedAuthorizationOnEveryCall()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("WildcardImport", "WildcardImport.csproj");
        await using SemanticHost host = await SemanticHost.StartAsync();

        SolutionInspectResult first = await host.InspectAsync(fixture.Root);
        Assert.Equal(["WildcardImport.csproj"], first.DynamicImports);
        Assert.Equal(EvaluationReason.ColdLoad, host.Client.AuthorizationRequests[^1].Reason);

        SemanticContext loaded = Assert.Single(await host.Cache.GetContextsAsync());
        SolutionInspectResult second = await host.InspectAsync(fixture.Root);
        Assert.False(second.FromCache);
        AuthorizeEvaluationParams again = host.Client.AuthorizationRequests[^1];
        Assert.Equal(EvaluationReason.DynamicImports, again.Reason);
        Assert.Equal(["WildcardImport.csproj"], again.ChangedFiles);

        // MSBuild evaluated again and gave the same answer: it imported the files the load's pass listed, none changed
        // since, so no design-time pass runs and the loaded context (its compilations warm) stays.
        Assert.Same(loaded, Assert.Single(await host.Cache.GetContextsAsync()));
        Assert.Equal((1, 1, 1), (host.Cache.LoadCount, host.Cache.RevalidationCount, host.Cache.VouchedCount));
        Assert.Contains("ONE_IMPORTED", await PreprocessorSymbolsAsync(host));
        Assert.Contains("EXTRA_A", await PreprocessorSymbolsAsync(host));

        // The property-driven import now reaches another file (named in a text file nothing imports or watches; neither
        // file changed): the evaluation lists other imports, so the pass runs and the context reloads.
        fixture.Write("extra.txt", "extra/B.props\n");
        Assert.False((await host.InspectAsync(fixture.Root)).FromCache);
        Assert.Equal((2, 1), (host.Cache.LoadCount, host.Cache.VouchedCount));
        Assert.Contains("EXTRA_B", await PreprocessorSymbolsAsync(host));
        loaded = Assert.Single(await host.Cache.GetContextsAsync());

        // An edit to a file only the wildcard reaches (nothing watches it) is seen by that re-evaluation: a reload. The
        // evaluation alone cannot see it (DefineConstants is not among what it reads): the file's stamp does.
        fixture.Edit("build/One.props", t => t.Replace("ONE_IMPORTED", "ONE_CHANGED", StringComparison.Ordinal));
        Assert.False((await host.InspectAsync(fixture.Root)).FromCache);
        Assert.Equal(3, host.Cache.LoadCount);
        Assert.NotSame(loaded, Assert.Single(await host.Cache.GetContextsAsync()));
        Assert.Contains("ONE_CHANGED", await PreprocessorSymbolsAsync(host));

        // So is a new file the wildcard now matches.
        fixture.Write("build/Two.props", "<Project>\n  <PropertyGroup>\n    <DefineConstants>$(DefineConstants);TWO_ADDED</DefineConstants>\n  </PropertyGroup>\n</Project>\n");
        await host.InspectAsync(fixture.Root);
        Assert.Equal(4, host.Cache.LoadCount);
        Assert.Contains("TWO_ADDED", await PreprocessorSymbolsAsync(host));

        ProjectGraphResult graph = await host.GraphAsync(fixture.Root);
        Assert.False(graph.FromCache);
        Assert.Equal(EvaluationReason.DynamicImports, host.Client.AuthorizationRequests[^1].Reason);

        host.Client.DenyAll();
        SemanticErrorData denied = await SemanticErrors.ExpectAsync(SemanticErrorKind.PermissionDenied, () => host.InspectAsync(fixture.Root));
        Assert.Contains("every call", denied.Message, StringComparison.Ordinal);
    }

    /// <summary>
    /// Parallel calls on a context with dynamic imports (an agent's tool calls sent at once) each ask for authorization,
    /// but the ones that waited share the re-evaluation that started after they arrived instead of running MSBuild one
    /// after another: three calls, one evaluation.
    /// </summary>
    [Fact]
    public async Task ParallelCalls_OnDynamicImports_ShareTheReevaluationThatStartedAfterTheyArrived()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Restored("WildcardImport", "WildcardImport.csproj");
        await using SemanticHost host = await SemanticHost.StartAsync();
        await host.InspectAsync(fixture.Root);
        int asked = host.Client.AuthorizationRequests.Count;

        // The first call's approval is held until the other two are waiting behind it.
        TaskCompletionSource release = new(TaskCreationOptions.RunContinuationsAsynchronously);
        int answered = 0;
        host.Client.Answer = async _ =>
        {
            if (Interlocked.Increment(ref answered) == 1)
            {
                await release.Task;
            }

            return new AuthorizeEvaluationResult { Granted = true };
        };
        Task<SolutionInspectResult> first = host.InspectAsync(fixture.Root);
        Assert.True(await Poll.UntilAsync(() => host.Client.AuthorizationRequests.Count == asked + 1, SemanticHost.Timeout), "the first call asked");
        Task<SolutionInspectResult>[] beside = [host.InspectAsync(fixture.Root), host.InspectAsync(fixture.Root)];
        Assert.True(await Poll.UntilAsync(() => host.Cache.WaitingCount == 2, SemanticHost.Timeout), "the other two wait behind the first");
        release.SetResult();

        SolutionInspectResult[] results = [await first, .. await Task.WhenAll(beside)];

        Assert.All(results, r => Assert.False(r.FromCache));
        Assert.Equal(asked + 3, host.Client.AuthorizationRequests.Count);
        Assert.All(host.Client.AuthorizationRequests.Skip(asked), r => Assert.Equal(EvaluationReason.DynamicImports, r.Reason));
        Assert.Equal((1, 3, 1), (host.Cache.LoadCount, host.Cache.RevalidationCount, host.Cache.VouchedCount));

        // A call that arrives after that evaluation started runs its own.
        await host.InspectAsync(fixture.Root);
        Assert.Equal((4, 2), (host.Cache.RevalidationCount, host.Cache.VouchedCount));
    }

    private static async Task AssertReauthorizesAsync(SemanticHost host, FixtureWorkspace fixture, string changedFile, Action change)
    {
        int asked = host.Client.AuthorizationRequests.Count;
        change();

        SolutionInspectResult result = await host.InspectAsync(fixture.Root);

        Assert.False(result.FromCache, $"{changedFile}: the context was reused.");
        Assert.Equal(asked + 1, host.Client.AuthorizationRequests.Count);
        Assert.Equal(EvaluationReason.StructuralChange, host.Client.AuthorizationRequests[^1].Reason);
        Assert.Contains(changedFile, host.Client.AuthorizationRequests[^1].ChangedFiles);
        Assert.True((await host.InspectAsync(fixture.Root)).FromCache, $"{changedFile}: the reloaded context is not reused.");
    }

    /// <summary>The loaded context's symbols (a lease would need authorization again: the imports are dynamic).</summary>
    private static async Task<IReadOnlyList<string>> PreprocessorSymbolsAsync(SemanticHost host)
    {
        SemanticContext context = Assert.Single(await host.Cache.GetContextsAsync());
        return [.. context.Solution.Projects.Single().ParseOptions!.PreprocessorSymbolNames];
    }
}
