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
internal static class MultiTargetSynthetic
{
    public const string CoreFrameworks = "net10.0;net9.0;net8.0;netstandard2.0;net472";

    /// <summary>What the benches ask of one shape: the project whose diagnostics are measured (and the file each
    /// iteration edits), the file the rename preview bench edits, the rename row's measure, the query targets.</summary>
    public sealed record Plan(string Shape, string Description, string DiagnosticsProject, int DiagnosticsFrameworks, string DiagnosticsEditedFile, string RenameEditedFile, string RenameMeasure, QueryBenchmark.Targets? Queries);

    /// <summary>"multi" (default): the small three-project shape of <see cref="Generate(string, int)"/>; "real12": <see cref="GenerateRealShaped"/>.</summary>
    public static Plan PlanFor(string shape, int coreFiles) => shape switch
    {
        "multi" => new(
            shape,
            $"Core: {CoreFrameworks}; adapters with 3 and 2 frameworks",
            "Core",
            5,
            "src/Core/Worker01.cs",
            "src/Core/Worker10.cs",
            "rename preview of a method declared in a 5-framework core and called from both adapters (5 files, 10 flavours), after an edit",
            null),
        "real12" => new(
            shape,
            $"real-shaped, 31 flavours: {RealShapeDescription(coreFiles)}",
            "Core.Extensions",
            5,
            "src/Core.Extensions/Handler01.cs",
            RealCorePath(10),
            "rename preview of a method declared in the 8-framework core and called from the 5 adapters (real-shaped, 12 projects, 24 flavours to rename in), after an edit",
            new QueryBenchmark.Targets("Core.Extensions", "Core.Extensions.Handler05", "Add", "Core", "Core.Guard", "Check", "Core", "Core.Node", "Core.Extensions", "src/Core.Extensions/Handler05.cs",
                count => string.Create(CultureInfo.InvariantCulture, $"real-shaped multi-targeted synthetic: {count} projects, 31 flavours ({RealShapeDescription(coreFiles)})"))),
        _ => throw new ArgumentException($"Unknown shape '{shape}' (multi, real12)."),
    };

    /// <summary>Writes the solution of <paramref name="shape"/> (see <see cref="PlanFor"/>) and returns its path.</summary>
    public static string Generate(string output, string shape, int coreFiles) =>
        shape == "real12" ? GenerateRealShaped(output, coreFiles) : Generate(output, coreFiles);

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

    /// <summary>The real-shaped solution's twelve projects: path (under the output), frameworks, references, files, class prefix.</summary>
    public const string RealCoreFrameworks = "net10.0;net9.0;net8.0;net6.0;netstandard2.1;netstandard2.0;net472;net462";

    private sealed record RealProject(string Folder, string Name, string Frameworks, string[] References, int Files, string Kind);

    private static RealProject[] RealProjects(int coreFiles) =>
    [
        new("src", "Core", RealCoreFrameworks, [], coreFiles, "core"),
        new("src", "Core.Extensions", "net10.0;net9.0;net8.0;netstandard2.0;net462", ["src/Core"], 39, "adapter"),
        new("src", "Core.Modern", "net10.0;net9.0;net8.0", ["src/Core"], 30, "adapter"),
        new("src", "Core.Legacy", "netstandard2.0;net472", ["src/Core"], 24, "adapter"),
        new("src", "Core.Testing", "net10.0;net8.0;netstandard2.0;net462", ["src/Core"], 20, "adapter"),
        new("src", "Core.Hosting", "net10.0;net8.0", ["src/Core", "src/Core.Extensions"], 16, "adapter"),
        new("tests", "Core.Tests", "net10.0;net8.0", ["src/Core", "src/Core.Testing"], Math.Max(4, coreFiles / 8), "tests"),
        new("tests", "Core.Extensions.Tests", "net10.0", ["src/Core.Extensions", "src/Core.Testing"], 12, "tests"),
        new("tests", "Core.Adapters.Tests", "net10.0", ["src/Core.Modern", "src/Core.Legacy", "src/Core.Hosting"], 10, "tests"),
        new("tests", "Core.Testing.Tests", "net10.0", ["src/Core.Testing"], 6, "tests"),
        new("samples", "Core.Sample", "net10.0", ["src/Core.Hosting"], 4, "exe"),
        new("bench", "Core.Benchmarks", "net10.0", ["src/Core", "src/Core.Modern"], 6, "exe"),
    ];

    /// <summary>The real-shaped solution's projects, frameworks (as ';'-lists) and file counts, for the result files.</summary>
    public static string RealShapeDescription(int coreFiles) => string.Join("; ", RealProjects(coreFiles).Select(p => string.Create(CultureInfo.InvariantCulture, $"{p.Name} {p.Frameworks.Split(';').Length} ({p.Files} files)")));

    /// <summary>Core's source file of worker <paramref name="index"/>, relative to the solution folder (the real shape groups files in folders).</summary>
    public static string RealCorePath(int index) => string.Create(CultureInfo.InvariantCulture, $"src/Core/{(index % 4 == 0 ? "Strict" : RealFolders[index % 3])}/Worker{index:00}.cs");

    private static readonly string[] RealFolders = ["Pipeline", "Retry", "Caching"];

    /// <summary>
    /// Writes the real-shaped solution issue 39 measured (12 projects, 31 project flavours): Core with eight
    /// frameworks (<see cref="RealCoreFrameworks"/>: three current .NET, net6.0, both .NET Standards and two
    /// .NET Framework flavours, all restoring here from the NuGet source), five adapters with two to five
    /// frameworks (Core.Extensions: five frameworks and 39 files, like the project whose diagnostics took 42 s),
    /// four xunit test projects, a sample app and a benchmarks app. Core holds <paramref name="coreFiles"/>
    /// workers in folders, each calling a shared guard and another worker, with per-flavour code under
    /// <c>#if</c>; every adapter file calls a Core worker and the guard, every adapter derives Core's Node; the
    /// tests call Core and the adapters. Core's and Core.Extensions' Strict/ folders carry an .editorconfig
    /// raising CA1822 and CA1825 to warning, so severities differ per tree; the solution builds with
    /// <c>dotnet build</c> (warnings only).
    /// </summary>
    public static string GenerateRealShaped(string output, int coreFiles)
    {
        if (Directory.Exists(output))
        {
            Directory.Delete(output, recursive: true);
        }

        Directory.CreateDirectory(output);
        File.WriteAllText(Path.Combine(output, "Directory.Build.props"), """
            <Project>
              <PropertyGroup>
                <LangVersion>latest</LangVersion>
                <Nullable>enable</Nullable>
                <CheckEolTargetFramework>false</CheckEolTargetFramework>
                <SuppressTfmSupportBuildWarnings>true</SuppressTfmSupportBuildWarnings>
              </PropertyGroup>
            </Project>

            """);
        StringBuilder solution = new("<Solution>\n");
        foreach (IGrouping<string, RealProject> folder in RealProjects(coreFiles).GroupBy(p => p.Folder))
        {
            solution.Append(CultureInfo.InvariantCulture, $"  <Folder Name=\"/{folder.Key}/\">\n");
            foreach (RealProject project in folder)
            {
                WriteRealProject(output, project, coreFiles);
                solution.Append(CultureInfo.InvariantCulture, $"    <Project Path=\"{project.Folder}/{project.Name}/{project.Name}.csproj\" />\n");
            }

            solution.Append("  </Folder>\n");
        }

        solution.Append("</Solution>\n");
        string path = Path.Combine(output, "RealShaped.slnx");
        File.WriteAllText(path, solution.ToString());
        return path;
    }

    private static void WriteRealProject(string output, RealProject project, int coreFiles)
    {
        string directory = Path.Combine(output, project.Folder, project.Name);
        Directory.CreateDirectory(directory);
        string frameworks = project.Frameworks.Contains(';', StringComparison.Ordinal)
            ? $"<TargetFrameworks>{project.Frameworks}</TargetFrameworks>"
            : $"<TargetFramework>{project.Frameworks}</TargetFramework>";
        string kind = project.Kind switch
        {
            "tests" => "\n    <IsPackable>false</IsPackable>\n    <IsTestProject>true</IsTestProject>",
            "exe" => "\n    <OutputType>Exe</OutputType>\n    <IsPackable>false</IsPackable>",
            _ => string.Empty,
        };
        string packages = project.Kind != "tests" ? string.Empty : """
              <ItemGroup>
                <PackageReference Include="Microsoft.NET.Test.Sdk" Version="18.11.0" />
                <PackageReference Include="xunit" Version="2.9.3" />
                <PackageReference Include="xunit.runner.visualstudio" Version="3.1.5" PrivateAssets="all" />
              </ItemGroup>

            """;
        string references = project.References.Length == 0 ? string.Empty
            : "  <ItemGroup>\n" + string.Concat(project.References.Select(r => $"    <ProjectReference Include=\"../../{r}/{Path.GetFileName(r)}.csproj\" />\n")) + "  </ItemGroup>\n";
        File.WriteAllText(Path.Combine(directory, project.Name + ".csproj"), $"""
            <Project Sdk="Microsoft.NET.Sdk">
              <PropertyGroup>
                {frameworks}{kind}
              </PropertyGroup>
            {packages}{references}</Project>

            """);
        if (project.Name is "Core" or "Core.Extensions")
        {
            // Warnings, not the small shape's error: the real-shaped solution builds with `dotnet build`.
            Directory.CreateDirectory(Path.Combine(directory, "Strict"));
            File.WriteAllText(Path.Combine(directory, "Strict", ".editorconfig"), """
                [*.cs]
                dotnet_diagnostic.CA1822.severity = warning
                dotnet_diagnostic.CA1825.severity = warning

                """);
        }

        switch (project.Kind)
        {
            case "core":
                WriteRealCore(output, project.Files);
                break;
            case "adapter":
                WriteRealAdapter(directory, project, coreFiles);
                break;
            case "tests":
                WriteRealTests(directory, project, coreFiles);
                break;
            default:
                WriteRealApp(directory, project);
                break;
        }
    }

    private static void WriteRealCore(string output, int files)
    {
        File.WriteAllText(Path.Combine(output, "src", "Core", "Guard.cs"), """
            using System;

            namespace Core;

            /// <summary>Argument checks every worker and adapter calls.</summary>
            public static class Guard
            {
                public static int Check(int value) => value < -1_000_000 ? throw new ArgumentOutOfRangeException(nameof(value)) : value;
            }

            """);
        File.WriteAllText(Path.Combine(output, "src", "Core", "Node.cs"), """
            namespace Core;

            /// <summary>Something with a weight.</summary>
            public interface INode
            {
                int Weight(int value);
            }

            /// <summary>The root of the node hierarchy the adapters extend.</summary>
            public class Node : INode
            {
                public virtual int Weight(int value) => Guard.Check(value);
            }

            """);
        for (int f = 0; f < files; f++)
        {
            string path = Path.Combine(output, RealCorePath(f));
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            string unused = f % 5 == 0 ? "\n        int unused;" : string.Empty;
            int other = (f * 7 + 3) % files;
            File.WriteAllText(path, string.Create(CultureInfo.InvariantCulture, $$"""
                using System;
                using System.Collections.Generic;
                using System.Linq;
                using System.Text;

                namespace Core;

                /// <summary>Synthetic worker {{f}} of Core.</summary>
                public class Worker{{f:00}}
                {
                    private int count = 0;

                    public int Count => this.count;

                    public int Add(int value)
                    {{{unused}}
                        return Guard.Check(value) + {{f}};
                    }

                    public int[] Empty() => new int[0];

                    public int Combine(int value) => this.Add(value) + new Worker{{other:00}}().Count;

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

                #if NET8_0_OR_GREATER
                    public int Sum(ReadOnlySpan<int> values)
                    {
                        int total = 0;
                        foreach (int value in values)
                        {
                            total += this.Add(value);
                        }

                        return total;
                    }
                #elif NETSTANDARD2_1 || NET6_0
                    public int Sum(int[] values) => values.Sum(this.Add);
                #else
                    public int Sum(IEnumerable<int> values) => values.Select(this.Add).Sum();
                #endif

                    public string Describe(int value) => "Worker{{f:00}}(" + value + ") = " + this.Add(value);
                }

                """));
        }
    }

    private static void WriteRealAdapter(string directory, RealProject project, int coreFiles)
    {
        string baseNode = project.References.Length > 1 ? $"global::{Path.GetFileName(project.References[1])}.Node" : "global::Core.Node";
        File.WriteAllText(Path.Combine(directory, "Node.cs"), $$"""
            namespace {{project.Name}};

            /// <summary>Node of {{project.Name}}.</summary>
            public class Node : {{baseNode}}
            {
                public override int Weight(int value) => base.Weight(value) + 1;
            }

            """);
        for (int f = 0; f < project.Files; f++)
        {
            bool strict = project.Name == "Core.Extensions" && f % 4 == 0;
            string folder = strict ? Path.Combine(directory, "Strict") : directory;
            string unused = f % 5 == 0 ? "\n        int unused;" : string.Empty;
            string previous = project.References.Length > 1 && f < 16 ? string.Create(CultureInfo.InvariantCulture, $" + new global::{Path.GetFileName(project.References[1])}.Handler{f:00}().Add(value)") : string.Empty;
            File.WriteAllText(Path.Combine(folder, string.Create(CultureInfo.InvariantCulture, $"Handler{f:00}.cs")), string.Create(CultureInfo.InvariantCulture, $$"""
                using System;
                using System.Collections.Generic;
                using System.Text;

                namespace {{project.Name}};

                /// <summary>Synthetic handler {{f}} of {{project.Name}}.</summary>
                public class Handler{{f:00}}
                {
                    private readonly global::Core.Worker{{f % coreFiles:00}} worker = new global::Core.Worker{{f % coreFiles:00}}();

                    public int Add(int value)
                    {{{unused}}
                        return this.worker.Add(global::Core.Guard.Check(value)){{previous}} + {{f}};
                    }

                    public int[] Empty() => new int[0];

                    public string Describe(int value) => "Handler{{f:00}}(" + value + ") = " + this.Add(value);
                }

                """));
        }
    }

    private static void WriteRealTests(string directory, RealProject project, int coreFiles)
    {
        string[] named = [.. project.References.Select(Path.GetFileName).OfType<string>()];
        string[] targets = named.Length == 1 ? named : [.. named.Where(r => r != "Core.Testing")];
        for (int f = 0; f < project.Files; f++)
        {
            string target = targets[f % targets.Length];
            string subject = target == "Core" ? string.Create(CultureInfo.InvariantCulture, $"global::Core.Worker{(f * 3) % coreFiles:00}") : string.Create(CultureInfo.InvariantCulture, $"global::{target}.Handler{f:00}");
            File.WriteAllText(Path.Combine(directory, string.Create(CultureInfo.InvariantCulture, $"Tests{f:00}.cs")), string.Create(CultureInfo.InvariantCulture, $$"""
                namespace {{project.Name}};

                public class Tests{{f:00}}
                {
                    [Xunit.Fact]
                    public void AddIsAtLeastTheValue() => Xunit.Assert.True(new {{subject}}().Add(1) >= 1);

                    [Xunit.Fact]
                    public void DescribeNamesTheValue() => Xunit.Assert.Contains("(2)", new {{subject}}().Describe(2));
                }

                """));
        }
    }

    private static void WriteRealApp(string directory, RealProject project)
    {
        string target = Path.GetFileName(project.References[^1]);
        StringBuilder calls = new();
        for (int f = 0; f < project.Files; f++)
        {
            calls.Append(CultureInfo.InvariantCulture, $"System.Console.WriteLine(new global::{target}.Handler{f:00}().Describe({f}));\n");
        }

        File.WriteAllText(Path.Combine(directory, "Program.cs"), calls.ToString());
    }
}
