using SharpClaw.Server.Hosting;

namespace SharpClaw.Server.Tests;

public sealed class CommandLineOptionsTests
{
    [Fact]
    public void NoArguments_MeansDefaults()
    {
        Assert.True(CommandLineOptions.TryParse([], out CommandLineOptions options, out string? error));
        Assert.Null(error);
        Assert.Equal(new CommandLineOptions(), options);
    }

    [Theory]
    [InlineData("--log-directory", "/tmp/logs", "--clientProcessId", "42")]
    [InlineData("--log-directory=/tmp/logs", "--clientProcessId=42", "--stdio")]
    public void BothSpellings_AreAccepted(params string[] args)
    {
        Assert.True(CommandLineOptions.TryParse(args, out CommandLineOptions options, out _));
        Assert.Equal("/tmp/logs", options.LogDirectory);
        Assert.Equal(42, options.ClientProcessId);
    }

    [Fact]
    public void StateDirectory_IsTakenFromTheClient()
    {
        Assert.True(CommandLineOptions.TryParse(["--state-directory", "/home/u/.cache/sharpclaw"], out CommandLineOptions options, out _));
        Assert.Equal("/home/u/.cache/sharpclaw", options.StateDirectory);
        Assert.False(CommandLineOptions.TryParse(["--state-directory"], out _, out _));
    }

    [Fact]
    public void StoreDirectory_AndTheResidentHostsOptions_AreParsed()
    {
        Assert.True(CommandLineOptions.TryParse(["--store-directory", "/ext/store", "--listen", "/s/hosts/h.sock", "--idle-exit=30"], out CommandLineOptions options, out _));
        Assert.Equal(("/ext/store", "/s/hosts/h.sock", TimeSpan.FromSeconds(30)), (options.StoreDirectory, options.Listen, options.IdleExit));
        Assert.Equal(TimeSpan.FromSeconds(600), new CommandLineOptions().IdleExit);
        Assert.False(CommandLineOptions.TryParse(["--idle-exit", "0"], out _, out string? error));
        Assert.Contains("1 to 86400", error, StringComparison.Ordinal);
    }

    [Fact]
    public void PrintProtocolSchema_IsAFlag()
    {
        Assert.True(CommandLineOptions.TryParse(["--print-protocol-schema"], out CommandLineOptions options, out _));
        Assert.True(options.PrintProtocolSchema);
    }

    [Theory]
    [InlineData("--bogus")]
    [InlineData("positional")]
    [InlineData("--clientProcessId")]
    [InlineData("--clientProcessId", "abc")]
    [InlineData("--clientProcessId", "-5")]
    [InlineData("--log-directory")]
    [InlineData("--stdio=yes")]
    public void InvalidArguments_AreRejectedWithAMessage(params string[] args)
    {
        Assert.False(CommandLineOptions.TryParse(args, out _, out string? error));
        Assert.False(string.IsNullOrWhiteSpace(error));
    }
}
