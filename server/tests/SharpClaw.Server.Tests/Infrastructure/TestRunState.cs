using System.Runtime.CompilerServices;
using SharpClaw.Server.Infrastructure;

namespace SharpClaw.Server.Tests.Infrastructure;

/// <summary>
/// The state folder of this test run: every host the tests start in memory or as a process, without a
/// state folder of their own, keeps its stores, snapshots, locks and journals in one private temporary
/// folder (SHARPCLAW_STATE_DIR, inherited by the processes) — never in the person's own
/// ~/.cache/sharpclaw/workspaces, which collected an entry per deleted temporary workspace. Under `npm test`
/// the layer makes the folder and names it in SHARPCLAW_TEST_STATE_DIR, and removes it once every process
/// it started has ended (scripts/layer-folder.mjs): removed here on exit, the hosts' last background write
/// could bring it back. Run on its own (`dotnet test`), the run makes it and removes it on exit.
/// The fixture cache (<see cref="FixtureCache"/>) is resolved from the person's state folder first, so it
/// outlives the run.
/// </summary>
internal static class TestRunState
{
    public static string Root { get; private set; } = string.Empty;

    [ModuleInitializer]
    internal static void Initialize()
    {
        if (string.IsNullOrEmpty(Environment.GetEnvironmentVariable("SHARPCLAW_TEST_FIXTURE_CACHE")))
        {
            Environment.SetEnvironmentVariable("SHARPCLAW_TEST_FIXTURE_CACHE", Path.Combine(StateFolder.RootPath(), "test-fixtures"));
        }

        string? layerState = Environment.GetEnvironmentVariable("SHARPCLAW_TEST_STATE_DIR");
        if (!string.IsNullOrEmpty(layerState) && Directory.Exists(layerState))
        {
            Root = layerState;
            Environment.SetEnvironmentVariable("SHARPCLAW_STATE_DIR", Root);
            return;
        }

        Root = Directory.CreateTempSubdirectory("sharpclaw-tests-state-").FullName;
        Environment.SetEnvironmentVariable("SHARPCLAW_STATE_DIR", Root);
        AppDomain.CurrentDomain.ProcessExit += (_, _) =>
        {
            try
            {
                Directory.Delete(Root, recursive: true);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // A host process may still hold a file; the OS temp cleanup will get it.
            }
        };
    }
}
