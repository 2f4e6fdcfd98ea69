using Microsoft.CodeAnalysis;
using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Contexts;

namespace SharpClaw.Server.Semantic.Edits;

/// <summary>
/// rename_file: renames (or moves within its project folder) one C# document. Namespaces and type names are
/// left as they are; the project keeps the file through its default compile globs, so the host re-attaches
/// the document in place after the write instead of re-evaluating MSBuild.
/// </summary>
public static class FileRenameService
{
    public static async Task<EditPlan> PlanAsync(ContextLease lease, string workspace, EditParams parameters, CancellationToken cancellationToken)
    {
        if (string.IsNullOrWhiteSpace(parameters.Path))
        {
            throw SemanticException.InvalidRequest("rename_file needs 'path' (the file to rename) and 'newName'.");
        }

        if (string.IsNullOrWhiteSpace(parameters.NewName))
        {
            throw SemanticException.InvalidRequest("rename_file needs 'newName': a file name such as Sum.cs or a workspace-relative path.");
        }

        Solution solution = lease.Solution;
        string path = ResolveFile(solution, workspace, parameters.Path);
        string newName = parameters.NewName.Trim().Replace('\\', '/');
        string newPath = newName.Contains('/')
            ? Path.GetFullPath(Path.Combine(workspace, newName))
            : Path.Combine(Path.GetDirectoryName(path)!, newName);
        string relativeNew = PathUtil.ToWorkspaceRelative(workspace, newPath);
        if (!newPath.EndsWith(".cs", StringComparison.OrdinalIgnoreCase) || Path.GetFileNameWithoutExtension(newPath).Length == 0)
        {
            throw SemanticException.InvalidRequest($"The new name '{newName}' must be a .cs file name.");
        }

        if (Path.GetFileName(newPath).IndexOfAny(Path.GetInvalidFileNameChars()) >= 0)
        {
            throw SemanticException.InvalidRequest($"'{newName}' is not a valid file name.");
        }

        SolutionDiff.CheckInsideWorkspace(workspace, path);
        SolutionDiff.CheckInsideWorkspace(workspace, newPath);
        if (string.Equals(path, newPath, StringComparison.Ordinal))
        {
            throw SemanticException.InvalidRequest($"{relativeNew} is already the file's name.");
        }

        // A case-only rename of the file itself (Keep.cs → keep.cs) is a rename: on a case-insensitive file
        // system the "existing" destination is the file being renamed.
        bool caseOnly = string.Equals(path, newPath, StringComparison.OrdinalIgnoreCase);
        bool taken = caseOnly
            ? Directory.Exists(Path.GetDirectoryName(newPath)) && Directory.EnumerateFileSystemEntries(Path.GetDirectoryName(newPath)!).Any(e => string.Equals(Path.GetFileName(e), Path.GetFileName(newPath), StringComparison.Ordinal))
            : File.Exists(newPath) || Directory.Exists(newPath);
        if (taken)
        {
            throw SemanticException.InvalidRequest($"{relativeNew} already exists.");
        }

        if (CaseTwin(path, newPath) is { } twin)
        {
            throw SemanticException.InvalidRequest(
                $"{relativeNew} differs only in case from {PathUtil.ToWorkspaceRelative(workspace, twin)}: on a case-insensitive file system (Windows, macOS) they are one file, and MSBuild's compile items compare paths ignoring case (NETSDK1022). Nothing was renamed; choose another name.");
        }

        if (!Directory.Exists(Path.GetDirectoryName(newPath)))
        {
            throw SemanticException.InvalidRequest($"The folder of {relativeNew} does not exist; rename_file does not create folders.");
        }

        foreach (DocumentId id in SolutionPaths.DocumentIdsAt(solution, path))
        {
            Project project = solution.GetProject(id.ProjectId)!;
            if (project.FilePath is not { } projectFile)
            {
                continue;
            }

            string projectFolder = Path.GetDirectoryName(projectFile)!;
            if (!PathUtil.IsUnder(path, projectFolder) || !PathUtil.IsUnder(newPath, projectFolder))
            {
                throw SemanticException.InvalidRequest(
                    $"{PathUtil.ToWorkspaceRelative(workspace, path)} would leave the folder of {PathUtil.ToWorkspaceRelative(workspace, projectFile)}; rename_file keeps files inside their project folder.");
            }

            if (lease.Context.Evaluation.Snapshot.Find(projectFile) is { } evaluated
                && WhyNotCompiled(evaluated, lease.Context.Evaluation.Snapshot, newPath, workspace) is { } reason)
            {
                throw SemanticException.InvalidRequest(
                    $"{relativeNew} would not be compiled by {PathUtil.ToWorkspaceRelative(workspace, projectFile)}: {reason} Nothing was renamed; choose a folder the project compiles.");
            }

            string projectText = FileText.Decode(BoundedFileRead.ReadForEdit(projectFile, PathUtil.ToWorkspaceRelative(workspace, projectFile), BoundedFileRead.MaxProjectFileBytes));
            if (System.Text.RegularExpressions.Regex.IsMatch(
                projectText,
                "(Include|Update|Remove)\\s*=\\s*\"[^\"]*" + System.Text.RegularExpressions.Regex.Escape(Path.GetFileName(path)),
                System.Text.RegularExpressions.RegexOptions.IgnoreCase))
            {
                throw SemanticException.InvalidRequest(
                    $"{PathUtil.ToWorkspaceRelative(workspace, projectFile)} names {Path.GetFileName(path)} explicitly; edit the project file deliberately instead.");
            }

            if (solution.GetDocument(id) is { } document && (document.FilePath!.EndsWith(".g.cs", StringComparison.OrdinalIgnoreCase)
                || (await document.GetTextAsync(cancellationToken).ConfigureAwait(false)).ToString().Contains("<auto-generated", StringComparison.OrdinalIgnoreCase)))
            {
                throw SemanticException.Edit(SemanticErrorKind.GeneratedDocument, $"{PathUtil.ToWorkspaceRelative(workspace, path)} is a generated file; nothing was renamed.");
            }
        }

        byte[] bytes = BoundedFileRead.ReadForEdit(path, PathUtil.ToWorkspaceRelative(workspace, path), BoundedFileRead.MaxSourceBytes);
        string text = FileText.Decode(bytes);
        PlannedFile file = new(path, newPath, bytes, bytes, text, text, 1);
        return new EditPlan("rename_file", $"rename file {PathUtil.ToWorkspaceRelative(workspace, path)} to {relativeNew}", workspace, [file]);
    }

    /// <summary>
    /// Why the project's evaluated compile items would not include a file at <paramref name="newPath"/>,
    /// or null when they would: its evaluated output folders and default item excludes (bin, obj,
    /// hidden folders, the project's own DefaultItemExcludes), another project's folder, or a folder
    /// whose existing C# files the evaluated Compile items leave out (a Compile Remove glob).
    /// </summary>
    internal static string? WhyNotCompiled(Evaluation.EvaluatedProject project, Evaluation.EvaluationSnapshot snapshot, string newPath, string workspace)
    {
        string folder = project.Directory;
        foreach (Evaluation.EvaluatedProject other in snapshot.Projects)
        {
            if (!PathUtil.Comparer.Equals(other.Path, project.Path) && PathUtil.IsUnder(other.Directory, folder) && PathUtil.IsUnder(newPath, other.Directory))
            {
                return $"the folder belongs to another project, {PathUtil.ToWorkspaceRelative(workspace, other.Path)}.";
            }
        }

        foreach ((string? output, string property) in new[] { (project.BaseIntermediateOutputPath, "BaseIntermediateOutputPath"), (project.BaseOutputPath, "BaseOutputPath") })
        {
            if (output is not null && PathUtil.IsUnder(newPath, output.TrimEnd('/', '\\')))
            {
                return $"it is inside the project's build output folder {PathUtil.ToWorkspaceRelative(workspace, output.TrimEnd('/', '\\'))}/ ({property}), which the compile globs exclude.";
            }
        }

        string relative = Path.GetRelativePath(folder, newPath).Replace('\\', '/');
        if (project.EnableDefaultCompileItems)
        {
            foreach (string exclude in project.DefaultItemExcludes)
            {
                string pattern = Path.IsPathRooted(exclude) ? Path.GetRelativePath(folder, exclude).Replace('\\', '/') : exclude.Replace('\\', '/').TrimStart('.', '/');
                if (pattern.Length > 0 && pattern.Length <= PathGlob.MaxLength && Matches(pattern, relative))
                {
                    return $"the project's evaluated DefaultItemExcludes contain '{exclude}', which excludes it from the compile items.";
                }
            }
        }

        string destination = Path.GetDirectoryName(newPath)!;
        HashSet<string> compiled = new(project.CompileItems, PathUtil.Comparer);
        string? left = Directory.Exists(destination)
            ? Directory.EnumerateFiles(destination, "*.cs").Order(StringComparer.Ordinal).FirstOrDefault(f => !compiled.Contains(PathUtil.Normalize(f)))
            : null;
        if (left is not null)
        {
            return $"its evaluated compile items leave out {PathUtil.ToWorkspaceRelative(workspace, left)} in the same folder, so the project's globs exclude that folder.";
        }

        if (!project.EnableDefaultCompileItems && !project.CompileItems.Any(f => PathUtil.Comparer.Equals(Path.GetDirectoryName(f), destination)))
        {
            return "the project lists its compile items explicitly (EnableDefaultCompileItems=false) and compiles nothing in that folder.";
        }

        return null;
    }

    /// <summary>
    /// Another entry of the destination folder whose name equals the new one ignoring case only (not the
    /// file being renamed), or null. Checked on every file system: a workspace on Linux is also built and
    /// cloned on Windows and macOS, and MSBuild treats the two as one compile item everywhere.
    /// </summary>
    private static string? CaseTwin(string path, string newPath)
    {
        string folder = Path.GetDirectoryName(newPath)!;
        string name = Path.GetFileName(newPath);
        if (!Directory.Exists(folder))
        {
            return null;
        }

        return Directory.EnumerateFileSystemEntries(folder)
            .Where(entry => string.Equals(Path.GetFileName(entry), name, StringComparison.OrdinalIgnoreCase)
                && !string.Equals(Path.GetFileName(entry), name, StringComparison.Ordinal)
                && !string.Equals(entry, path, StringComparison.Ordinal))
            .Order(StringComparer.Ordinal)
            .FirstOrDefault();
    }

    /// <summary>A document path: workspace-relative, or a unique whole-segment suffix.</summary>
    public static string ResolveFile(Solution solution, string workspace, string wanted)
    {
        string normalized = wanted.Trim().Replace('\\', '/').TrimStart('/');
        List<string> paths = [.. solution.Projects.SelectMany(p => p.Documents).Select(d => d.FilePath).OfType<string>().Distinct(PathUtil.Comparer)];
        List<string> exact = [.. paths.Where(p => string.Equals(PathUtil.ToWorkspaceRelative(workspace, p), normalized, PathUtil.Comparison))];
        if (exact.Count == 1)
        {
            return exact[0];
        }

        List<string> suffix = [.. paths.Where(p => PathUtil.ToWorkspaceRelative(workspace, p).EndsWith("/" + normalized, PathUtil.Comparison))];
        return suffix.Count switch
        {
            1 => suffix[0],
            0 => throw SemanticException.InvalidRequest($"No C# document of the loaded projects has the path '{wanted}'."),
            _ => throw new SemanticException(new SemanticErrorData(
                SemanticErrorKind.InvalidRequest,
                $"ambiguous_file: '{wanted}' names {suffix.Count} files; send one of them as path.",
                [.. suffix.Select(p => PathUtil.ToWorkspaceRelative(workspace, p)).Order(StringComparer.Ordinal).Take(20)],
                null,
                null)),
        };
    }

    /// <summary>Whether an evaluated exclude pattern (the host's one glob dialect) matches a project-relative path; a malformed one matches nothing.</summary>
    private static bool Matches(string pattern, string relative)
    {
        try
        {
            return PathGlob.ToRegex(pattern, ignoreCase: PathUtil.Comparison != StringComparison.Ordinal).IsMatch(relative);
        }
        catch (ArgumentException)
        {
            return false;
        }
    }
}
