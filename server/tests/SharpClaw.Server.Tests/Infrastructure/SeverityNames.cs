using Microsoft.CodeAnalysis;

namespace SharpClaw.Server.Tests.Infrastructure;

/// <summary>The diagnostics tool's severity names, lowest first, and Roslyn's severities mapped onto them (for tests that compare with a direct Roslyn call).</summary>
internal static class SeverityNames
{
    /// <summary>The values of the tool's <c>severity</c>, lowest first: an index is a rank.</summary>
    public static readonly string[] All = ["hint", "information", "warning", "error"];

    public static int Rank(DiagnosticSeverity severity) => severity switch
    {
        DiagnosticSeverity.Error => 3,
        DiagnosticSeverity.Warning => 2,
        DiagnosticSeverity.Info => 1,
        _ => 0,
    };

    public static string Name(DiagnosticSeverity severity) => All[Rank(severity)];
}
