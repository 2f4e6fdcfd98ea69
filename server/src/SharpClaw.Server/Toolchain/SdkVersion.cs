using System.Globalization;

namespace SharpClaw.Server.Toolchain;

/// <summary>
/// A semantic version as used by SDK folder names ("10.0.401", "11.0.100-preview.3.25201.16"),
/// ordered by SemVer 2.0 precedence: numeric core, then a release above any of its pre-releases,
/// then pre-release identifiers (numeric ones numerically, below alphanumeric ones).
/// </summary>
public readonly struct SdkVersion : IComparable<SdkVersion>
{
    private SdkVersion(int[] core, string[] preRelease, string text)
    {
        this.Core = core;
        this.PreRelease = preRelease;
        this.Text = text;
    }

    public IReadOnlyList<int> Core { get; }

    public IReadOnlyList<string> PreRelease { get; }

    public string Text { get; }

    public static bool TryParse(string text, out SdkVersion version)
    {
        version = default;
        string withoutMetadata = text.Split('+', 2)[0];
        string[] parts = withoutMetadata.Split('-', 2);
        string[] coreParts = parts[0].Split('.');
        if (coreParts.Length is < 2 or > 4)
        {
            return false;
        }

        int[] core = new int[coreParts.Length];
        for (int i = 0; i < coreParts.Length; i++)
        {
            if (!int.TryParse(coreParts[i], NumberStyles.None, CultureInfo.InvariantCulture, out core[i]))
            {
                return false;
            }
        }

        string[] preRelease = parts.Length > 1 ? parts[1].Split('.') : [];
        if (preRelease.Any(string.IsNullOrEmpty))
        {
            return false;
        }

        version = new SdkVersion(core, preRelease, text);
        return true;
    }

    public int CompareTo(SdkVersion other)
    {
        int length = Math.Max(this.Core.Count, other.Core.Count);
        for (int i = 0; i < length; i++)
        {
            int a = i < this.Core.Count ? this.Core[i] : 0;
            int b = i < other.Core.Count ? other.Core[i] : 0;
            if (a != b)
            {
                return a.CompareTo(b);
            }
        }

        // A release outranks its pre-releases.
        if (this.PreRelease.Count == 0 || other.PreRelease.Count == 0)
        {
            return other.PreRelease.Count.CompareTo(this.PreRelease.Count) is var byPresence and not 0
                ? byPresence
                : string.CompareOrdinal(this.Text, other.Text);
        }

        for (int i = 0; i < Math.Min(this.PreRelease.Count, other.PreRelease.Count); i++)
        {
            int byIdentifier = CompareIdentifier(this.PreRelease[i], other.PreRelease[i]);
            if (byIdentifier != 0)
            {
                return byIdentifier;
            }
        }

        return this.PreRelease.Count != other.PreRelease.Count
            ? this.PreRelease.Count.CompareTo(other.PreRelease.Count)
            : string.CompareOrdinal(this.Text, other.Text);
    }

    public override string ToString() => this.Text;

    private static int CompareIdentifier(string a, string b)
    {
        bool aNumeric = long.TryParse(a, NumberStyles.None, CultureInfo.InvariantCulture, out long aNumber);
        bool bNumeric = long.TryParse(b, NumberStyles.None, CultureInfo.InvariantCulture, out long bNumber);
        return (aNumeric, bNumeric) switch
        {
            (true, true) => aNumber.CompareTo(bNumber),
            (true, false) => -1,
            (false, true) => 1,
            _ => string.CompareOrdinal(a, b),
        };
    }
}
