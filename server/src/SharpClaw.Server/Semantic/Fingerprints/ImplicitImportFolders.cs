using SharpClaw.Server.Toolchain;

namespace SharpClaw.Server.Semantic.Fingerprints;

/// <summary>
/// The folders every MSBuild evaluation imports by wildcard without any project naming them: the
/// ImportBefore/ImportAfter folders of Microsoft.Common.props and .targets, Microsoft.CSharp.targets,
/// the cross-targeting and .NET Framework files and solution builds, under the user's MSBuild
/// extensions folder (<c>$(LocalAppData)/Microsoft/MSBuild/Current</c>, on Linux
/// <c>~/.local/share/Microsoft/MSBuild/Current</c>) and each installed SDK's (<c>sdk/VERSION/Current</c>).
/// A file created, edited or removed there changes what evaluation runs, so the fingerprint an approval
/// and a warm-restart snapshot rest on watches them (issue 36).
/// </summary>
public static class ImplicitImportFolders
{
    /// <summary>Relative to a <c>Current</c> folder; read from the SDK's own Microsoft.Common.* and Microsoft.CSharp.* files.</summary>
    private static readonly string[] Relative =
    [
        "Imports/Microsoft.Common.props/ImportBefore",
        "Imports/Microsoft.Common.props/ImportAfter",
        "Microsoft.Common.targets/ImportBefore",
        "Microsoft.Common.targets/ImportAfter",
        "Microsoft.CSharp.targets/ImportBefore",
        "Microsoft.CSharp.targets/ImportAfter",
        "Microsoft.Common.CrossTargeting.targets/ImportBefore",
        "Microsoft.Common.CrossTargeting.targets/ImportAfter",
        "Microsoft.NETFramework.props/ImportBefore",
        "Microsoft.NETFramework.props/ImportAfter",
        "Microsoft.NETFramework.targets/ImportBefore",
        "Microsoft.NETFramework.targets/ImportAfter",
        "SolutionFile/ImportBefore",
        "SolutionFile/ImportAfter",
    ];

    /// <summary>The user's MSBuild extensions folder (MSBuildUserExtensionsPath), existing or not.</summary>
    public static string UserExtensions() =>
        Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData, Environment.SpecialFolderOption.DoNotVerify), "Microsoft", "MSBuild");

    /// <summary>Every such folder, existing or not: the user's, then each installed SDK's.</summary>
    public static IReadOnlyList<string> All()
    {
        List<string> bases = [UserExtensions()];
        bases.AddRange(SdkInventory.FindSdks(SdkInventory.FindDotnetRoot()).Select(sdk => sdk.Path));
        return [.. bases.SelectMany(b => Relative.Select(r => Path.GetFullPath(Path.Combine(b, "Current", r))))];
    }

    /// <summary>The files in <paramref name="folders"/> now (each is imported, and its content matters).</summary>
    public static IEnumerable<string> FilesIn(IEnumerable<string> folders)
    {
        foreach (string folder in folders)
        {
            string[] files;
            try
            {
                files = Directory.Exists(folder) ? Directory.GetFiles(folder) : [];
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                continue;
            }

            foreach (string file in files)
            {
                yield return file;
            }
        }
    }
}
