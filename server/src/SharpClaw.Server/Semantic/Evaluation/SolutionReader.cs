using Microsoft.VisualStudio.SolutionPersistence;
using Microsoft.VisualStudio.SolutionPersistence.Model;
using Microsoft.VisualStudio.SolutionPersistence.Serializer;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Semantic.Evaluation;

/// <summary>Reads the project list of a .sln/.slnx file without MSBuild (the same library Roslyn uses).</summary>
public static class SolutionReader
{
    /// <summary>Full paths of the solution's C# projects, in solution order.</summary>
    public static async Task<IReadOnlyList<string>> ReadProjectsAsync(string solutionPath, CancellationToken cancellationToken) =>
        [.. (await ReadAllProjectsAsync(solutionPath, cancellationToken).ConfigureAwait(false)).Where(p => p.EndsWith(".csproj", StringComparison.OrdinalIgnoreCase))];

    /// <summary>Full paths of every project the solution lists (C#, F#, VB, anything else), in solution order.</summary>
    public static async Task<IReadOnlyList<string>> ReadAllProjectsAsync(string solutionPath, CancellationToken cancellationToken)
    {
        ISolutionSerializer? serializer = SolutionSerializers.GetSerializerByMoniker(solutionPath);
        if (serializer is null)
        {
            throw SemanticException.LoadFailed($"'{Path.GetFileName(solutionPath)}' is not a solution format this host can read.");
        }

        SolutionModel model;
        try
        {
            model = await serializer.OpenAsync(solutionPath, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is SolutionException or IOException or UnauthorizedAccessException or FormatException or System.Xml.XmlException)
        {
            throw SemanticException.LoadFailed($"The solution '{Path.GetFileName(solutionPath)}' cannot be read: {ex.Message}", inner: ex);
        }

        string directory = Path.GetDirectoryName(solutionPath)!;
        List<string> projects = [];
        foreach (SolutionProjectModel project in model.SolutionProjects)
        {
            string path = project.FilePath.Replace('\\', Path.DirectorySeparatorChar);
            string full = PathUtil.Normalize(Path.Combine(directory, path));
            if (!projects.Contains(full, PathUtil.Comparer))
            {
                projects.Add(full);
            }
        }

        return projects;
    }
}
