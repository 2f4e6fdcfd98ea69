using System.Text.RegularExpressions;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Discovery;
using ResultRow = System.Collections.Generic.IReadOnlyDictionary<string, string>;

namespace SharpClaw.Server.Semantic.Evaluation;

/// <summary>
/// The evaluation a verifier's own build collects, instead of a second MSBuild process beside it (issue 39: that
/// process was most of what a first verify added to the person's build). The build imports a targets file through
/// the environment (<c>CustomAfterMicrosoftCommonTargets</c> and its cross-targeting twin as environment variables,
/// so the build's global properties, and so its project instances, stay the person's); a target that runs first in
/// each instance's build writes the rows <see cref="ProjectEvaluator.RowItems"/> describes — what the evaluation's
/// collector returns — to one file per instance. Read back, they make the same snapshot; anything missing (a project
/// or framework the build did not reach, a project that sets those properties itself, a build that stopped early,
/// a row that does not parse) makes <see cref="TryRead"/> answer null, and the caller evaluates as before.
/// A collection is used once and deleted; one left behind (a cancelled run) is removed an hour later.
/// </summary>
public static partial class BuildCollection
{
    /// <summary>The <c>buildCollection</c> value that asks for an offer instead of an evaluation.</summary>
    public const string Offer = "offer";

    private const string FolderName = "build-evaluations";

    private static readonly TimeSpan LeftBehind = TimeSpan.FromHours(1);

    /// <summary>The metadata of a row, in the order each line of a collected file holds them (tab-separated).</summary>
    private static readonly string[] Columns =
    [
        "ScKind", "Identity", "ScProject", "ScTargetFramework", "ScCrossTargeting", "ScIsTestProject",
        "ScIsTestingPlatformApplication", "ScTestingPlatformDotnetTestSupport", "ScTargetPath", "ScTargetFrameworks",
        "ScOutputType", "ScProjectAssetsFile", "ScProjectExtensionsPath", "ScBaseIntermediateOutputPath", "ScBaseOutputPath",
        "ScArtifactsPath", "ScEnableDefaultCompileItems", "ScDefaultItemExcludes", "OutputItemType", "Version", "VersionOverride",
    ];

    /// <summary>
    /// Runs before the first target of each instance's build: <c>_CheckForInvalidConfigurationAndPlatform</c> for a
    /// project's (inner) build, <c>DispatchToInnerBuilds</c> for a multi-targeted project's outer build. Not as an
    /// initial target: those run before the Test SDK's own (which adds its Program.cs to Compile), and the rows would
    /// miss that file. It reads properties and items and writes one file; the build's own targets are untouched.
    /// </summary>
    internal static readonly string Targets = $$"""
        <Project>
          <!-- Written by SharpClaw for one verification's build, and deleted after it. It writes the evaluated
               properties and items of each project instance the build builds to the folder the environment names. -->
          <Target Name="SharpClawCollectDuringBuild"
                  BeforeTargets="_CheckForInvalidConfigurationAndPlatform;DispatchToInnerBuilds"
                  Condition="'$(SharpClawCollectFolder)' != ''">
            <ItemGroup>
        {{ProjectEvaluator.RowItems}}
            </ItemGroup>
            <WriteLinesToFile File="$(SharpClawCollectFolder)/$([System.Guid]::NewGuid().ToString('N')).rows"
                              Lines="@(SharpClawResult->'{{string.Join("%09", Columns.Select(c => $"%({c})"))}}')"
                              Overwrite="true" />
          </Target>
        </Project>
        """;

    /// <summary>
    /// A new collection for <paramref name="workspace"/> in its private state folder: the targets file and an empty
    /// rows folder, and the environment that makes a build fill it. Runs nothing.
    /// </summary>
    public static ProjectGraphBuildCollection Prepare(string workspace)
    {
        string parent = StateFolder.Subfolder(StateFolder.ForWorkspace(workspace), FolderName);
        RemoveLeftBehind(parent);
        string id = Guid.NewGuid().ToString("N");
        string folder = StateFolder.Subfolder(parent, id);
        string rows = StateFolder.Subfolder(folder, "rows");
        string targets = Path.Combine(folder, "SharpClaw.CollectDuringBuild.targets");
        File.WriteAllText(targets, Targets);
        // MSBuild counts the newest file a project imports among a compile's inputs: a new import would make the
        // person's up-to-date projects compile again.
        File.SetLastWriteTimeUtc(targets, new DateTime(2000, 1, 1, 0, 0, 0, DateTimeKind.Utc));
        return new ProjectGraphBuildCollection(id, new Dictionary<string, string>(StringComparer.Ordinal)
        {
            ["CustomAfterMicrosoftCommonTargets"] = targets,
            ["CustomAfterMicrosoftCommonCrossTargetingTargets"] = targets,
            ["SharpClawCollectFolder"] = rows,
        });
    }

    /// <summary>
    /// The snapshot the build collected for <paramref name="projects"/> (the target's) and every project they
    /// reference, in the evaluation's order; null, with the reason, when the collection is missing or incomplete.
    /// </summary>
    public static EvaluationSnapshot? TryRead(
        TargetSelection target, IReadOnlyList<string> projects, string id, string configuration, out string whyNot)
    {
        long started = System.Diagnostics.Stopwatch.GetTimestamp();
        if (FolderOf(target.Workspace, id) is not { } folder || !Directory.Exists(folder))
        {
            whyNot = "no such collection";
            return null;
        }

        List<List<ResultRow>> instances;
        try
        {
            instances = ReadInstances(Path.Combine(folder, "rows"), out whyNot);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            whyNot = $"the collection could not be read: {ex.Message}";
            return null;
        }

        if (whyNot.Length > 0)
        {
            return null;
        }

        // The evaluation's order, which the build's parallel inner builds do not keep: a project's inner instances in
        // the order of its TargetFrameworks, then its outer one (the collector's MSBuild task returns before the outer row).
        List<ResultRow> rows = [.. instances.OrderBy(FrameworkPosition).SelectMany(i => i)];
        Dictionary<string, EvaluatedProject> collected = new(PathUtil.Comparer);
        foreach (EvaluatedProject project in ProjectEvaluator.Parse(rows))
        {
            collected[project.Path] = project;
        }

        // The evaluation's order: the target's projects, then the projects they reference, pass by pass.
        List<EvaluatedProject> ordered = [];
        HashSet<string> seen = new(PathUtil.Comparer);
        List<string> pending = [.. projects.Where(seen.Add)];
        while (pending.Count > 0)
        {
            List<string> next = [];
            foreach (string path in pending)
            {
                if (!collected.TryGetValue(PathUtil.Normalize(path), out EvaluatedProject? project))
                {
                    whyNot = $"the build wrote nothing for '{PathUtil.ToWorkspaceRelative(target.Workspace, path)}'";
                    return null;
                }

                if (project.TargetFrameworks.FirstOrDefault(f => !project.Outputs.Any(o => o.TargetFramework.Equals(f, StringComparison.OrdinalIgnoreCase))) is { } unbuilt)
                {
                    whyNot = $"the build did not build '{PathUtil.ToWorkspaceRelative(target.Workspace, path)}' for {unbuilt}";
                    return null;
                }

                ordered.Add(project);
                next.AddRange(project.ProjectReferences
                    .Select(r => r.Path)
                    .Where(r => r.EndsWith(".csproj", StringComparison.OrdinalIgnoreCase) && seen.Add(r)));
            }

            pending = next;
        }

        whyNot = string.Empty;
        return new EvaluationSnapshot
        {
            Target = target,
            Configuration = configuration,
            TargetFramework = null,
            Projects = ordered,
            Failures = [],
            // The collection was prepared before the build started: a file changed after that may not be reflected.
            StartedUtc = Directory.GetLastWriteTimeUtc(folder),
            Duration = System.Diagnostics.Stopwatch.GetElapsedTime(started),
        };
    }

    /// <summary>Each instance's rows (one file each, in name order); <paramref name="whyNot"/> says why none when a row does not parse.</summary>
    private static List<List<ResultRow>> ReadInstances(string rowsFolder, out string whyNot)
    {
        whyNot = string.Empty;
        List<List<ResultRow>> instances = [];
        foreach (string file in Directory.EnumerateFiles(rowsFolder, "*.rows").Order(StringComparer.Ordinal))
        {
            List<ResultRow> instance = [];
            foreach (string line in File.ReadLines(file))
            {
                string[] values = line.Split('\t');
                if (values.Length != Columns.Length)
                {
                    whyNot = $"a row of {values.Length} values where {Columns.Length} were written (a value with a tab or a line break)";
                    return [];
                }

                Dictionary<string, string> row = new(StringComparer.Ordinal);
                for (int i = 0; i < Columns.Length; i++)
                {
                    if (values[i].Length > 0)
                    {
                        row[Columns[i]] = values[i];
                    }
                }

                instance.Add(row);
            }

            instances.Add(instance);
        }

        return instances;
    }

    /// <summary>Where an instance's rows go among its project's: its framework's index in TargetFrameworks, the outer build last.</summary>
    private static int FrameworkPosition(List<ResultRow> instance)
    {
        ResultRow project = instance.Find(r => ResultItems.Get(r, "ScKind") == "project") ?? ResultItems.Empty;
        if (ResultItems.Get(project, "ScCrossTargeting") == "true")
        {
            return int.MaxValue;
        }

        string framework = ResultItems.Get(project, "ScTargetFramework");
        int index = Array.FindIndex(
            ResultItems.Get(project, "ScTargetFrameworks").Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries),
            f => f.Equals(framework, StringComparison.OrdinalIgnoreCase));
        return index >= 0 ? index : int.MaxValue - 1;
    }

    /// <summary>Deletes a collection (read or not: each is used once). Best effort.</summary>
    public static void Discard(string workspace, string id)
    {
        if (FolderOf(workspace, id) is { } folder)
        {
            TryDelete(folder);
        }
    }

    /// <summary>The collection's folder, or null when <paramref name="id"/> is not one <see cref="Prepare"/> makes.</summary>
    private static string? FolderOf(string workspace, string id) =>
        IdRegex().IsMatch(id) ? Path.Combine(StateFolder.WorkspacePath(workspace, StateFolder.Root()), FolderName, id) : null;

    private static void RemoveLeftBehind(string parent)
    {
        foreach (string folder in Directory.EnumerateDirectories(parent))
        {
            if (DateTime.UtcNow - Directory.GetLastWriteTimeUtc(folder) > LeftBehind)
            {
                TryDelete(folder);
            }
        }
    }

    private static void TryDelete(string folder)
    {
        try
        {
            Directory.Delete(folder, recursive: true);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Best effort: a folder left behind is removed by a later Prepare.
        }
    }

    [GeneratedRegex("^[0-9a-f]{32}$")]
    private static partial Regex IdRegex();
}
