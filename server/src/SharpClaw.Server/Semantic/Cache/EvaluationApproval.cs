using SharpClaw.Protocol.Semantic;
using SharpClaw.Server.Infrastructure;
using SharpClaw.Server.Semantic.Authorization;
using SharpClaw.Server.Semantic.Contexts;
using SharpClaw.Server.Semantic.Fingerprints;
using SharpClaw.Server.Toolchain;

namespace SharpClaw.Server.Semantic.Cache;

/// <summary>
/// Before the cache lets MSBuild evaluate a target (a load, a reload, an evaluation-only pass): why it must, and the
/// client's answer, asked with no lock of the cache held but the request's own key lock, so cached queries, status
/// and shutdown go on while a person decides. A null authorizer never grants.
/// </summary>
internal static class EvaluationApproval
{
    /// <summary>Why a loaded context or kept evaluation cannot serve <paramref name="request"/>, and the workspace-relative files behind it.</summary>
    public static (EvaluationReason Reason, IReadOnlyList<string> Changed) Why(ContextRequest request, FingerprintCheck check, ContextFingerprint fingerprint)
    {
        string workspace = request.Target.Workspace;
        return check.IsStructural
            ? (EvaluationReason.StructuralChange, check.StructuralChanges.Select(p => PathUtil.ToWorkspaceRelative(workspace, p)).Distinct().ToList())
            : (EvaluationReason.DynamicImports, fingerprint.DynamicImports.Select(d => PathUtil.ToWorkspaceRelative(workspace, d.File)).Distinct().ToList());
    }

    /// <summary>Returns when <paramref name="authorizer"/> grants the evaluation; throws the typed failure otherwise (no SDK, no authorizer, denied).</summary>
    public static async Task AskAsync(
        ContextRequest request, IEvaluationAuthorizer? authorizer, EvaluationReason reason, IReadOnlyList<string> changed, HostLog? log, CancellationToken cancellationToken)
    {
        string what = reason switch
        {
            EvaluationReason.ColdLoad => $"'{request.Target.RelativeTarget}' is not loaded yet",
            EvaluationReason.StructuralChange => $"build files of '{request.Target.RelativeTarget}' changed ({string.Join(", ", changed.Take(5))}{(changed.Count > 5 ? ", ..." : string.Empty)})",
            _ => $"'{request.Target.RelativeTarget}' imports build files through properties or wildcards ({string.Join(", ", changed.Take(5))}), which must be re-evaluated on every call",
        };
        // Checked before anyone is asked: without an SDK no approval could help.
        if (SdkInventory.FindSdks(SdkInventory.FindDotnetRoot()).Count == 0)
        {
            throw SemanticException.MissingPrerequisites(
                "No .NET SDK is installed (looked in the dotnet installation the host runs on). Install one from https://dotnet.microsoft.com/download.",
                command: null);
        }

        if (authorizer is null)
        {
            throw SemanticException.PermissionDenied($"MSBuild evaluation is needed because {what}, and no authorization is available in this context.");
        }

        AuthorizeEvaluationParams parameters = new(
            request.Target.Workspace,
            request.Target.RelativeTarget,
            request.Configuration,
            request.TargetFramework,
            reason,
            changed,
            request.Tool,
            request.Call);
        log?.Debug($"Asking to evaluate {request.Key} ({parameters.Reason}).");
        EvaluationAuthorization answer = await authorizer.AuthorizeAsync(parameters, cancellationToken).ConfigureAwait(false);
        if (!answer.Granted)
        {
            log?.Info($"Evaluation of {request.Key} was not authorized: {answer.Message}");
            throw SemanticException.PermissionDenied(
                $"MSBuild evaluation is needed because {what}, and it was not authorized: {answer.Message ?? "denied"}");
        }
    }
}
