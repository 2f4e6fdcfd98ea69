using System.Globalization;
using System.Text;

namespace SharpClaw.Bench;

/// <summary>
/// Writes a small solution shaped like the multi-targeted real ones issue 39 measured: a core library with five
/// target frameworks (net10.0, net9.0, net8.0, netstandard2.0, net472 — all restore here from the NuGet source)
/// and two adapters with three and two frameworks referencing it. Every core file carries what the SDK
/// analyzers report below warning by default (members that could be static, empty array allocations, default
/// initializers, unused usings), one file in five a compiler warning (an unused local), and the files under
/// Core/Strict/ an .editorconfig that raises CA1822 to error and CA1825 to warning — so a diagnostics
/// answer at "warning" or "error" depends on the per-tree effective severities.
/// </summary>
public static class MultiTargetSynthetic
{
    public const string CoreFrameworks = "net10.0;net9.0;net8.0;netstandard2.0;net472";

    public static string Generate(string output, int coreFiles)
    {
        if (Directory.Exists(output))
        {
            Directory.Delete(output, recursive: true);
        }

        Directory.CreateDirectory(output);
        StringBuilder solution = new("<Solution>\n");
        WriteProject(output, "Core", CoreFrameworks, [], coreFiles, strictEvery: 4);
        WriteProject(output, "Adapter.Modern", "net10.0;net9.0;net8.0", ["Core"], Math.Max(2, coreFiles / 4), strictEvery: 0);
        WriteProject(output, "Adapter.Legacy", "netstandard2.0;net472", ["Core"], Math.Max(2, coreFiles / 4), strictEvery: 0);
        foreach (string name in new[] { "Core", "Adapter.Modern", "Adapter.Legacy" })
        {
            solution.Append(CultureInfo.InvariantCulture, $"  <Project Path=\"src/{name}/{name}.csproj\" />\n");
        }

        solution.Append("</Solution>\n");
        string path = Path.Combine(output, "Multi.slnx");
        File.WriteAllText(path, solution.ToString());
        return path;
    }

    private static void WriteProject(string output, string name, string frameworks, string[] references, int files, int strictEvery)
    {
        string directory = Path.Combine(output, "src", name);
        Directory.CreateDirectory(directory);
        string referenceItems = references.Length == 0 ? string.Empty
            : "  <ItemGroup>\n" + string.Concat(references.Select(r => $"    <ProjectReference Include=\"../{r}/{r}.csproj\" />\n")) + "  </ItemGroup>\n";
        File.WriteAllText(Path.Combine(directory, name + ".csproj"), $"""
            <Project Sdk="Microsoft.NET.Sdk">
              <PropertyGroup>
                <TargetFrameworks>{frameworks}</TargetFrameworks>
                <LangVersion>latest</LangVersion>
                <Nullable>enable</Nullable>
              </PropertyGroup>
            {referenceItems}</Project>

            """);
        if (strictEvery > 0)
        {
            Directory.CreateDirectory(Path.Combine(directory, "Strict"));
            File.WriteAllText(Path.Combine(directory, "Strict", ".editorconfig"), """
                [*.cs]
                dotnet_diagnostic.CA1822.severity = error
                dotnet_diagnostic.CA1825.severity = warning

                """);
        }

        string space = name.Replace(".", string.Empty, StringComparison.Ordinal);
        for (int f = 0; f < files; f++)
        {
            bool strict = strictEvery > 0 && f % strictEvery == 0;
            string folder = strict ? Path.Combine(directory, "Strict") : directory;
            string unused = f % 5 == 0 ? "\n            int unused;" : string.Empty;
            string call = references.Length == 0 ? "value" : string.Create(CultureInfo.InvariantCulture, $"new global::Core.Worker{f % 4:00}().Add(value)");
            File.WriteAllText(Path.Combine(folder, string.Create(CultureInfo.InvariantCulture, $"Worker{f:00}.cs")), string.Create(CultureInfo.InvariantCulture, $$"""
                using System;
                using System.Collections.Generic;
                using System.Text;

                namespace {{space}};

                /// <summary>Synthetic worker {{f}} of {{name}}.</summary>
                public class Worker{{f:00}}
                {
                    private int count = 0;

                    public int Count => this.count;

                    public int Add(int value)
                    {{{unused}}
                        return {{call}} + {{f}};
                    }

                    public int[] Empty() => new int[0];

                    public List<int> Range(int length)
                    {
                        List<int> result = new List<int>();
                        for (int i = 0; i < length; i++)
                        {
                            result.Add(this.Add(i));
                        }

                        this.count += result.Count;
                        return result;
                    }

                    public string Describe(int value) => "Worker{{f:00}}(" + value + ") = " + this.Add(value);
                }

                """));
        }
    }
}
