using System.Globalization;
using System.Text;

namespace SharpClaw.Bench;

/// <summary>
/// Writes a synthetic .slnx of <c>projectCount</c> projects: libraries whose first half form a chain (each
/// references the one before) and second half stacked diamonds (pairs that both reference both projects of
/// the pair before, the first pair referencing the end of the chain); the root library Lib000 is
/// multi-targeted (net10.0;net9.0); one project in 25 (at least one) is an xunit test project referencing a
/// library. Every library file declares a class whose methods call into the referenced projects, and every
/// library has a Node class deriving from the Node of the project it references first (an inheritance chain
/// through the whole solution), so compilations, references and hierarchies really span projects.
/// </summary>
internal static class SyntheticSolution
{
    /// <summary>Names the benchmarks query; they exist in every generated size.</summary>
    public sealed record Names(int Libraries, int TestProjects, int Files)
    {
        public string Middle => Lib(this.Libraries / 2);

        public int TypeIndex => Math.Min(5, this.Files - 1);

        public string Type => string.Create(CultureInfo.InvariantCulture, $"Type{this.TypeIndex:00}");

        public string Lib(int index) => string.Create(CultureInfo.InvariantCulture, $"Lib{index:000}");

        public string Last => this.Lib(this.Libraries - 1);

        public string HierarchyProject => this.Lib(Math.Max(1, this.Libraries / 4));

        /// <summary>What the query bench asks of this size (the same questions it has always asked).</summary>
        public QueryBenchmark.Targets Targets => new(
            this.Middle,
            $"{this.Middle}.{this.Type}",
            "Compute",
            "Lib000",
            "Lib000.Type00",
            "Compute",
            this.HierarchyProject,
            $"{this.HierarchyProject}.Node",
            this.Last,
            $"src/{this.Middle}/{this.Type}.cs",
            count => string.Create(CultureInfo.InvariantCulture, $"synthetic: {count} projects ({this.Libraries} libraries, {this.TestProjects} test projects, Lib000 multi-targeted), {this.Files + 1} files per library"));
    }

    public static Names NamesFor(int projectCount, int filesPerProject)
    {
        int tests = Math.Max(1, projectCount / 25);
        return new Names(Math.Max(2, projectCount - tests), tests, Math.Max(1, filesPerProject));
    }

    public static string Generate(string output, int projectCount, int filesPerProject)
    {
        if (Directory.Exists(output))
        {
            Directory.Delete(output, recursive: true);
        }

        Directory.CreateDirectory(output);
        Names plan = NamesFor(projectCount, filesPerProject);
        int libraries = plan.Libraries;
        List<string> names = [.. Enumerable.Range(0, libraries).Select(plan.Lib)];
        int chain = Math.Max(1, libraries / 2);
        StringBuilder solution = new("<Solution>\n");
        for (int i = 0; i < libraries; i++)
        {
            List<int> references = ReferencesOf(i, chain);
            string directory = Path.Combine(output, "src", names[i]);
            Directory.CreateDirectory(directory);
            string frameworks = i == 0 ? "<TargetFrameworks>net10.0;net9.0</TargetFrameworks>" : "<TargetFramework>net10.0</TargetFramework>";
            StringBuilder project = new($"""
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup>
                    {frameworks}
                    <Nullable>enable</Nullable>
                    <ImplicitUsings>enable</ImplicitUsings>
                  </PropertyGroup>

                """);
            if (references.Count > 0)
            {
                project.Append("  <ItemGroup>\n");
                foreach (int reference in references)
                {
                    project.Append(CultureInfo.InvariantCulture, $"    <ProjectReference Include=\"../{names[reference]}/{names[reference]}.csproj\" />\n");
                }

                project.Append("  </ItemGroup>\n");
            }

            project.Append("</Project>\n");
            File.WriteAllText(Path.Combine(directory, names[i] + ".csproj"), project.ToString());

            for (int f = 0; f < plan.Files; f++)
            {
                string calls = references.Count == 0
                    ? "value"
                    : string.Join(" + ", references.Select(r => string.Create(CultureInfo.InvariantCulture, $"global::{names[r]}.Type{f:00}.Compute(value)")));
                File.WriteAllText(Path.Combine(directory, string.Create(CultureInfo.InvariantCulture, $"Type{f:00}.cs")), string.Create(CultureInfo.InvariantCulture, $$"""
                    namespace {{names[i]}};

                    /// <summary>Synthetic type {{f}} of {{names[i]}}.</summary>
                    public static class Type{{f:00}}
                    {
                        public static int Compute(int value) => {{calls}} + {{f}};

                        public static string Describe(int value) => $"{{names[i]}}.Type{{f:00}}({value}) = {Compute(value)}";

                        public static IReadOnlyList<int> Range(int count) => Enumerable.Range(0, count).Select(Compute).ToList();
                    }

                    """));
            }

            File.WriteAllText(Path.Combine(directory, "Node.cs"), references.Count == 0
                ? $$"""
                    namespace {{names[i]}};

                    /// <summary>Something with a weight.</summary>
                    public interface INode
                    {
                        int Weight(int value);
                    }

                    /// <summary>The root of the synthetic inheritance chain.</summary>
                    public class Node : INode
                    {
                        public virtual int Weight(int value) => value;
                    }

                    """
                : $$"""
                    namespace {{names[i]}};

                    /// <summary>Node of {{names[i]}}.</summary>
                    public class Node : global::{{names[references[0]]}}.Node
                    {
                        public override int Weight(int value) => base.Weight(value) + 1;
                    }

                    """);
            solution.Append(CultureInfo.InvariantCulture, $"  <Project Path=\"src/{names[i]}/{names[i]}.csproj\" />\n");
        }

        for (int t = 0; t < plan.TestProjects; t++)
        {
            string name = string.Create(CultureInfo.InvariantCulture, $"Tests{t:00}");
            string library = names[libraries - 1 - (t % libraries)];
            string directory = Path.Combine(output, "tests", name);
            Directory.CreateDirectory(directory);
            File.WriteAllText(Path.Combine(directory, name + ".csproj"), $"""
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup>
                    <TargetFramework>net10.0</TargetFramework>
                    <Nullable>enable</Nullable>
                    <ImplicitUsings>enable</ImplicitUsings>
                    <IsPackable>false</IsPackable>
                    <IsTestProject>true</IsTestProject>
                  </PropertyGroup>
                  <ItemGroup>
                    <PackageReference Include="Microsoft.NET.Test.Sdk" Version="18.11.0" />
                    <PackageReference Include="xunit" Version="2.9.3" />
                    <PackageReference Include="xunit.runner.visualstudio" Version="3.1.5" PrivateAssets="all" />
                  </ItemGroup>
                  <ItemGroup>
                    <ProjectReference Include="../../src/{library}/{library}.csproj" />
                  </ItemGroup>
                </Project>

                """);
            File.WriteAllText(Path.Combine(directory, "ComputeTests.cs"), $$"""
                namespace {{name}};

                public class ComputeTests
                {
                    [Xunit.Fact]
                    public void ComputeIsPositive() => Xunit.Assert.True(global::{{library}}.Type00.Compute(1) > 0);
                }

                """);
            solution.Append(CultureInfo.InvariantCulture, $"  <Project Path=\"tests/{name}/{name}.csproj\" />\n");
        }

        solution.Append("</Solution>\n");
        string solutionPath = Path.Combine(output, "Synth.slnx");
        File.WriteAllText(solutionPath, solution.ToString());
        return solutionPath;
    }

    /// <summary>
    /// Chain: i → i-1. Diamonds: pair k (2 projects) → both projects of pair k-1, or the chain's end for every
    /// <see cref="DiamondStack"/>-th pair. Stacked diamonds double the reference paths per pair, and NuGet's
    /// restore walks every path: 48 stacked pairs (the 200-project solution) made one `dotnet restore` grow to
    /// 22 GB before it was killed; stacks of 12 keep the 50-project solution as it was and bound the paths.
    /// </summary>
    public const int DiamondStack = 12;

    public static List<int> ReferencesOf(int index, int chainLength)
    {
        if (index == 0)
        {
            return [];
        }

        if (index < chainLength)
        {
            return [index - 1];
        }

        int pair = (index - chainLength) / 2;
        if (pair % DiamondStack == 0)
        {
            return [chainLength - 1];
        }

        int previousFirst = chainLength + ((pair - 1) * 2);
        return [previousFirst, previousFirst + 1];
    }
}
