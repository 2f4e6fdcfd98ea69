namespace SharpClaw.Protocol;

// The string value sets of the protocol's params ([OneOf<…>] on the records), each listed once. They are rules,
// not records that travel, so they live beside ParamRules rather than among the records.

/// <summary>The actions of navigate and of each bulk navigate query: the one list (the schema's enum, the host's check).</summary>
public sealed class NavigateActions : IValueSet
{
    private NavigateActions()
    {
    }

    public static IReadOnlyList<string> Values { get; } =
        ["definition", "type_definition", "implementation", "references", "reads", "writes", "callers", "callees", "supertypes", "subtypes", "hover", "source", "members", "impact", "tests"];
}

/// <summary>The severities of a diagnostics request, lowest first (a minimum includes those after it).</summary>
public sealed class DiagnosticSeverities : IValueSet
{
    private DiagnosticSeverities()
    {
    }

    public static IReadOnlyList<string> Values { get; } = ["hint", "information", "warning", "error"];
}
