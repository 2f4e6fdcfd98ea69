using System.Diagnostics;

namespace SharpClaw.Server.Tests.Infrastructure;

/// <summary>Waiting without fixed sleeps: poll a condition until it holds or the timeout passes.</summary>
internal static class Poll
{
    public static async Task<bool> UntilAsync(Func<bool> condition, TimeSpan timeout, TimeSpan? interval = null)
    {
        Stopwatch stopwatch = Stopwatch.StartNew();
        while (!condition())
        {
            if (stopwatch.Elapsed > timeout)
            {
                return condition();
            }

            await Task.Delay(interval ?? TimeSpan.FromMilliseconds(50));
        }

        return true;
    }

    /// <summary>Awaits <paramref name="task"/> but fails the test instead of hanging past the timeout.</summary>
    public static async Task<T> WithTimeout<T>(Task<T> task, TimeSpan timeout, string what)
    {
        Task finished = await Task.WhenAny(task, Task.Delay(timeout));
        Assert.True(finished == task, $"Timed out after {timeout.TotalSeconds:0.#} s waiting for {what}.");
        return await task;
    }
}
