using System.Runtime.InteropServices;

namespace SharpClaw.Server.Toolchain;

/// <summary>
/// The SDK <c>dotnet</c> picks in a folder, found in this process by the .NET host's own resolver
/// (<c>hostfxr_resolve_sdk2</c>: global.json from the folder up with its rollForward, allowPrerelease and
/// paths, against the installed SDKs), the call the muxer makes for <c>dotnet --version</c> or
/// <c>dotnet build</c> there. The verifier's SDK check asks this before it starts a <c>dotnet --version</c>
/// process (most of a tenth of a second, on a first run's critical path). It answers only where no
/// global.json applies: the SDK itself parses global.json again, more strictly than hostfxr (a trailing
/// comma that hostfxr accepts makes <c>dotnet --version</c> fail), so with one the command's own answer
/// is the only exact one. Anything short of a clean answer — a global.json, no hostfxr, no SDK, a
/// message from the resolver — is <see cref="SdkResolution.Version"/> null, and the verifier runs the
/// real command, whose output names any problem. Only the installation this host runs on is asked: a
/// request never names a library to load.
/// </summary>
public static class SdkResolver
{
    // hostfxr_resolve_sdk2's flags: the muxer allows prerelease SDKs unless global.json says otherwise (disallow_prerelease, 0x1, is what Visual Studio asks).
    private const int MuxerFlags = 0;
    private const int ResolvedSdkDir = 0;
    private const int GlobalJsonPath = 1;

    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    private delegate int ResolveSdk2(IntPtr exeDir, IntPtr workingDir, int flags, ResultCallback result);

    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    private delegate void ResultCallback(int key, IntPtr value);

    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    private delegate IntPtr SetErrorWriter(IntPtr writer);

    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    private delegate void ErrorWriter(IntPtr message);

    /// <summary>What the resolver answered for <paramref name="folder"/> with the installation at <paramref name="dotnetRoot"/>.</summary>
    /// <param name="dotnetRoot">The installation's root (the muxer's folder): its host/fxr and sdk folders are read.</param>
    /// <param name="folder">Where global.json is looked for, upwards: the folder the command would run in.</param>
    public static SdkResolution Resolve(string dotnetRoot, string folder)
    {
        if (AppliedGlobalJson(folder) is not null)
        {
            return SdkResolution.Unresolved(dotnetRoot, "a global.json applies, which dotnet --version parses itself");
        }

        string? library = FindHostFxr(dotnetRoot);
        if (library is null)
        {
            return SdkResolution.Unresolved(dotnetRoot, "no hostfxr under host/fxr");
        }

        if (!NativeLibrary.TryLoad(library, out IntPtr handle)
            || !NativeLibrary.TryGetExport(handle, "hostfxr_resolve_sdk2", out IntPtr resolveExport)
            || !NativeLibrary.TryGetExport(handle, "hostfxr_set_error_writer", out IntPtr writerExport))
        {
            return SdkResolution.Unresolved(dotnetRoot, $"{Path.GetFileName(library)} has no hostfxr_resolve_sdk2");
        }

        ResolveSdk2 resolve = Marshal.GetDelegateForFunctionPointer<ResolveSdk2>(resolveExport);
        SetErrorWriter setWriter = Marshal.GetDelegateForFunctionPointer<SetErrorWriter>(writerExport);
        string? sdkDirectory = null;
        string? globalJson = null;
        List<string> messages = [];
        ResultCallback onResult = (key, value) =>
        {
            if (key == ResolvedSdkDir)
            {
                sdkDirectory = FromNative(value);
            }
            else if (key == GlobalJsonPath)
            {
                globalJson = FromNative(value);
            }
        };
        ErrorWriter onMessage = message => messages.Add(FromNative(message) ?? string.Empty);
        IntPtr exeDir = ToNative(dotnetRoot);
        IntPtr workingDir = ToNative(folder);
        int status;
        // hostfxr keeps one error writer per thread: ours catches what it would print to the host's stderr.
        IntPtr previous = setWriter(Marshal.GetFunctionPointerForDelegate(onMessage));
        try
        {
            status = resolve(exeDir, workingDir, MuxerFlags, onResult);
        }
        finally
        {
            setWriter(previous);
            Marshal.FreeHGlobal(exeDir);
            Marshal.FreeHGlobal(workingDir);
            GC.KeepAlive(onResult);
            GC.KeepAlive(onMessage);
        }

        if (globalJson is not null)
        {
            return SdkResolution.Unresolved(dotnetRoot, "the resolver read a global.json, which dotnet --version parses itself");
        }

        if (status != 0 || sdkDirectory is null)
        {
            return SdkResolution.Unresolved(dotnetRoot, $"hostfxr_resolve_sdk2 returned 0x{status:x8}{(messages.Count > 0 ? $": {messages[0]}" : string.Empty)}");
        }

        if (messages.Count > 0)
        {
            return SdkResolution.Unresolved(dotnetRoot, $"the resolver said: {messages[0]}");
        }

        string version = Path.GetFileName(Path.TrimEndingDirectorySeparator(sdkDirectory));
        return File.Exists(Path.Combine(sdkDirectory, "dotnet.dll")) && SdkVersion.TryParse(version, out _)
            ? new SdkResolution(dotnetRoot, version, null)
            : SdkResolution.Unresolved(dotnetRoot, $"the resolved SDK folder {version} is not an SDK");
    }

    /// <summary>The first global.json from <paramref name="folder"/> up to the file system's root, where the muxer looks.</summary>
    private static string? AppliedGlobalJson(string folder)
    {
        for (DirectoryInfo? directory = new(folder); directory is not null; directory = directory.Parent)
        {
            string candidate = Path.Combine(directory.FullName, "global.json");
            if (File.Exists(candidate))
            {
                return candidate;
            }
        }

        return null;
    }

    /// <summary>The hostfxr the muxer at <paramref name="dotnetRoot"/> loads: host/fxr's highest version.</summary>
    private static string? FindHostFxr(string dotnetRoot)
    {
        string fxr = Path.Combine(dotnetRoot, "host", "fxr");
        string name = OperatingSystem.IsWindows() ? "hostfxr.dll" : OperatingSystem.IsMacOS() ? "libhostfxr.dylib" : "libhostfxr.so";
        try
        {
            return Directory.EnumerateDirectories(fxr)
                .Select(directory => (Directory: directory, Parsed: SdkVersion.TryParse(Path.GetFileName(directory), out SdkVersion version), Version: version))
                .Where(candidate => candidate.Parsed && File.Exists(Path.Combine(candidate.Directory, name)))
                .OrderByDescending(candidate => candidate.Version)
                .Select(candidate => Path.Combine(candidate.Directory, name))
                .FirstOrDefault();
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    // hostfxr's char_t: UTF-16 on Windows, UTF-8 elsewhere.
    private static IntPtr ToNative(string text) => OperatingSystem.IsWindows() ? Marshal.StringToHGlobalUni(text) : StringToHGlobalUtf8(text);

    private static string? FromNative(IntPtr text) => OperatingSystem.IsWindows() ? Marshal.PtrToStringUni(text) : Marshal.PtrToStringUTF8(text);

    private static IntPtr StringToHGlobalUtf8(string text)
    {
        byte[] bytes = System.Text.Encoding.UTF8.GetBytes(text);
        IntPtr native = Marshal.AllocHGlobal(bytes.Length + 1);
        Marshal.Copy(bytes, 0, native, bytes.Length);
        Marshal.WriteByte(native, bytes.Length, 0);
        return native;
    }
}

/// <summary>The SDK version <c>dotnet</c> would run in a folder, or null with the reason it could not be told.</summary>
public sealed record SdkResolution(string DotnetRoot, string? Version, string? Reason)
{
    public static SdkResolution Unresolved(string dotnetRoot, string reason) => new(dotnetRoot, null, reason);
}
