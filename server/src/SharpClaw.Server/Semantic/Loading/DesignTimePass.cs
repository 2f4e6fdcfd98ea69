using System.Text.RegularExpressions;
using System.Xml.Linq;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Discovery;
using SharpClaw.Server.Semantic.Evaluation;
using ResultRow = System.Collections.Generic.IReadOnlyDictionary<string, string>;

namespace SharpClaw.Server.Semantic.Loading;

/// <summary>How the parallel design-time pass splits its work (tests lower the threshold to force several processes).</summary>
/// <param name="MaxProcesses">At most this many <c>dotnet msbuild</c> processes at once (also bounded by the processor count).</param>
/// <param name="MinWeightPerProcess">
/// A process starts MSBuild from nothing (about a second of JIT), so each must get this much work to be worth it:
/// <see cref="DesignTimePass.Weight"/> summed over its projects (40 is about a dozen single-framework projects
/// with a reference or two, or three multi-targeted libraries).
/// </param>
public sealed record DesignTimeLoadOptions(int MaxProcesses = 4, double MinWeightPerProcess = 40)
{
    public static DesignTimeLoadOptions Default { get; } = new();
}

/// <summary>The pass's projects in load order (and, when asked for, the evaluation it collected), or why Roslyn's own loader must do the load instead.</summary>
public sealed record DesignTimePassResult(IReadOnlyList<DesignTimeProject> Projects, EvaluationSnapshot? Evaluation, string? FallbackReason)
{
    public static DesignTimePassResult Fallback(string reason) => new([], null, reason);
}

/// <summary>
/// Runs the design-time builds Roslyn's build host runs — Compile and CoreCompile with DesignTimeBuild,
/// SkipCompilerExecution and ProvideCommandLineArgs, the same global properties — but in several
/// <c>dotnet msbuild</c> processes at once, each building a contiguous share of the projects (MSBuildWorkspace
/// builds them one after another in one build host: dotnet/roslyn#84115). A collector target, imported into
/// every project like the evaluation pass's, returns per flavour what Roslyn's ProjectInstanceReader reads.
/// Projects referenced but not listed are built in a further pass, as Roslyn discovers them. Asked to, the same
/// run also collects the evaluation (the evaluation pass's collector target, run on each project before its
/// design-time targets), so a cold load evaluates every project once instead of in a second MSBuild process.
/// Anything this pass cannot reproduce exactly — an MSBuild error, a project that is not an SDK-style
/// .csproj, a missing result — is returned as a fallback reason, and the caller loads with Roslyn's
/// MSBuildWorkspace, whose messages and partial-load rules then apply unchanged. The first error line any
/// process streams stops every process of the pass at once: what they would still build is thrown away
/// (on App-vNext/Polly, three projects whose restore failed with NU1102 made a 34 s pass run to its end first).
/// Runs only after the client authorized evaluation (it executes project targets, as Roslyn's load does).
/// </summary>
public static partial class DesignTimePass
{
    /// <summary>Imported into every project of the pass; written to a private folder per load and deleted afterwards.</summary>
    internal const string CollectorTargets = """
        <Project>
          <!-- Written by SharpClaw for one design-time load and deleted afterwards. It builds what Roslyn's
               build host builds (Compile, CoreCompile without running the compiler) and reads the results. -->
          <Import Project="$(MSBuildThisFileDirectory)SharpClaw.Collect.targets" />
          <Target Name="SharpClawDesignTime" Returns="@(SharpClawDesignTimeResult)">
            <ItemGroup Condition="'$(IsCrossTargetingBuild)' == 'true'">
              <_SharpClawDesignTimeFramework Include="$(TargetFrameworks)" />
            </ItemGroup>
            <MSBuild Condition="'@(_SharpClawDesignTimeFramework)' != ''"
                     Projects="$(MSBuildProjectFullPath)"
                     Targets="SharpClawDesignTime"
                     Properties="TargetFramework=%(_SharpClawDesignTimeFramework.Identity)">
              <Output TaskParameter="TargetOutputs" ItemName="SharpClawDesignTimeResult" />
            </MSBuild>
            <MSBuild Condition="'$(IsCrossTargetingBuild)' != 'true'"
                     Projects="$(MSBuildProjectFullPath)"
                     Targets="Compile;CoreCompile;DesignTimeMarkupCompilation"
                     SkipNonexistentTargets="true" />
            <MSBuild Condition="'$(IsCrossTargetingBuild)' != 'true'"
                     Projects="$(MSBuildProjectFullPath)"
                     Targets="SharpClawDesignTimeRead">
              <Output TaskParameter="TargetOutputs" ItemName="SharpClawDesignTimeResult" />
            </MSBuild>
          </Target>
          <!-- The documents are returned as the items themselves: a transform would turn a Link's "\" into "/"
               (MSBuild's FixFilePath), and Roslyn reads the metadata as it is. -->
          <Target Name="SharpClawDesignTimeRead" Returns="@(_SharpClawDesignTimeRead);@(Compile);@(AdditionalFiles);@(EditorConfigFiles)">
            <ItemGroup>
              <Compile ScDtKind="document" ScDtProject="$(MSBuildProjectFullPath)" ScDtTargetFramework="$(TargetFramework)" />
              <AdditionalFiles ScDtKind="additional" ScDtProject="$(MSBuildProjectFullPath)" ScDtTargetFramework="$(TargetFramework)" />
              <EditorConfigFiles ScDtKind="editorconfig" ScDtProject="$(MSBuildProjectFullPath)" ScDtTargetFramework="$(TargetFramework)" />
              <_SharpClawDesignTimeRead Include="$(MSBuildProjectFullPath)"
                  ScTargetFramework="$(TargetFramework)"
                  ScArguments="@(CscCommandLineArgs, '%0A')"
                  ScProjectReferences="@(ProjectReference->'%(FullPath)%09%(Aliases)%09%(ReferenceOutputAssembly)', '%0A')"
                  ScIntermediateAssembly="@(IntermediateAssembly, '%0A')"
                  ScTargetPath="$(TargetPath)"
                  ScTargetRefPath="$(TargetRefPath)"
                  ScGeneratedFilesOutputPath="$(CompilerGeneratedFilesOutputPath)"
                  ScRootNamespace="$(RootNamespace)" />
            </ItemGroup>
            <Message Importance="high" Text="SharpClawDesignTimeDone:$(TargetFramework)%09$(MSBuildProjectFullPath)" />
          </Target>
        </Project>
        """;

    private const string DoneMarker = "SharpClawDesignTimeDone:";

    /// <summary>The traversal's result item: design-time rows, and the collector's rows (those with ScKind) when it evaluates too.</summary>
    private const string ResultItem = "SharpClawDesignTimeResult";

    private const int MaxPasses = 6;

    /// <summary>The global properties Roslyn's build host (ProjectBuildManager) sets for every design-time build.</summary>
    private static readonly (string Name, string Value)[] DesignTimeProperties =
    [
        ("DesignTimeBuild", "true"),
        ("NonExistentFile", @"__NonExistentSubDir__\__NonExistentFile__"),
        ("BuildProjectReferences", "false"),
        ("BuildingProject", "false"),
        ("ProvideCommandLineArgs", "true"),
        ("SkipCompilerExecution", "true"),
        ("ContinueOnError", "ErrorAndContinue"),
        ("ShouldUnsetParentConfigurationAndPlatform", "false"),
    ];

    public static async Task<DesignTimePassResult> RunAsync(
        TargetSelection target,
        IReadOnlyList<string> projects,
        string configuration,
        string? targetFramework,
        ProjectLoadTracker tracker,
        DesignTimeLoadOptions options,
        bool collectEvaluation,
        CancellationToken cancellationToken,
        bool logImports = false)
    {
        DateTime startedUtc = DateTime.UtcNow;
        long started = System.Diagnostics.Stopwatch.GetTimestamp();
        if (UnsupportedProject(projects) is { } unsupported)
        {
            return DesignTimePassResult.Fallback(unsupported);
        }

        // In the private per-user state folder (never a shared temp folder, where anyone could plant a
        // Directory.Build.props or .rsp above the generated projects).
        string temp = StateFolder.Subfolder(
            StateFolder.Subfolder(StateFolder.ForWorkspace(target.Workspace), "designtime"),
            Guid.NewGuid().ToString("N"));
        using FirstError firstError = new(cancellationToken);
        try
        {
            string targetsFile = Path.Combine(temp, "SharpClaw.DesignTime.targets");
            await File.WriteAllTextAsync(targetsFile, CollectorTargets, cancellationToken).ConfigureAwait(false);
            await File.WriteAllTextAsync(Path.Combine(temp, "SharpClaw.Collect.targets"), ProjectEvaluator.CollectorTargets, cancellationToken).ConfigureAwait(false);
            string targets = collectEvaluation ? "SharpClawCollect;SharpClawDesignTime" : "SharpClawDesignTime";

            List<DesignTimeProject> loaded = [];
            List<EvaluatedProject> evaluated = [];
            List<string>? imported = logImports && collectEvaluation ? [] : null;
            HashSet<string> seen = new(projects, PathUtil.Comparer);
            List<string> pending = [.. projects.Distinct(PathUtil.Comparer)];
            for (int pass = 0; pass < MaxPasses && pending.Count > 0; pass++)
            {
                Dictionary<string, double> weights = pending.ToDictionary(p => p, Weight, PathUtil.Comparer);
                List<List<string>> shares = Share(pending, ProcessCount(weights.Values.Sum(), options), p => weights[p]);
                Task<ProcessOutcome>[] runs = [.. shares.Select((share, index) =>
                    RunProcessAsync(target, share, configuration, targetFramework, temp, targetsFile, targets, $"{pass}-{index}", imported is not null, tracker, firstError, cancellationToken))];
                ProcessOutcome[] results = await Task.WhenAll(runs).ConfigureAwait(false);
                if (firstError.Line is { } error)
                {
                    return DesignTimePassResult.Fallback($"MSBuild reported a problem, stopped at the first error: {error}");
                }

                if (results.Select(r => r.Failure).OfType<string>().FirstOrDefault() is { } failure)
                {
                    return DesignTimePassResult.Fallback(failure);
                }

                List<DesignTimeProject> built = [.. results.SelectMany(r => r.Projects)];
                loaded.AddRange(built);
                evaluated.AddRange(results.SelectMany(r => r.Evaluated));
                imported = imported is not null && results.All(r => r.Imported is not null) ? [.. imported, .. results.SelectMany(r => r.Imported!)] : null;
                pending = [.. built.SelectMany(p => p.ProjectReferences).Select(r => r.Path).Where(seen.Add)];
                if (UnsupportedProject(pending) is { } discovered)
                {
                    return DesignTimePassResult.Fallback(discovered);
                }
            }

            if (pending.Count > 0)
            {
                return DesignTimePassResult.Fallback($"project references nest deeper than {MaxPasses} passes");
            }

            EvaluationSnapshot? evaluation = collectEvaluation
                ? new EvaluationSnapshot
                {
                    Target = target,
                    Configuration = configuration,
                    TargetFramework = targetFramework,
                    Projects = evaluated,
                    Failures = [],
                    ImportedFiles = imported?.Distinct(PathUtil.Comparer).ToList(),
                    StartedUtc = startedUtc,
                    Duration = System.Diagnostics.Stopwatch.GetElapsedTime(started),
                }
                : null;
            return new DesignTimePassResult(loaded, evaluation, null);
        }
        finally
        {
            try
            {
                Directory.Delete(temp, recursive: true);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // Best effort; the next load uses a fresh folder.
            }
        }
    }

    /// <summary>How many processes share projects of <paramref name="totalWeight"/> (<see cref="Weight"/> summed).</summary>
    public static int ProcessCount(double totalWeight, DesignTimeLoadOptions options) =>
        Math.Clamp((int)(totalWeight / Math.Max(0.001, options.MinWeightPerProcess)), 1, Math.Max(1, Math.Min(Environment.ProcessorCount, options.MaxProcesses)));

    /// <summary>
    /// Contiguous shares of about equal weight: neighbours in a solution tend to reference each other, and a
    /// process evaluates (but does not build) every project its share references, so contiguous shares
    /// repeat the least work.
    /// </summary>
    public static List<List<string>> Share(IReadOnlyList<string> projects, int count, Func<string, double> weight)
    {
        List<List<string>> shares = [];
        if (count <= 1 || projects.Count <= 1)
        {
            shares.Add([.. projects]);
            return shares;
        }

        double[] weights = [.. projects.Select(weight)];
        double total = weights.Sum();
        double done = 0;
        List<string> current = [];
        for (int i = 0; i < projects.Count; i++)
        {
            current.Add(projects[i]);
            done += weights[i];
            int remainingShares = count - shares.Count - 1;
            if (remainingShares > 0 && done >= total * (shares.Count + 1) / count && projects.Count - i - 1 >= remainingShares)
            {
                shares.Add(current);
                current = [];
            }
        }

        if (current.Count > 0)
        {
            shares.Add(current);
        }

        return shares;
    }

    /// <summary>
    /// A rough cost of one project's design-time build, from its file alone: a build per target framework,
    /// each resolving its project and package references.
    /// </summary>
    public static double Weight(string projectPath)
    {
        string text;
        try
        {
            text = File.ReadAllText(projectPath);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return 1;
        }

        Match frameworks = TargetFrameworksRegex().Match(text);
        int flavours = frameworks.Success ? Math.Max(1, frameworks.Groups[1].Value.Split(';', StringSplitOptions.RemoveEmptyEntries).Length) : 1;
        int references = ReferenceRegex().Count(text);
        return flavours * (2.0 + references);
    }

    /// <summary>Why a project cannot take this path: missing, not a C# project, or not SDK-style (Roslyn picks another build host for those).</summary>
    private static string? UnsupportedProject(IEnumerable<string> projects)
    {
        foreach (string project in projects)
        {
            if (!project.EndsWith(".csproj", StringComparison.OrdinalIgnoreCase))
            {
                return $"'{Path.GetFileName(project)}' is not a C# project";
            }

            if (!File.Exists(project))
            {
                return $"'{Path.GetFileName(project)}' does not exist";
            }

            if (!IsSdkStyle(project))
            {
                return $"'{Path.GetFileName(project)}' is not an SDK-style project";
            }
        }

        return null;
    }

    /// <summary>An Sdk attribute on the root, an &lt;Sdk&gt; element or an import with an Sdk attribute, as Roslyn's build host manager decides.</summary>
    private static bool IsSdkStyle(string projectPath)
    {
        try
        {
            XElement root = XElement.Load(projectPath);
            return root.Attribute("Sdk") is not null
                || root.Elements().Any(e => e.Name.LocalName == "Sdk")
                || root.Elements().Any(e => e.Name.LocalName == "Import" && e.Attribute("Sdk") is not null);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or System.Xml.XmlException)
        {
            return true; // MSBuild reports what is wrong with the file; the pass falls back then.
        }
    }

    private sealed record ProcessOutcome(List<DesignTimeProject> Projects, List<EvaluatedProject> Evaluated, string? Failure)
    {
        /// <summary>The build files the process imported, when asked to list them and its log did (<see cref="ImportLog"/>).</summary>
        public IReadOnlyList<string>? Imported { get; init; }

        public static ProcessOutcome Failed(string reason) => new([], [], reason);
    }

    private static async Task<ProcessOutcome> RunProcessAsync(
        TargetSelection target,
        List<string> share,
        string configuration,
        string? targetFramework,
        string temp,
        string targetsFile,
        string targets,
        string name,
        bool logImports,
        ProjectLoadTracker tracker,
        FirstError firstError,
        CancellationToken cancellationToken)
    {
        string traversal = Path.Combine(temp, $"SharpClaw.DesignTime{name}.proj");
        string resultFile = Path.Combine(temp, $"result{name}.json");
        XElement document = new(
            "Project",
            new XElement("ItemGroup", share.Select(p => new XElement("SharpClawProject", new XAttribute("Include", DotnetCli.MSBuildEscape(p))))),
            new XElement(
                "Target",
                new XAttribute("Name", "SharpClawDesignTimeAll"),
                new XAttribute("Returns", "@(SharpClawDesignTimeResult)"),
                new XElement(
                    "MSBuild",
                    new XAttribute("Projects", "@(SharpClawProject)"),
                    new XAttribute("Targets", targets),
                    new XAttribute("ContinueOnError", "true"),
                    new XAttribute("StopOnFirstFailure", "false"),
                    new XAttribute("BuildInParallel", "false"),
                    new XElement("Output", new XAttribute("TaskParameter", "TargetOutputs"), new XAttribute("ItemName", "SharpClawDesignTimeResult")))));
        await File.WriteAllTextAsync(traversal, document.ToString(), cancellationToken).ConfigureAwait(false);

        List<string> arguments =
        [
            // -noAutoResponse: no Directory.Build.rsp in a folder above the generated project may add switches.
            "msbuild", traversal, "-noAutoResponse", "-nologo", "-nodeReuse:false", "-m:1", "-v:m", "-clp:NoSummary;ForceNoAlign;DisableConsoleColor",
            "-t:SharpClawDesignTimeAll", $"-getItem:{ResultItem}", $"-getResultOutputFile:{resultFile}",
            $"-p:Configuration={DotnetCli.MSBuildEscape(configuration)}",
            $"-p:CustomAfterMicrosoftCommonTargets={DotnetCli.MSBuildEscape(targetsFile)}",
            $"-p:CustomAfterMicrosoftCommonCrossTargetingTargets={DotnetCli.MSBuildEscape(targetsFile)}",
            .. DesignTimeProperties.Select(p => $"-p:{p.Name}={DotnetCli.MSBuildEscape(p.Value)}"),
        ];
        if (targetFramework is not null)
        {
            arguments.Add($"-p:TargetFramework={DotnetCli.MSBuildEscape(targetFramework)}");
        }

        string? importLog = logImports ? Path.Combine(temp, $"imports{name}.log") : null;
        if (importLog is not null && ImportLog.Switch(importLog) is { } logSwitch)
        {
            arguments.Add(logSwitch);
        }

        if (target.Kind == TargetKind.Solution)
        {
            // What MSBuildWorkspace sets when it opens a solution.
            arguments.Add($"-p:SolutionDir={DotnetCli.MSBuildEscape(Path.GetDirectoryName(target.TargetPath)! + Path.DirectorySeparatorChar)}");
        }

        void OnLine(string line)
        {
            // Once the pass is stopped, what MSBuild still wrote before its kill is no progress: the kill can come late
            // on a loaded machine, and projects built after the first error were reported as loaded steps.
            if (firstError.Token.IsCancellationRequested)
            {
                return;
            }

            int marker = line.IndexOf(DoneMarker, StringComparison.Ordinal);
            if (marker >= 0 && line[(marker + DoneMarker.Length)..].Split('\t', 2) is [var framework, var project])
            {
                tracker.ReportStep(PathUtil.Normalize(project.Trim()), framework.Length > 0 ? framework : null);
            }
            else if (ErrorLineRegex().IsMatch(line.Trim()))
            {
                firstError.Report(line.Trim());
            }
        }

        // The working folder decides which SDK global.json selects: the target's, as the evaluation pass uses.
        ProcessResult run;
        try
        {
            run = await DotnetCli.RunAsync(
                arguments, Path.GetDirectoryName(target.TargetPath)!, firstError.Token, OnLine, importLog is null ? null : ImportLog.Environment).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            // Killed because a process of the pass (this one or another) streamed an error: the caller reports that error.
            return ProcessOutcome.Failed("stopped at the pass's first error");
        }

        // An error anywhere (the traversal continues past failed projects, so the exit code can be 0) means
        // Roslyn's own loader must decide what loads and how the failure reads.
        string output = run.Stdout + "\n" + run.Stderr;
        List<string> errors = ErrorLines(output);
        if (run.ExitCode != 0 || errors.Count > 0 || !File.Exists(resultFile))
        {
            return ProcessOutcome.Failed($"MSBuild reported a problem (exit code {run.ExitCode}): {(errors.Count > 0 ? string.Join(" ", errors.Take(3)) : FirstLines(output))}");
        }

        List<ResultRow> rows = ResultItems.Read(await File.ReadAllBytesAsync(resultFile, cancellationToken).ConfigureAwait(false), ResultItem);
        List<DesignTimeProject> projects = Parse(rows);
        HashSet<string> built = new(projects.Select(p => p.Path), PathUtil.Comparer);
        if (share.Find(p => !built.Contains(p)) is { } missing)
        {
            return ProcessOutcome.Failed($"no design-time result for '{Path.GetFileName(missing)}'");
        }

        if (projects.Find(p => p.CommandLineArgs.Count == 0) is { } noArguments)
        {
            return ProcessOutcome.Failed($"no compiler command line for '{Path.GetFileName(noArguments.Path)}'");
        }

        bool collecting = targets.StartsWith("SharpClawCollect;", StringComparison.Ordinal);
        List<EvaluatedProject> evaluated = collecting ? ProjectEvaluator.Parse(rows) : [];
        if (collecting && share.Find(p => !evaluated.Exists(e => PathUtil.Comparer.Equals(e.Path, p))) is { } unevaluated)
        {
            return ProcessOutcome.Failed($"no evaluation result for '{Path.GetFileName(unevaluated)}'");
        }

        return new ProcessOutcome(projects, evaluated, null)
        {
            Imported = importLog is null ? null : await ImportLog.ReadAsync(importLog, cancellationToken).ConfigureAwait(false),
        };
    }

    /// <summary>
    /// The first error line any process of the pass streamed. It forces the fallback to Roslyn's loader whatever
    /// the other processes still do, so reporting it cancels <see cref="Token"/>, which kills every process of the pass.
    /// </summary>
    private sealed class FirstError(CancellationToken cancellationToken) : IDisposable
    {
        private readonly CancellationTokenSource stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        private readonly Lock gate = new();
        private bool disposed;

        /// <summary>Cancelled by the caller's token or by the first error.</summary>
        public CancellationToken Token => this.stop.Token;

        public string? Line { get; private set; }

        public void Report(string line)
        {
            // Lines of a killed process may still arrive after the pass returned: only the first, before disposal, stops.
            lock (this.gate)
            {
                if (this.Line is not null || this.disposed)
                {
                    return;
                }

                this.Line = line;
                this.stop.Cancel();
            }
        }

        public void Dispose()
        {
            lock (this.gate)
            {
                this.disposed = true;
                this.stop.Dispose();
            }
        }
    }

    /// <summary>The design-time rows of the -getResultOutputFile JSON as one <see cref="DesignTimeProject"/> per flavour, in build order.</summary>
    internal static List<DesignTimeProject> Parse(IReadOnlyList<ResultRow> results)
    {
        // Document rows first, by (project, framework, kind), in build order.
        Dictionary<(string, string, string), List<DesignTimeItem>> documents = [];
        foreach (ResultRow row in results)
        {
            if (Get(row, "ScDtKind") is { Length: > 0 } kind)
            {
                (string, string, string) key = (PathUtil.Normalize(Get(row, "ScDtProject")), Get(row, "ScDtTargetFramework"), kind);
                if (!documents.TryGetValue(key, out List<DesignTimeItem>? list))
                {
                    documents[key] = list = [];
                }

                string itemSpec = Get(row, "Identity");
                list.Add(new DesignTimeItem(itemSpec, NullIfEmpty(Get(row, "Link"))));
            }
        }

        List<DesignTimeProject> projects = [];
        foreach (ResultRow row in results)
        {
            string path = Get(row, "Identity");
            if (path.Length == 0 || Get(row, "ScKind").Length > 0 || Get(row, "ScDtKind").Length > 0)
            {
                continue; // The evaluation collector's rows (ProjectEvaluator.Parse reads those) and the documents (above).
            }

            string project = PathUtil.Normalize(path);
            string framework = Get(row, "ScTargetFramework");
            List<DesignTimeItem> Of(string kind) => documents.GetValueOrDefault((project, framework, kind)) ?? [];
            projects.Add(new DesignTimeProject
            {
                Path = project,
                TargetFramework = NullIfEmpty(framework),
                CommandLineArgs = Lines(Get(row, "ScArguments")),
                Documents = Of("document"),
                AdditionalFiles = Of("additional"),
                EditorConfigFiles = Of("editorconfig"),
                ProjectReferences = [.. Lines(Get(row, "ScProjectReferences")).Select(line => line.Split('\t')).Select(fields => new DesignTimeReference(
                    PathUtil.Normalize(fields[0]),
                    fields.Length > 1 ? [.. fields[1].Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)] : [],
                    fields.Length < 3 || !fields[2].Trim().Equals("false", StringComparison.OrdinalIgnoreCase)))],
                TargetPath = NullIfEmpty(Get(row, "ScTargetPath")),
                TargetRefPath = NullIfEmpty(Get(row, "ScTargetRefPath")),
                IntermediateAssembly = Lines(Get(row, "ScIntermediateAssembly")).FirstOrDefault(),
                GeneratedFilesOutputPath = NullIfEmpty(Get(row, "ScGeneratedFilesOutputPath")),
                RootNamespace = NullIfEmpty(Get(row, "ScRootNamespace")),
            });
        }

        return projects;
    }

    private static List<string> Lines(string joined) =>
        [.. joined.Split('\n').Select(l => l.TrimEnd('\r')).Where(l => l.Trim().Length > 0)];

    private static string? NullIfEmpty(string value) => value.Trim().Length == 0 ? null : value.Trim();

    /// <summary>The console logger's error lines ("file(line,col): error CODE: text [project]").</summary>
    private static List<string> ErrorLines(string output) =>
        [.. output.Split('\n').Select(l => l.Trim()).Where(l => ErrorLineRegex().IsMatch(l)).Distinct()];

    private static string FirstLines(string output) =>
        string.Join(" ", output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Where(l => !l.Contains(DoneMarker, StringComparison.Ordinal)).Take(3));

    private static string Get(ResultRow row, string name) => ResultItems.Get(row, name);

    [GeneratedRegex(@"(?:^|:\s*|\s)error\s+[A-Za-z]+[0-9]+\s*:")]
    private static partial Regex ErrorLineRegex();

    [GeneratedRegex(@"<TargetFrameworks>\s*([^<]*)</TargetFrameworks>", RegexOptions.IgnoreCase)]
    private static partial Regex TargetFrameworksRegex();

    [GeneratedRegex(@"<(?:ProjectReference|PackageReference)\b", RegexOptions.IgnoreCase)]
    private static partial Regex ReferenceRegex();
}
