using System.Collections.Concurrent;
using System.Reflection;
using System.Text.Json;

namespace SharpClaw.Protocol;

/// <summary>
/// The range an integer param (or a list param's length) must fall in, and the value the host uses when the
/// param is absent. Written once, on the param's record property: the host checks params against it
/// (<see cref="ParamRules"/>) and <see cref="ProtocolSchema"/> exports it as <c>minimum</c> / <c>maximum</c> /
/// <c>default</c> (<c>minItems</c> / <c>maxItems</c> for a list), which the client's drift test compares with
/// its zod schemas.
/// </summary>
[AttributeUsage(AttributeTargets.Property, Inherited = true)]
public class BoundsAttribute : Attribute
{
    public BoundsAttribute(int minimum, int maximum)
    {
        this.Minimum = minimum;
        this.Maximum = maximum;
    }

    protected BoundsAttribute(int minimum, int maximum, int defaultValue)
        : this(minimum, maximum)
    {
        this.Default = defaultValue;
    }

    public int Minimum { get; }

    public int Maximum { get; }

    /// <summary>The value used when the param is absent; <see cref="NoDefault"/> when absence has no value (a required list).</summary>
    public int Default { get; init; } = NoDefault;

    public const int NoDefault = int.MinValue;

    public bool HasDefault => this.Default != NoDefault;
}

/// <summary>The offset of a paged list: 0 or more (up to the host's C# int), default 0.</summary>
public sealed class PageOffsetAttribute() : BoundsAttribute(0, int.MaxValue, 0);

/// <summary>The limit of a paged list: 1 to 200 items, default 50.</summary>
public sealed class PageLimitAttribute() : BoundsAttribute(1, 200, 50);

/// <summary>A fixed set of string values, listed once (a class implementing this with its list).</summary>
public interface IValueSet
{
    static abstract IReadOnlyList<string> Values { get; }
}

/// <summary>What <see cref="OneOfAttribute{T}"/> gives readers that do not know its type argument.</summary>
public interface IOneOf
{
    IReadOnlyList<string> Values { get; }
}

/// <summary>
/// A string param takes one of the values of <typeparamref name="T"/>; exported as the schema's <c>enum</c>. The
/// host reads the value leniently (trimmed, any case) and answers a typed InvalidRequest listing the values otherwise.
/// </summary>
[AttributeUsage(AttributeTargets.Property, Inherited = true)]
public sealed class OneOfAttribute<T> : Attribute, IOneOf
    where T : IValueSet
{
    public IReadOnlyList<string> Values => T.Values;
}

/// <summary>
/// Reads the <see cref="BoundsAttribute"/> and <see cref="OneOfAttribute{T}"/> rules of a params record and
/// checks values against them, with the messages every host method gives.
/// </summary>
public static class ParamRules
{
    private static readonly ConcurrentDictionary<(Type, string), PropertyInfo> Properties = new();

    /// <summary>The bounds of <typeparamref name="TParams"/>'s <paramref name="property"/> (a C# property name).</summary>
    public static BoundsAttribute BoundsOf<TParams>(string property) =>
        PropertyOf<TParams>(property).GetCustomAttribute<BoundsAttribute>(inherit: true)
            ?? throw new InvalidOperationException($"{typeof(TParams).Name}.{property} has no [Bounds].");

    /// <summary>The values <typeparamref name="TParams"/>'s <paramref name="property"/> takes.</summary>
    public static IReadOnlyList<string> ValuesOf<TParams>(string property) =>
        PropertyOf<TParams>(property).GetCustomAttributes(inherit: true).OfType<IOneOf>().FirstOrDefault()?.Values
            ?? throw new InvalidOperationException($"{typeof(TParams).Name}.{property} has no [OneOf].");

    /// <summary>
    /// The param's value within its bounds, or its default when absent. False with what is wrong, naming the
    /// param as it travels (camelCase) and its range, when the value is out of bounds or absent without a default.
    /// </summary>
    public static bool TryBound<TParams>(string property, int? value, out int bounded, out string problem)
    {
        BoundsAttribute bounds = BoundsOf<TParams>(property);
        string name = JsonNamingPolicy.CamelCase.ConvertName(property);
        problem = string.Empty;
        bounded = value ?? bounds.Default;
        if (value is null && !bounds.HasDefault)
        {
            problem = $"'{name}' is required ({Range(bounds)}).";
            return false;
        }

        if (bounded < bounds.Minimum || bounded > bounds.Maximum)
        {
            problem = bounds.Maximum == int.MaxValue ? $"'{name}' must be {bounds.Minimum} or more." : $"'{name}' must be between {bounds.Minimum} and {bounds.Maximum}.";
            return false;
        }

        return true;
    }

    /// <summary>Whether a list param's length is within its bounds; false with what is wrong otherwise.</summary>
    public static bool TryCount<TParams>(string property, int count, out string problem)
    {
        BoundsAttribute bounds = BoundsOf<TParams>(property);
        string name = JsonNamingPolicy.CamelCase.ConvertName(property);
        bool within = count >= bounds.Minimum && count <= bounds.Maximum;
        problem = within ? string.Empty : $"'{name}' needs {bounds.Minimum} to {bounds.Maximum} items, not {count}.";
        return within;
    }

    /// <summary>
    /// The param's value as listed (trimmed, any case accepted); false with a message listing the valid values
    /// (and the value sent, when there was one) otherwise.
    /// </summary>
    public static bool TryOneOf<TParams>(string property, string? value, out string matched, out string problem)
    {
        IReadOnlyList<string> values = ValuesOf<TParams>(property);
        string name = JsonNamingPolicy.CamelCase.ConvertName(property);
        string wanted = value?.Trim() ?? string.Empty;
        matched = values.FirstOrDefault(v => string.Equals(v, wanted, StringComparison.OrdinalIgnoreCase)) ?? string.Empty;
        problem = matched.Length > 0 ? string.Empty : $"'{name}' must be one of {string.Join(", ", values)}{(string.IsNullOrWhiteSpace(value) ? string.Empty : $", not '{value}'")}.";
        return matched.Length > 0;
    }

    private static string Range(BoundsAttribute bounds) =>
        bounds.Maximum == int.MaxValue ? $"{bounds.Minimum} or more" : $"{bounds.Minimum} to {bounds.Maximum}";

    private static PropertyInfo PropertyOf<TParams>(string property) =>
        Properties.GetOrAdd((typeof(TParams), property), key =>
            key.Item1.GetProperty(key.Item2, BindingFlags.Public | BindingFlags.Instance)
                ?? throw new InvalidOperationException($"{key.Item1.Name} has no property {key.Item2}."));
}
