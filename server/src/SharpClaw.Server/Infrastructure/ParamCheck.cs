using SharpClaw.Protocol;

namespace SharpClaw.Server.Infrastructure;

/// <summary>
/// Checks a param against the rule its protocol record states (<see cref="BoundsAttribute"/>,
/// <see cref="OneOfAttribute{T}"/>): the value to use, or a typed InvalidRequest naming the param and what is valid.
/// The rules themselves live once, on the records; this only turns their verdict into the host's error.
/// </summary>
internal static class ParamCheck
{
    /// <summary>An integer param within its bounds, or its default when absent.</summary>
    public static int Bounded<TParams>(string property, int? value) =>
        ParamRules.TryBound<TParams>(property, value, out int bounded, out string problem) ? bounded : throw SemanticException.InvalidRequest(problem);

    /// <summary>Fails unless a list param's length is within its bounds.</summary>
    public static void Count<TParams>(string property, int count)
    {
        if (!ParamRules.TryCount<TParams>(property, count, out string problem))
        {
            throw SemanticException.InvalidRequest(problem);
        }
    }

    /// <summary>A string param as listed in its value set (sent trimmed, in any case).</summary>
    public static string OneOf<TParams>(string property, string? value) =>
        ParamRules.TryOneOf<TParams>(property, value, out string matched, out string problem) ? matched : throw SemanticException.InvalidRequest(problem);
}
