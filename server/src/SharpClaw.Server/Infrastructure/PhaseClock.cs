using System.Diagnostics;
using System.Globalization;

namespace SharpClaw.Server.Infrastructure;

/// <summary>Where one request's time went, phase by phase, for its log line ("walk 812 ms, test counts 40 ms").</summary>
internal sealed class PhaseClock
{
    private readonly List<string> laps = [];
    private long last = Stopwatch.GetTimestamp();

    /// <summary>Ends the phase named <paramref name="phase"/> now; the next starts.</summary>
    public void Lap(string phase)
    {
        long now = Stopwatch.GetTimestamp();
        this.laps.Add(string.Create(CultureInfo.InvariantCulture, $"{phase} {Stopwatch.GetElapsedTime(this.last, now).TotalMilliseconds:F0} ms"));
        this.last = now;
    }

    public override string ToString() => string.Join(", ", this.laps);
}
