using Microsoft.Data.Sqlite;
using SharpClaw.Protocol;
using SharpClaw.Protocol.Lifecycle;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Protocol.Store;
using SharpClaw.Server.Handlers;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Store;
using SharpClaw.Server.Tests.Infrastructure;

namespace SharpClaw.Server.Tests;

/// <summary>
/// The syntax-only store behind symbol_search and workspace_search (issue 17), over JSON-RPC on an in-memory
/// host with its own state folder: what is indexed (.gitignore, bin/obj), ranking and filters, incremental
/// refresh on the next query, open buffers, paging, a damaged/foreign/older store rebuilt, two hosts at once,
/// and no authorization asked nor project code run (the marker-writing fixture).
/// </summary>
public sealed class StoreSearchTests
{
    [Fact]
    public async Task SymbolSearch_IndexesOnlyTrackedCSharp_AndRanksExactPrefixHumpsSubstring()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("SyntaxIndexWorkspace");
        fixture.Write("bin/BinType.cs", "public class BinType { }\n");
        fixture.Write("src/obj/ObjType.cs", "public class ObjType { }\n");
        using TempDirectory state = new();
        await using SemanticHost host = await StartAsync(state.Path);

        SymbolSearchResult all = await host.SymbolSearchAsync(fixture.Root, "Type");
        Assert.Empty(all.Items);
        Assert.Equal(4, all.IndexedFiles); // Box.cs, Calculator.cs, FeatureManager.cs, Kept.cs: nothing ignored, nothing under bin/obj.
        Assert.Equal(4, all.ReindexedFiles);
        Assert.Contains((await host.SymbolSearchAsync(fixture.Root, "KeptHelper")).Items, i => i.Path == "src/Generated/Kept.cs");
        Assert.Empty((await host.SymbolSearchAsync(fixture.Root, "DroppedHelper")).Items);

        SymbolSearchResult add = await host.SymbolSearchAsync(fixture.Root, "Add");
        Assert.Equal(
            ["src/Calc/Calculator.cs:10:16 method Calculator.Add(int, int)", "src/Calc/Calculator.cs:16:19 method Calculator.Add(double, double)", "src/Calc/Calculator.cs:31:9 method ICalculator.Add(int, int)"],
            add.Items.Select(Line));
        Assert.Equal("Calc.Core.Calculator", add.Items[0].Container);
        Assert.Equal("public int Add(int a, int b)", add.Items[0].Signature);
        Assert.Equal(0, add.ReindexedFiles);

        // Exact before prefix before camel humps before substring; types before members within one quality.
        SymbolSearchResult count = await host.SymbolSearchAsync(fixture.Root, "countcalls");
        Assert.Equal(["property Calculator.CountCalls", "field Calculator.countCalls"], count.Items.Select(i => $"{i.Kind} {i.Name}"));
        Assert.Equal("struct FeatureManager", Short((await host.SymbolSearchAsync(fixture.Root, "FeMa")).Items[0]));
        Assert.Equal(["class Calculator", "interface ICalculator"], (await host.SymbolSearchAsync(fixture.Root, "Calculator")).Items.Where(i => i.Kind != "namespace").Select(Short));

        // Filters: kind, container (suffix at a dot), and a dotted query.
        Assert.Equal(["Calculator.Add(int, int)", "Calculator.Add(double, double)"], (await host.SymbolSearchAsync(fixture.Root, "Add", container: "Core.Calculator")).Items.Select(i => i.Name));
        Assert.Equal(["ICalculator.Add(int, int)"], (await host.SymbolSearchAsync(fixture.Root, "ICalculator.Add")).Items.Select(i => i.Name));
        Assert.Equal(["Calculator.Memory"], (await host.SymbolSearchAsync(fixture.Root, "Mem", kind: "record")).Items.Select(i => i.Name));
        Assert.Equal(["Calculator.Mode.Scientific"], (await host.SymbolSearchAsync(fixture.Root, "Scientific")).Items.Select(i => i.Name));
        Assert.Equal(["constructor FeatureManager.FeatureManager(int)"], (await host.SymbolSearchAsync(fixture.Root, "FeatureManager", container: "FeatureManager")).Items.Select(Short));
        Assert.Equal(["operator FeatureManager.operator +(FeatureManager, FeatureManager)"], (await host.SymbolSearchAsync(fixture.Root, "operator", kind: "operator")).Items.Select(Short));
        Assert.Equal(["property FeatureManager.this[]"], (await host.SymbolSearchAsync(fixture.Root, "this[]")).Items.Select(Short));
        Assert.Equal(["class Box<T>", "method Box<T>.Map<TOut>(Func<T, TOut>)"], (await host.SymbolSearchAsync(fixture.Root, "Box")).Items.Where(i => i.Kind != "property").Select(Short).Concat((await host.SymbolSearchAsync(fixture.Root, "Map")).Items.Select(Short)));
        Assert.Equal(["delegate FeatureChanged(string)"], (await host.SymbolSearchAsync(fixture.Root, "FeatureChanged")).Items.Select(Short));

        // Paging.
        SymbolSearchResult page = await host.SymbolSearchAsync(fixture.Root, "Add", offset: 1, limit: 1);
        Assert.Equal((3, true, 2), (page.Total, page.Truncated, page.NextOffset ?? -1));
        Assert.Equal("Calculator.Add(double, double)", page.Items.Single().Name);

        SemanticErrorData badKind = await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => host.SymbolSearchAsync(fixture.Root, "Add", kind: "klass"));
        Assert.Contains("klass", badKind.Message, StringComparison.Ordinal);
        await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => host.SymbolSearchAsync("relative/path", "Add"));
        await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => host.SymbolSearchAsync(fixture.Root, " "));
        await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => host.SymbolSearchAsync(fixture.Root, "Add", limit: 201));
        Assert.Empty(Directory.EnumerateFiles(fixture.Root, "*.db", SearchOption.AllDirectories));
    }

    /// <summary>
    /// A long-lived host re-checks the workspace with one stat per known folder and file and lists again only the
    /// folders whose time moved; after every kind of change — a file added (also in a folder changed moments ago,
    /// and in one unchanged for longer than the racy window), a nested folder added, a folder deleted, a file
    /// renamed and edited, a .gitignore that starts and stops ignoring a folder — it sees exactly what a new host's
    /// full walk sees.
    /// </summary>
    [Fact]
    public async Task IncrementalTree_SeesWhatAFullWalkSees_AfterEveryKindOfChange()
    {
        using TempDirectory workspace = new();
        void Write(string relative, string type)
        {
            string path = Path.Combine(workspace.Path, relative);
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            File.WriteAllText(path, $"namespace Tree;\n\npublic class {type} {{ }} // TreeMarker\n");
        }

        Write("src/A.cs", "A");
        Write("src/deep/B.cs", "B");
        Write("gen/G.cs", "G");
        Write("old/O.cs", "O");
        using TempDirectory state = new();
        await using SemanticHost longLived = await StartAsync(state.Path);

        async Task SameAsFullWalkAsync(string step)
        {
            WorkspaceSearchResult warm = await longLived.WorkspaceSearchAsync(workspace.Path, "TreeMarker", limit: 200);
            await using SemanticHost fresh = await StartAsync(state.Path);
            WorkspaceSearchResult full = await fresh.WorkspaceSearchAsync(workspace.Path, "TreeMarker", limit: 200);
            Assert.True(
                full.Matches.Select(m => m.Path).SequenceEqual(warm.Matches.Select(m => m.Path)) && full.IndexedFiles == warm.IndexedFiles,
                $"{step}: full walk [{string.Join(", ", full.Matches.Select(m => m.Path))}] ({full.IndexedFiles}), incremental [{string.Join(", ", warm.Matches.Select(m => m.Path))}] ({warm.IndexedFiles})");
        }

        await SameAsFullWalkAsync("initial");
        Write("src/A2.cs", "A2");
        await SameAsFullWalkAsync("a file added to a folder changed moments ago");
        Write("src/new/nested/N.cs", "N");
        await SameAsFullWalkAsync("a nested folder added");
        Directory.Delete(Path.Combine(workspace.Path, "src/deep"), recursive: true);
        await SameAsFullWalkAsync("a folder deleted");
        File.Move(Path.Combine(workspace.Path, "src/A.cs"), Path.Combine(workspace.Path, "src/Renamed.cs"));
        await SameAsFullWalkAsync("a file renamed");
        File.WriteAllText(Path.Combine(workspace.Path, ".gitignore"), "gen/\n");
        await SameAsFullWalkAsync("a .gitignore that ignores a folder");
        Assert.DoesNotContain((await longLived.WorkspaceSearchAsync(workspace.Path, "TreeMarker", limit: 200)).Matches, m => m.Path.StartsWith("gen/", StringComparison.Ordinal));
        File.WriteAllText(Path.Combine(workspace.Path, ".gitignore"), "# nothing ignored\n");
        await SameAsFullWalkAsync("the .gitignore no longer ignores it");

        // "old" was listed long enough ago that its time is trusted: a new file there still moves its time.
        await Task.Delay(TimeSpan.FromSeconds(2.5));
        await SameAsFullWalkAsync("after the racy window");
        Write("old/O2.cs", "O2");
        await SameAsFullWalkAsync("a file added to a folder unchanged for longer than the racy window");
        Assert.Contains((await longLived.WorkspaceSearchAsync(workspace.Path, "TreeMarker", limit: 200)).Matches, m => m.Path == "old/O2.cs");
        File.WriteAllText(Path.Combine(workspace.Path, "old/O.cs"), "namespace Tree;\n\npublic class Edited { } // TreeMarker\n");
        Assert.Single((await longLived.SymbolSearchAsync(workspace.Path, "Edited")).Items);
    }

    [Fact]
    public async Task NextQuery_SeesChangedAddedDeletedFiles_AndOpenBuffers_WithoutWatchers()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("SyntaxIndexWorkspace");
        using TempDirectory state = new();
        await using SemanticHost host = await StartAsync(state.Path);
        Assert.Equal(4, (await host.SymbolSearchAsync(fixture.Root, "Add")).ReindexedFiles);

        fixture.Edit("src/Calc/Calculator.cs", t => t.Replace("public int Add(int a, int b)", "public int Sum(int a, int b)", StringComparison.Ordinal));
        fixture.Write("src/Calc/Extra.cs", "namespace Calc.Core;\n\npublic static class AddedLater\n{\n}\n");
        fixture.DeleteFile("src/Generated/Kept.cs");
        SymbolSearchResult after = await host.SymbolSearchAsync(fixture.Root, "Sum");
        Assert.Equal((2, 4), (after.ReindexedFiles, after.IndexedFiles));
        Assert.Equal(["Calculator.Sum(int, int)"], after.Items.Select(i => i.Name));
        Assert.Single((await host.SymbolSearchAsync(fixture.Root, "AddedLater")).Items);
        Assert.Empty((await host.SymbolSearchAsync(fixture.Root, "KeptHelper")).Items);

        // A touched file with the same content is not re-parsed.
        fixture.Edit("src/Calc/Extra.cs", t => t);
        Assert.Equal(0, (await host.SymbolSearchAsync(fixture.Root, "AddedLater")).ReindexedFiles);

        // An open buffer is indexed from its text (unsaved), and the disk counts again once it closes.
        string uri = new Uri(fixture.Path("src/Calc/Extra.cs")).AbsoluteUri;
        await host.Host.Client.NotifyWithParameterObjectAsync(ProtocolMethods.DidOpenTextDocument, new DidOpenTextDocumentParams(new TextDocumentItem(uri, "csharp", 1, "public class UnsavedBuffer { }\n")));
        Assert.True(await Poll.UntilAsync(() => host.Cache.OpenDocuments.Snapshot.Documents.Count == 1, SemanticHost.Timeout));
        Assert.Equal(["src/Calc/Extra.cs:1:14 class UnsavedBuffer"], (await host.SymbolSearchAsync(fixture.Root, "UnsavedBuffer")).Items.Select(Line));
        Assert.Single((await host.WorkspaceSearchAsync(fixture.Root, "UnsavedBuffer")).Matches);
        Assert.Empty((await host.SymbolSearchAsync(fixture.Root, "AddedLater")).Items);
        await host.Host.Client.NotifyWithParameterObjectAsync(ProtocolMethods.DidCloseTextDocument, new DidCloseTextDocumentParams(new TextDocumentIdentifier(uri)));
        Assert.True(await Poll.UntilAsync(() => host.Cache.OpenDocuments.Snapshot.Documents.Count == 0, SemanticHost.Timeout));
        Assert.Single((await host.SymbolSearchAsync(fixture.Root, "AddedLater")).Items);
        Assert.Empty((await host.SymbolSearchAsync(fixture.Root, "UnsavedBuffer")).Items);
    }

    [Fact]
    public async Task WorkspaceSearch_TextRegexCaseGlobsAndPaging()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("SyntaxIndexWorkspace");
        using TempDirectory state = new();
        await using SemanticHost host = await StartAsync(state.Path);

        WorkspaceSearchResult add = await host.WorkspaceSearchAsync(fixture.Root, "add");
        Assert.Equal(
            ["src/Calc/Calculator.cs:3:14 /// <summary>Adds and counts.</summary>", "src/Calc/Calculator.cs:10:16 public int Add(int a, int b)", "src/Calc/Calculator.cs:16:19 public double Add(double a, double b) => a + b;", "src/Calc/Calculator.cs:31:9 int Add(int a, int b);", "src/Calc/FeatureManager.cs:16:29 // TODO: remove the add helper once Calculator.Add covers it."],
            add.Matches.Select(m => $"{m.Path}:{m.Line}:{m.Character} {m.Text}"));
        Assert.Equal(2, add.Files);
        Assert.Equal(["src/Calc/FeatureManager.cs:16:29"], (await host.WorkspaceSearchAsync(fixture.Root, "add", caseSensitive: true)).Matches.Select(m => $"{m.Path}:{m.Line}:{m.Character}"));
        Assert.Equal(3, (await host.WorkspaceSearchAsync(fixture.Root, @"Add\(\w+ a", regex: true)).Total);
        Assert.Equal(4, (await host.WorkspaceSearchAsync(fixture.Root, "a,")).Total); // Shorter than a trigram: a scan.
        Assert.Single((await host.WorkspaceSearchAsync(fixture.Root, "add", paths: ["FeatureManager.cs"])).Matches);
        Assert.Equal(4, (await host.WorkspaceSearchAsync(fixture.Root, "add", paths: ["src/Calc/Calc*.cs"])).Total);
        Assert.Empty((await host.WorkspaceSearchAsync(fixture.Root, "IgnoredType")).Matches);
        Assert.Empty((await host.WorkspaceSearchAsync(fixture.Root, "never indexed")).Matches); // notes.txt is not C#.

        WorkspaceSearchResult page = await host.WorkspaceSearchAsync(fixture.Root, "add", offset: 3, limit: 2);
        Assert.Equal((5, false, 2), (page.Total, page.Truncated, page.Matches.Count));
        SemanticErrorData bad = await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => host.WorkspaceSearchAsync(fixture.Root, "(", regex: true));
        Assert.Contains("regular expression", bad.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task WorkspaceSearch_Literal_MatchesExactly_WhenTheIndexOnlyNamesCandidates()
    {
        // The trigram index keeps no positions: a file holding every trigram of the literal but not the literal
        // itself is a candidate the exact match must drop; quotes and non-ASCII literals reach FTS5 as terms.
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("SyntaxIndexWorkspace");
        fixture.Write("src/Calc/Scrambled.cs", "namespace Calc;\n\n// abcd bcde: every trigram of the five letters, never the word.\npublic static class Scrambled { }\n");
        fixture.Write("src/Calc/Words.cs", "namespace Calc;\n\npublic static class Words\n{\n    public const string Quote = \"say \\\"abcde\\\" twice\";\n    public const string Greek = \"Καλημέρα κόσμε\";\n}\n");
        using TempDirectory state = new();
        await using SemanticHost host = await StartAsync(state.Path);

        Assert.Equal(["src/Calc/Words.cs:5:40"], (await host.WorkspaceSearchAsync(fixture.Root, "abcde")).Matches.Select(m => $"{m.Path}:{m.Line}:{m.Character}"));
        Assert.Equal(["src/Calc/Words.cs:5:38"], (await host.WorkspaceSearchAsync(fixture.Root, "\\\"abcde\\\"")).Matches.Select(m => $"{m.Path}:{m.Line}:{m.Character}"));
        Assert.Equal(["src/Calc/Words.cs:6:34"], (await host.WorkspaceSearchAsync(fixture.Root, "ΚΑΛΗΜΈΡΑ")).Matches.Select(m => $"{m.Path}:{m.Line}:{m.Character}"));
        Assert.Empty((await host.WorkspaceSearchAsync(fixture.Root, "ΚΑΛΗΜΈΡΑ", caseSensitive: true)).Matches);
        Assert.Single((await host.WorkspaceSearchAsync(fixture.Root, "abcd bcde")).Matches);
    }

    [Fact]
    public async Task WorkspaceSearch_LongLine_ShowsAWindowHoldingTheMatch()
    {
        // fixtures/StoreLongAnswers: generated lines of 270 characters whose key sits past the 200th; a line of
        // surrogate pairs is cut on whole characters.
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("StoreLongAnswers");
        string emoji = string.Concat(Enumerable.Repeat("\U0001F600", 150));
        fixture.Write("src/Wide.cs", $"// {emoji}aneedleb{emoji}\n// short needle line\n"); // Both cuts fall inside a pair.
        using TempDirectory state = new();
        await using SemanticHost host = await StartAsync(state.Path);

        WorkspaceSearchMatch key = (await host.WorkspaceSearchAsync(fixture.Root, "LookupKey07")).Matches.Single();
        Assert.Equal(("src/Generated/Messages.cs", 13), (key.Path, key.Line));
        Assert.StartsWith("…", key.Text, StringComparison.Ordinal);
        Assert.EndsWith("(see LookupKey07 for the key that names it)\";", key.Text, StringComparison.Ordinal);
        Assert.Equal(201, key.Text.Length);

        WorkspaceSearchMatch start = (await host.WorkspaceSearchAsync(fixture.Root, "Message07 =")).Matches.Single();
        Assert.StartsWith("public const string Message07 = \"The requested operation", start.Text, StringComparison.Ordinal);
        Assert.EndsWith("…", start.Text, StringComparison.Ordinal);

        WorkspaceSearchMatch[] wide = [.. (await host.WorkspaceSearchAsync(fixture.Root, "needle")).Matches];
        Assert.Matches("^…(\U0001F600){10,}aneedleb(\U0001F600){10,}…$", wide[0].Text); // Whole pairs only: half of one would be U+FFFD.
        Assert.True(wide[0].Text.Length <= 202);
        Assert.Equal("// short needle line", wide[1].Text);
    }

    [Fact]
    public async Task Searches_AskNoApproval_AndRunNoProjectCode()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("DesignTimeMarker");
        using TempDirectory state = new();
        await using SemanticHost host = await StartAsync(state.Path);
        host.Client.DenyAll("no approval in this test");

        Assert.Equal(["App/Greeter.cs"], (await host.SymbolSearchAsync(fixture.Root, "Greeter")).Items.Where(i => i.Kind == "class").Select(i => i.Path));
        Assert.NotEmpty((await host.WorkspaceSearchAsync(fixture.Root, "Greeter")).Matches);

        Assert.Empty(host.Client.AuthorizationRequests);
        Assert.Empty(host.Client.WriteRequests);
        Assert.Equal(0, fixture.MarkerLines("App/marker.txt"));
        Assert.Equal(0, fixture.MarkerLines("App/initial-marker.txt"));

        // The compiler-backed tools still refuse without approval: the store did not load anything for them.
        await SemanticErrors.ExpectAsync(SemanticErrorKind.PermissionDenied, () => host.InspectAsync(fixture.Root));
        Assert.Equal(0, fixture.MarkerLines("App/initial-marker.txt"));
    }

    [Theory]
    [InlineData("garbage")]
    [InlineData("foreign")]
    [InlineData("older-schema")]
    public async Task DamagedForeignOrOlderStore_IsDiscardedWithALogLine_AndRebuilt(string damage)
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("SyntaxIndexWorkspace");
        using TempDirectory state = new();
        string database = Path.Combine(StateFolder.ForWorkspace(fixture.Root, StateFolder.Root(state.Path)), StoreDatabase.FileName);
        switch (damage)
        {
            case "garbage":
                File.WriteAllText(database, "this is not a SQLite database, just some bytes that happen to sit where the store belongs\n");
                break;
            case "foreign":
                // A store of another workspace (copied over): its recorded workspace differs.
                using (FixtureWorkspace other = FixtureWorkspace.Copy("SyntaxIndexWorkspace"))
                {
                    using TempDirectory otherState = new();
                    await using (SemanticHost first = await StartAsync(otherState.Path))
                    {
                        await first.SymbolSearchAsync(other.Root, "Add");
                    }

                    SqliteConnection.ClearAllPools();
                    File.Copy(Path.Combine(StateFolder.ForWorkspace(other.Root, StateFolder.Root(otherState.Path)), StoreDatabase.FileName), database);
                }

                break;
            default:
                using (SqliteConnection connection = new($"Data Source={database}"))
                {
                    connection.Open();
                    using SqliteCommand command = connection.CreateCommand();
                    command.CommandText = "CREATE TABLE files(path TEXT); PRAGMA user_version = 0; PRAGMA application_id = 1396927607;";
                    command.ExecuteNonQuery();
                }

                SqliteConnection.ClearAllPools();
                break;
        }

        await using SemanticHost host = await StartAsync(state.Path);
        SymbolSearchResult result = await host.SymbolSearchAsync(fixture.Root, "Add");
        Assert.Equal(3, result.Total);
        Assert.Contains($"Store {database} discarded and rebuilt", host.Host.LogText, StringComparison.Ordinal);
    }

    [Fact]
    public async Task SymbolSearch_PagesOfAQueryMatchingMany_ConcatenateToItsFullRanking()
    {
        // Only offset+limit candidates are kept while scanning: every page must still be its slice of the one ranking.
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("SyntaxIndexWorkspace");
        WriteMany(fixture, 60, i => ($"src/Many/File{i}.cs", $"namespace Many;\n\npublic class Gen{new string('x', i % 7)}Value{i}\n{{\n    public int GenValue{i} => {i};\n}}\n"));

        using TempDirectory state = new();
        await using SemanticHost host = await StartAsync(state.Path);
        SymbolSearchResult all = await host.SymbolSearchAsync(fixture.Root, "GenV", limit: 200);
        Assert.Equal(120, all.Total);
        List<string> paged = [];
        for (int offset = 0; offset < all.Total; offset += 7)
        {
            SymbolSearchResult page = await host.SymbolSearchAsync(fixture.Root, "GenV", offset: offset, limit: 7);
            Assert.Equal(all.Total, page.Total);
            paged.AddRange(page.Items.Select(i => $"{i.Path}:{i.Line}:{i.Name}"));
        }

        Assert.Equal(all.Items.Select(i => $"{i.Path}:{i.Line}:{i.Name}"), paged);
        Assert.StartsWith("GenValue", all.Items[0].Name, StringComparison.Ordinal); // prefix before camel humps
    }

    [Fact]
    public async Task SymbolSearch_OverAnIndexSearchedInSlices_RanksAsOne()
    {
        // More than 250,000 declarations: the index is searched in slices on every core, each keeping its own best.
        // The exact matches sit in the first, a middle and the last file; pages must still be slices of one ranking.
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("SyntaxIndexWorkspace");
        const int Files = 100;
        const int Members = 2_520;
        foreach (int i in Enumerable.Range(0, Files))
        {
            System.Text.StringBuilder text = new($"namespace Many;\n\npublic class Big{i}\n{{\n");
            if (i is 0 or 57 or Files - 1)
            {
                text.Append("    public int GenValue() => 0;\n");
            }

            foreach (int m in Enumerable.Range(0, Members))
            {
                text.Append(System.Globalization.CultureInfo.InvariantCulture, $"    public int GenValue{(m * 7919 % Members) + (i * 10_000)}() => 0;\n");
            }

            fixture.Write($"src/Many/File{i:D3}.cs", text.Append("}\n").ToString());
        }

        using TempDirectory state = new();
        await using SemanticHost host = await StartAsync(state.Path);
        SymbolSearchResult all = await host.SymbolSearchAsync(fixture.Root, "GenValue", limit: 200);
        Assert.Equal(3 + (Files * Members), all.Total);
        Assert.Equal(["src/Many/File000.cs:5", "src/Many/File057.cs:5", "src/Many/File099.cs:5"], all.Items.Take(3).Select(i => $"{i.Path}:{i.Line}"));

        // Then prefix matches, shortest names first, then by path and line: GenValue0 .. GenValue9, GenValue10 ..
        List<SymbolSearchItem> prefix = [.. all.Items.Skip(3)];
        Assert.All(prefix.Zip(prefix.Skip(1)), pair => Assert.True(
            pair.First.Name.Length < pair.Second.Name.Length || (pair.First.Name.Length == pair.Second.Name.Length && string.CompareOrdinal($"{pair.First.Path}:{pair.First.Line:D5}", $"{pair.Second.Path}:{pair.Second.Line:D5}") < 0),
            $"{pair.First.Name} ({pair.First.Path}:{pair.First.Line}) ranked before {pair.Second.Name} ({pair.Second.Path}:{pair.Second.Line})"));
        Assert.Equal("Big0.GenValue0()", prefix[0].Name);

        List<string> paged = [];
        for (int offset = 0; offset < 200; offset += 37)
        {
            SymbolSearchResult page = await host.SymbolSearchAsync(fixture.Root, "GenValue", offset: offset, limit: Math.Min(37, 200 - offset));
            Assert.Equal(all.Total, page.Total);
            paged.AddRange(page.Items.Select(i => $"{i.Path}:{i.Line}:{i.Name}"));
        }

        Assert.Equal(all.Items.Select(i => $"{i.Path}:{i.Line}:{i.Name}"), paged);
    }

    /// <summary>
    /// A long-lived host changes its name table file by file (block copies of the unchanged files into the table
    /// before it); a new host builds its table from the store in one pass. After every kind of change, at the start,
    /// middle and end of the path order and several at once, both must rank every query the same.
    /// </summary>
    [Fact]
    public async Task SymbolSearch_AfterFilesChangeOneByOne_RanksAsAHostReadingTheStoreAnew()
    {
        using TempDirectory workspace = new();
        void Write(string relative, params string[] members)
        {
            string path = Path.Combine(workspace.Path, relative);
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            string type = Path.GetFileNameWithoutExtension(relative);
            File.WriteAllText(path, $"namespace Table;\n\npublic class {type}Tab\n{{\n{string.Concat(members.Select(m => $"    public int {m}() => 0;\n"))}}}\n");
        }

        foreach (int i in Enumerable.Range(0, 12))
        {
            Write($"src/F{i:D2}.cs", [.. Enumerable.Range(0, 3 + (i % 4)).Select(m => $"TabMember{i}x{m}")]);
        }

        using TempDirectory state = new();
        await using SemanticHost longLived = await StartAsync(state.Path);
        (string Query, string? Kind)[] queries = [("Tab", null), ("TaMe", null), ("Tab", "method"), ("F07Tab.TabMember", null), ("abMem", "method")];

        async Task SameAsANewHostAsync(string step)
        {
            await using SemanticHost fresh = await StartAsync(state.Path);
            foreach ((string query, string? kind) in queries)
            {
                SymbolSearchResult warm = await longLived.SymbolSearchAsync(workspace.Path, query, kind: kind, limit: 200);
                SymbolSearchResult anew = await fresh.SymbolSearchAsync(workspace.Path, query, kind: kind, limit: 200);
                Assert.True(
                    warm.Total == anew.Total && warm.Items.Select(Line).SequenceEqual(anew.Items.Select(Line)),
                    $"{step}, '{query}' ({kind}): changed table {warm.Total} [{string.Join("; ", warm.Items.Select(Line))}], new table {anew.Total} [{string.Join("; ", anew.Items.Select(Line))}]");
            }
        }

        await SameAsANewHostAsync("initial");
        Write("src/F05.cs", [.. Enumerable.Range(0, 9).Select(m => $"TabMemberGrown{m}")]);
        await SameAsANewHostAsync("a middle file grew");
        Write("src/F07.cs", "TabMember7x0");
        await SameAsANewHostAsync("a middle file shrank");
        File.Delete(Path.Combine(workspace.Path, "src/F00.cs"));
        await SameAsANewHostAsync("the first file deleted");
        Write("src/0First.cs", "TabMemberFirst");
        await SameAsANewHostAsync("a file added first in path order");
        Write("src/zz/Last.cs", "TabMemberLast", "TabMemberLast2");
        await SameAsANewHostAsync("a file added last in path order");
        Write("src/F03.cs");
        await SameAsANewHostAsync("a file left with its class only");
        File.Delete(Path.Combine(workspace.Path, "src/zz/Last.cs"));
        Write("src/F01.cs", "TabMemberA", "TabMemberB");
        Write("src/F10.cs", [.. Enumerable.Range(0, 20).Select(m => $"TabMemberMany{m}")]);
        Write("src/F06b.cs", "TabMemberBetween");
        await SameAsANewHostAsync("four changes in one refresh");
        Assert.Equal(
            ["src/F06b.cs:5:16 method F06bTab.TabMemberBetween()"],
            (await longLived.SymbolSearchAsync(workspace.Path, "TabMemberBetween")).Items.Select(Line));
    }

    /// <summary>
    /// Past 4,096 checked paths the freshness check runs on kept helper threads, each pinned to another core than
    /// its caller's (Linux). Changes anywhere in the list (its first and last files, one in the middle, one deleted)
    /// must be seen by the next query, and no thread but those helpers may be pinned (the pool's threads run everything else).
    /// </summary>
    [Fact]
    public async Task FreshnessCheckOfALargeWorkspace_SeesEveryChange_AndPinsOnlyItsHelpers()
    {
        using TempDirectory workspace = new();
        const int Files = 4_400;
        string FilePath(int i) => Path.Combine(workspace.Path, $"src/Part{i / 100:D2}/Unit{i:D4}.cs");
        for (int i = 0; i < Files; i++)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(FilePath(i))!);
            File.WriteAllText(FilePath(i), $"namespace Large;\n\npublic class Unit{i:D4} {{ }}\n");
        }

        using TempDirectory state = new();
        await using SemanticHost host = await StartAsync(state.Path);
        Assert.Equal(Files, (await host.SymbolSearchAsync(workspace.Path, "Unit0001")).IndexedFiles);
        foreach (int i in new[] { 0, 2_222, Files - 1 })
        {
            File.WriteAllText(FilePath(i), $"namespace Large;\n\npublic class Changed{i} {{ }}\n");
        }

        File.Delete(FilePath(1_000));
        SymbolSearchResult after = await host.SymbolSearchAsync(workspace.Path, "Changed");
        Assert.Equal((Files - 1, 3), (after.IndexedFiles, after.ReindexedFiles));
        Assert.Equal(["Changed0", "Changed2222", "Changed4399"], after.Items.Select(item => item.Name).Order(StringComparer.Ordinal));
        Assert.Equal(0, (await host.SymbolSearchAsync(workspace.Path, "Unit1000")).Total);

        // Two checks at once in one process: one has the kept helpers, the other the thread pool; both see the change.
        await using SemanticHost second = await StartAsync(state.Path);
        Assert.Equal(Files - 1, (await second.SymbolSearchAsync(workspace.Path, "Unit0001")).IndexedFiles);
        File.WriteAllText(FilePath(3_333), "namespace Large;\n\npublic class Changed3333 { }\n");
        for (int round = 0; round < 5; round++)
        {
            SymbolSearchResult[] both = await Task.WhenAll(host.SymbolSearchAsync(workspace.Path, "Changed3333"), second.SymbolSearchAsync(workspace.Path, "Changed3333"));
            Assert.All(both, result => Assert.Equal(1, result.Total));
        }

        if (OperatingSystem.IsLinux())
        {
            // Every other thread of this process (the in-memory host's included) may run where the process may.
            string? Read(string file) => File.Exists(file) ? File.ReadAllText(file) : null;
            string Allowed(string status) => status.Split('\n').Single(line => line.StartsWith("Cpus_allowed_list:", StringComparison.Ordinal));
            string process = Allowed(Read("/proc/self/status")!);
            List<(string Name, string Allowed)> threads = [.. Directory.EnumerateDirectories("/proc/self/task")
                .Select(task => (Name: Read(Path.Combine(task, "comm"))?.Trim(), Status: Read(Path.Combine(task, "status"))))
                .Where(t => t.Name is not null && t.Status is not null)
                .Select(t => (t.Name!, Allowed(t.Status!)))];
            Assert.Contains(threads, t => t.Name == "SharpClaw stat");
            List<string> pinned = [.. threads.Where(t => t.Name != "SharpClaw stat" && t.Allowed != process).Select(t => $"{t.Name}: {t.Allowed}")];
            Assert.True(pinned.Count == 0, $"threads pinned besides the stat helpers (process: {process}): {string.Join("; ", pinned)}");
        }
    }

    [Fact]
    public async Task LargeIndexBuild_ReportsProgress_ASmallRefreshDoesNot()
    {
        // A first index of hundreds of files takes seconds to minutes: the host reports it as loadProgress of kind
        // index (each file parsed, then stored), which every surface shows and an MCP call answers with when it
        // outlasts its wait. A refresh of one file reports nothing.
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("SyntaxIndexWorkspace");
        const int Files = 600;
        WriteMany(fixture, Files, i => ($"src/Many/File{i:D3}.cs", $"namespace Many;\n\npublic class Generated{i}\n{{\n    public int Value{i} => {i};\n}}\n"));

        using TempDirectory state = new();
        await using SemanticHost host = await StartAsync(state.Path);
        Assert.Equal(Files + 4, (await host.SymbolSearchAsync(fixture.Root, "Generated599")).ReindexedFiles);
        int steps = 2 * (Files + 4);
        Assert.True(await Poll.UntilAsync(() => host.Client.Progress.Any(p => p.ProjectIndex == steps), TimeSpan.FromSeconds(10)), "no final progress step");
        IReadOnlyList<LoadProgressParams> progress = host.Client.Progress;
        string target = "syntax index of " + Path.GetFileName(fixture.Root);
        Assert.All(progress, p => Assert.Equal((ProgressKind.Index, target, steps), (p.Kind, p.Target, p.ProjectCount)));
        Assert.Equal((0, 0, $"{Files + 4} files to parse"), (progress[0].ProjectIndex, progress[0].Percent ?? -1, progress[0].CurrentProject));
        Assert.Equal(100, progress[^1].Percent);
        Assert.True(progress.Count is > 50 and <= 101, $"{progress.Count} steps: one per percent moved");
        Assert.Equal(progress.Select(p => p.Percent ?? -1).Order(), progress.Select(p => p.Percent ?? -1));
        Assert.Contains(progress, p => p.CurrentProject.StartsWith("parsed src/", StringComparison.Ordinal));
        Assert.StartsWith("stored src/", progress[^1].CurrentProject, StringComparison.Ordinal);

        fixture.Edit("src/Many/File007.cs", t => t.Replace("Generated7", "Renamed7", StringComparison.Ordinal));
        Assert.Equal(1, (await host.SymbolSearchAsync(fixture.Root, "Renamed7")).ReindexedFiles);
        Assert.Equal(progress.Count, host.Client.Progress.Count);
    }

    [Fact]
    public async Task WorkspaceSearch_PagesOfAQueryMatchingMany_ConcatenateToItsFullOrder()
    {
        // Only offset+limit matches are kept while scanning, and rows come in the store's order (an edited file's row
        // is written anew, after the others): every page must still be its slice of the path, line, column order.
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("SyntaxIndexWorkspace");
        WriteMany(fixture, 60, i => ($"src/Many/File{i}.cs", $"namespace Many;\n\n// needle {i} needle\npublic class Holder{i}\n{{\n    public string Needle => \"needle\";\n    // needle\n}}\n"));

        using TempDirectory state = new();
        await using SemanticHost host = await StartAsync(state.Path);
        Assert.Equal(180, (await host.WorkspaceSearchAsync(fixture.Root, "needle", caseSensitive: true, limit: 1)).Total);
        foreach (int i in new[] { 0, 5, 17 })
        {
            fixture.Edit($"src/Many/File{i}.cs", t => t.Replace("// needle\n}", "// needle again\n}", StringComparison.Ordinal));
        }

        WorkspaceSearchResult all = await host.WorkspaceSearchAsync(fixture.Root, "needle", caseSensitive: true, limit: 200);
        Assert.Equal((180, 60, false), (all.Total, all.Files, all.Truncated));
        List<string> expected = [.. Enumerable.Range(0, 60).Select(i => $"src/Many/File{i}.cs").Order(StringComparer.Ordinal).SelectMany(path => new[] { $"{path}:3:4", $"{path}:6:30", $"{path}:7:8" })];
        Assert.Equal(expected, all.Matches.Select(m => $"{m.Path}:{m.Line}:{m.Character}"));
        Assert.Equal("// needle again", all.Matches.Single(m => m.Path == "src/Many/File17.cs" && m.Line == 7).Text);

        List<string> paged = [];
        for (int offset = 0; offset < all.Total; offset += 7)
        {
            WorkspaceSearchResult page = await host.WorkspaceSearchAsync(fixture.Root, "needle", caseSensitive: true, offset: offset, limit: 7);
            Assert.Equal((180, 60), (page.Total, page.Files));
            Assert.Equal(offset + 7 < 180, page.Truncated);
            paged.AddRange(page.Matches.Select(m => $"{m.Path}:{m.Line}:{m.Character}"));
        }

        Assert.Equal(expected, paged);
        Assert.Empty((await host.WorkspaceSearchAsync(fixture.Root, "needle", caseSensitive: true, offset: 180)).Matches);

        // A regular expression scans every file (one thread reads the store while another matches): the same order.
        WorkspaceSearchResult scanned = await host.WorkspaceSearchAsync(fixture.Root, "need(le)", regex: true, caseSensitive: true, offset: 11, limit: 50);
        Assert.Equal((180, 60, true), (scanned.Total, scanned.Files, scanned.Truncated));
        Assert.Equal(expected.Skip(11).Take(50), scanned.Matches.Select(m => $"{m.Path}:{m.Line}:{m.Character}"));

        // A pattern that backtracks past the time limit on one file: the search starts again on the linear-time
        // engine and answers as the pattern says (one line ends in a's; the 40 a's before a b do not).
        fixture.Write("src/Many/Zz.cs", "// " + new string('a', 40) + "b\n// xaaa\n");
        WorkspaceSearchResult linear = await host.WorkspaceSearchAsync(fixture.Root, "(a+)+$", regex: true, caseSensitive: true);
        Assert.Equal(["src/Many/Zz.cs:2:5"], linear.Matches.Select(m => $"{m.Path}:{m.Line}:{m.Character}"));

        // One that only the backtracking engine can run (a backreference) fails the whole search with a typed error.
        SemanticErrorData slow = await SemanticErrors.ExpectAsync(SemanticErrorKind.InvalidRequest, () => host.WorkspaceSearchAsync(fixture.Root, "(a+)+\\1$", regex: true));
        Assert.Contains("took too long on src/Many/Zz.cs", slow.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task TwoHostsOnOneWorkspace_ShareTheStore()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("SyntaxIndexWorkspace");
        WriteMany(fixture, 40, i => ($"src/Many/File{i}.cs", $"namespace Many;\n\npublic class Generated{i}\n{{\n    public int Value{i} => {i};\n}}\n"));

        using TempDirectory state = new();
        await using SemanticHost first = await StartAsync(state.Path);
        await using SemanticHost second = await StartAsync(state.Path);
        Task<SymbolSearchResult>[] both = [.. Enumerable.Range(0, 6).Select(i => (i % 2 == 0 ? first : second).SymbolSearchAsync(fixture.Root, "Generated"))];
        SymbolSearchResult[] results = await Task.WhenAll(both);
        Assert.All(results, r => Assert.Equal(41, r.Total)); // 40 classes and the namespace Calc.Generated.
        Assert.All(results, r => Assert.Equal(44, r.IndexedFiles));
        fixture.Edit("src/Many/File3.cs", t => t.Replace("Generated3", "Renamed3", StringComparison.Ordinal));
        Assert.Equal(40, (await second.SymbolSearchAsync(fixture.Root, "Generated")).Total);
        Assert.Single((await first.SymbolSearchAsync(fixture.Root, "Renamed3")).Items);
    }

    [Fact]
    public async Task ClearStore_DeletesTheFile_AndEveryHostRebuildsOnItsNextSearch()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("SyntaxIndexWorkspace");
        using TempDirectory state = new();
        await using SemanticHost first = await StartAsync(state.Path);
        await using SemanticHost second = await StartAsync(state.Path);
        Assert.Equal(4, (await first.SymbolSearchAsync(fixture.Root, "Add")).ReindexedFiles);

        ClearStoreResult cleared = await second.Host.Client.InvokeWithParameterObjectAsync<ClearStoreResult>(ProtocolMethods.ClearStore, new ClearStoreParams { Workspace = fixture.Root });
        Assert.True(cleared.Deleted);
        Assert.True(cleared.Bytes > 0);
        Assert.False(File.Exists(cleared.Path));
        Assert.Contains($"Store {cleared.Path} cleared", second.Host.LogText, StringComparison.Ordinal);

        // The host that still had it open notices the file is gone and builds a new one.
        SymbolSearchResult rebuilt = await first.SymbolSearchAsync(fixture.Root, "Add");
        Assert.Equal((4, 3), (rebuilt.ReindexedFiles, rebuilt.Total));
        Assert.True(File.Exists(cleared.Path));
        Assert.False((await second.Host.Client.InvokeWithParameterObjectAsync<ClearStoreResult>(ProtocolMethods.ClearStore, new ClearStoreParams { Workspace = fixture.Parent + "/missing" }).ContinueWith(t => t.IsCompletedSuccessfully, TaskScheduler.Default)));
    }

    /// <summary>
    /// The first index of a large workspace is one write transaction as large as the index. Found on dotnet/efcore:
    /// SQLite left a write-ahead log as large as the store beside it (129 MB beside 128 MB) until the next write,
    /// which a store that is only read never makes. A commit now truncates a log past the limit; a bulk parse also
    /// hands its memory back (the log line says so).
    /// </summary>
    [Fact]
    public async Task FirstIndexOfALargeWorkspace_LeavesNoLargeWriteAheadLog()
    {
        using FixtureWorkspace fixture = FixtureWorkspace.Copy("SyntaxIndexWorkspace");
        const int Files = 400;
        for (int i = 0; i < Files; i++)
        {
            System.Text.StringBuilder text = new($"namespace Bulk.Area{i % 7};\n\npublic static class Bulk{i}\n{{\n");
            for (int m = 0; m < 120; m++)
            {
                text.Append(System.Globalization.CultureInfo.InvariantCulture, $"    public static string Member{i}x{m}() => \"{Convert.ToHexString(System.Security.Cryptography.SHA256.HashData(BitConverter.GetBytes((i * 1000) + m)))}\";\n");
            }

            fixture.Write($"src/Bulk/Bulk{i}.cs", text.Append("}\n").ToString());
        }

        using TempDirectory state = new();
        await using SemanticHost host = await StartAsync(state.Path);
        SymbolSearchResult built = await host.SymbolSearchAsync(fixture.Root, "Member17x42");
        Assert.Equal((Files + 4, Files + 4), (built.IndexedFiles, built.ReindexedFiles));
        Assert.Equal("src/Bulk/Bulk17.cs", built.Items.Single().Path);

        string store = Path.Combine(StateFolder.ForWorkspace(fixture.Root, StateFolder.Root(state.Path)), StoreDatabase.FileName);
        long storeBytes = new FileInfo(store).Length;
        long logBytes = File.Exists(store + "-wal") ? new FileInfo(store + "-wal").Length : 0;
        Assert.True(storeBytes > StoreDatabase.WriteAheadLogLimitBytes, $"the test needs an index larger than the log limit; the store is {storeBytes} bytes");
        Assert.True(logBytes <= StoreDatabase.WriteAheadLogLimitBytes, $"write-ahead log of {logBytes} bytes left beside a store of {storeBytes} bytes");
        Assert.Contains("memory of the parse released", host.Host.LogText, StringComparison.Ordinal);

        // Still answers, and a small change afterwards neither grows the log again nor collects.
        fixture.Edit("src/Bulk/Bulk17.cs", t => t.Replace("Member17x42", "Renamed17x42", StringComparison.Ordinal));
        Assert.Equal(1, (await host.SymbolSearchAsync(fixture.Root, "Renamed17x42")).Total);
        Assert.Single(System.Text.RegularExpressions.Regex.Matches(host.Host.LogText, "memory of the parse released"));
        string literal = Convert.ToHexString(System.Security.Cryptography.SHA256.HashData(BitConverter.GetBytes(17042)));
        Assert.Contains("Renamed17x42", (await host.WorkspaceSearchAsync(fixture.Root, literal)).Matches.Single().Text, StringComparison.Ordinal);
    }

    /// <summary>Writes <paramref name="count"/> generated files into the fixture: file i's path and text.</summary>
    private static void WriteMany(FixtureWorkspace fixture, int count, Func<int, (string Path, string Text)> file)
    {
        for (int i = 0; i < count; i++)
        {
            (string path, string text) = file(i);
            fixture.Write(path, text);
        }
    }

    private static Task<SemanticHost> StartAsync(string stateRoot) => SemanticHost.StartAsync(new HostServerOptions { StateRoot = stateRoot });

    private static string Line(SymbolSearchItem item) => $"{item.Path}:{item.Line}:{item.Character} {item.Kind} {item.Name}";

    private static string Short(SymbolSearchItem item) => $"{item.Kind} {item.Name}";
}
