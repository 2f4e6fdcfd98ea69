using System.Collections.Concurrent;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Tests.Infrastructure;

/// <summary>
/// Restored fixtures, restored once per fixture version instead of once per test: the first request
/// copies fixtures/&lt;name&gt; into the cache and runs <c>dotnet restore</c> there; every request copies
/// the restored folder and rewrites the absolute paths the restore wrote (obj/) to the copy's. The key
/// is the hash of the fixture's files, the SDK that restores it and the targets — computed exactly as
/// test/support/fixtures.ts computes it, so the server layer and the mocha layers share one restore.
/// The cache is <c>&lt;state folder&gt;/test-fixtures</c> (the private per-user folder, never a shared
/// temp folder) or <c>$SHARPCLAW_TEST_FIXTURE_CACHE</c>; a new version of a fixture replaces its older entry.
/// </summary>
internal static class FixtureCache
{
    /// <summary>Bumped when the layout or the key changes (test/support/fixtures.ts uses the same).</summary>
    private const string KeyVersion = "sharpclaw test fixture v1";

    /// <summary>Folders a fixture never carries into a copy: a developer's local build output.</summary>
    private static readonly HashSet<string> BuildOutput = new(StringComparer.Ordinal) { "bin", "obj", "TestResults", "artifacts" };

    private static readonly ConcurrentDictionary<string, Lazy<Entry>> Entries = new(StringComparer.Ordinal);

    private static readonly ConcurrentDictionary<string, string> SdkVersions = new(StringComparer.Ordinal);

    /// <summary>Copies <paramref name="fixture"/> restored for <paramref name="targets"/> (in order) to <paramref name="destination"/>.</summary>
    public static void CopyRestored(string fixture, IReadOnlyList<string> targets, string destination) =>
        CopyCached(fixture, Path.Combine(TestPaths.Fixtures, fixture), targets, destination);

    /// <summary>
    /// Copies the workspace <paramref name="prepare"/> makes (in a folder named <paramref name="variant"/>, from a copy of
    /// fixtures/<paramref name="fixture"/> or from nothing) restored for <paramref name="targets"/>: a test that adds
    /// projects to a fixture, or writes a workspace of its own, restores it once per version too. Cached under
    /// <paramref name="variant"/> (a name no fixture has), keyed by the prepared files.
    /// </summary>
    public static void CopyRestoredVariant(string? fixture, string variant, Action<string> prepare, IReadOnlyList<string> targets, string destination)
    {
        using TempDirectory temp = new();
        string prepared = Path.Combine(temp.Path, variant);
        if (fixture is null)
        {
            Directory.CreateDirectory(prepared);
        }
        else
        {
            CopySource(fixture, prepared);
        }

        prepare(prepared);
        CopyCached(variant, prepared, targets, destination);
    }

    /// <summary>Copies <paramref name="source"/>, restored once per version under <paramref name="name"/>, to <paramref name="destination"/>.</summary>
    private static void CopyCached(string name, string source, IReadOnlyList<string> targets, string destination)
    {
        List<string> files = ListFiles(source, IsSource);
        string key = Key(source, files, targets);
        // One restore per name and key in this process; classes running in parallel wait for it.
        Entry entry = Entries.GetOrAdd(name + "." + key, _ => new Lazy<Entry>(() => Restore(name, targets, source, files, key))).Value;
        CopyDirectory(Path.Combine(entry.Folder, "workspace"), destination, _ => true);
        foreach (string relative in entry.Manifest.RestoreOutput)
        {
            RewritePaths(Path.Combine(destination, relative), entry.Manifest.RestoredAt, destination);
        }
    }

    /// <summary>Copies a fixture without build output.</summary>
    public static void CopySource(string fixture, string destination) =>
        CopyDirectory(Path.Combine(TestPaths.Fixtures, fixture), destination, IsSource);

    private static bool IsSource(string folderName) => !BuildOutput.Contains(folderName);

    private static Entry Restore(string fixture, IReadOnlyList<string> targets, string source, List<string> files, string key)
    {
        string cache = CacheRoot();
        string folder = Path.Combine(cache, $"{fixture}.{key}");
        Manifest? manifest = ReadManifest(folder);
        if (manifest is null)
        {
            // Restored in a folder of its own, then renamed into place: another process restoring the same fixture loses the race harmlessly.
            string pending = Path.Combine(cache, $"{fixture}.{key}.{Environment.ProcessId}-{Guid.NewGuid().ToString("N")[..8]}.tmp");
            string workspace = Path.Combine(pending, "workspace");
            CopyDirectory(source, workspace, IsSource);
            foreach (string target in targets)
            {
                (int exitCode, string output) = FixtureWorkspace.Dotnet(workspace, ["restore", target, "-nologo", "--tl:off", "-v:q"]);
                Assert.True(exitCode == 0, $"dotnet restore {target} failed for fixture {fixture}:\n{output}");
            }

            HashSet<string> before = new(files, StringComparer.Ordinal);
            manifest = new Manifest(fixture, [.. targets], key, workspace, [.. ListFiles(workspace, _ => true).Where(f => !before.Contains(f))]);
            File.WriteAllText(Path.Combine(pending, "manifest.json"), JsonSerializer.Serialize(manifest, ManifestJson) + "\n");
            try
            {
                Directory.Move(pending, folder);
            }
            catch (IOException)
            {
                Directory.Delete(pending, recursive: true);
                manifest = ReadManifest(folder) ?? throw new InvalidOperationException($"The fixture cache entry {folder} could not be created.");
            }

            PruneOtherVersions(cache, fixture, targets, key);
        }

        return new Entry(folder, manifest);
    }

    private static readonly JsonSerializerOptions ManifestJson = new() { PropertyNamingPolicy = JsonNamingPolicy.CamelCase, WriteIndented = true };

    private static Manifest? ReadManifest(string folder)
    {
        try
        {
            return JsonSerializer.Deserialize<Manifest>(File.ReadAllText(Path.Combine(folder, "manifest.json")), ManifestJson);
        }
        catch (Exception ex) when (ex is IOException or JsonException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>The cache folder, created private by the state folder's rules (as its parent is).</summary>
    private static string CacheRoot()
    {
        string? configured = Environment.GetEnvironmentVariable("SHARPCLAW_TEST_FIXTURE_CACHE");
        string path = Path.GetFullPath(string.IsNullOrEmpty(configured) ? Path.Combine(StateFolder.RootPath(), "test-fixtures") : configured);
        return StateFolder.Subfolder(StateFolder.Root(Path.GetDirectoryName(path)!), Path.GetFileName(path));
    }

    /// <summary>Entries of older versions of the same fixture and targets, and restores abandoned an hour ago.</summary>
    private static void PruneOtherVersions(string cache, string fixture, IReadOnlyList<string> targets, string key)
    {
        foreach (string folder in Directory.EnumerateDirectories(cache, fixture + ".*"))
        {
            try
            {
                if (folder.EndsWith(".tmp", StringComparison.Ordinal))
                {
                    if (DateTime.UtcNow - Directory.GetLastWriteTimeUtc(folder) > TimeSpan.FromHours(1))
                    {
                        Directory.Delete(folder, recursive: true);
                    }

                    continue;
                }

                Manifest? manifest = ReadManifest(folder);
                if (manifest is not null && manifest.Key != key && manifest.Fixture == fixture && manifest.Targets.SequenceEqual(targets, StringComparer.Ordinal))
                {
                    Directory.Delete(folder, recursive: true);
                }
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // Another process uses or removes it meanwhile.
            }
        }
    }

    /// <summary>
    /// sha256 over the key version, the SDK that restores the fixture, the targets and every file (its
    /// '/'-separated relative path and the sha256 of its bytes, in ordinal order); the first 16 hex.
    /// </summary>
    private static string Key(string source, List<string> files, IReadOnlyList<string> targets)
    {
        StringBuilder text = new();
        text.Append(KeyVersion).Append('\n').Append("sdk ").Append(SdkVersion(source)).Append('\n');
        foreach (string target in targets)
        {
            text.Append("restore ").Append(target).Append('\n');
        }

        foreach (string file in files)
        {
            string hash = Convert.ToHexStringLower(SHA256.HashData(File.ReadAllBytes(Path.Combine(source, file))));
            text.Append("file ").Append(file).Append(' ').Append(hash).Append('\n');
        }

        return Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(text.ToString())))[..16];
    }

    /// <summary>The SDK <c>dotnet</c> picks in <paramref name="dir"/> (its global.json included).</summary>
    private static string SdkVersion(string dir) =>
        SdkVersions.GetOrAdd(dir, d =>
        {
            (int exitCode, string output) = FixtureWorkspace.Dotnet(d, ["--version"]);
            Assert.True(exitCode == 0, $"dotnet --version failed in {d}:\n{output}");
            return output.Trim();
        });

    /// <summary>Files below <paramref name="dir"/> as '/'-separated relative paths in ordinal order, leaving out folders <paramref name="keep"/> refuses.</summary>
    private static List<string> ListFiles(string dir, Func<string, bool> keep)
    {
        List<string> found = [];
        void Walk(string folder, string prefix)
        {
            foreach (string file in Directory.EnumerateFiles(folder))
            {
                found.Add(prefix + Path.GetFileName(file));
            }

            foreach (string sub in Directory.EnumerateDirectories(folder))
            {
                string name = Path.GetFileName(sub);
                if (keep(name))
                {
                    Walk(sub, prefix + name + "/");
                }
            }
        }

        Walk(dir, string.Empty);
        found.Sort(StringComparer.Ordinal);
        return found;
    }

    internal static void CopyDirectory(string source, string destination, Func<string, bool> keep)
    {
        Directory.CreateDirectory(destination);
        foreach (string file in Directory.EnumerateFiles(source))
        {
            File.Copy(file, Path.Combine(destination, Path.GetFileName(file)));
        }

        foreach (string directory in Directory.EnumerateDirectories(source))
        {
            string name = Path.GetFileName(directory);
            if (keep(name))
            {
                CopyDirectory(directory, Path.Combine(destination, name), keep);
            }
        }
    }

    /// <summary>Replaces the folder a restore ran in by <paramref name="to"/> in one of its output files, as written and as JSON escapes it.</summary>
    private static void RewritePaths(string file, string from, string to)
    {
        string text = File.ReadAllText(file);
        string rewritten = text.Replace(from, to, StringComparison.Ordinal);
        string escapedFrom = JsonEncodedText.Encode(from).ToString();
        if (escapedFrom != from)
        {
            rewritten = rewritten.Replace(escapedFrom, JsonEncodedText.Encode(to).ToString(), StringComparison.Ordinal);
        }

        if (!ReferenceEquals(rewritten, text) && rewritten != text)
        {
            File.WriteAllText(file, rewritten);
        }
    }

    private sealed record Entry(string Folder, Manifest Manifest);

    private sealed record Manifest(string Fixture, string[] Targets, string Key, string RestoredAt, string[] RestoreOutput);
}
