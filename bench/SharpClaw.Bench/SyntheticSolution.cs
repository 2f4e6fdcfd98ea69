using System.Globalization;
using System.Text;

namespace SharpClaw.Bench;

/// <summary>
/// Writes a synthetic .slnx: the first half of the projects form a chain (each references the one
/// before), the second half stacked diamonds (pairs that both reference both projects of the pair
/// before, the first pair referencing the end of the chain). Every file declares a class whose
/// methods call into the referenced projects, so compilations really depend on each other.
/// </summary>
public static class SyntheticSolution
{
    public static string Generate(string output, int projectCount, int filesPerProject)
    {
        if (Directory.Exists(output))
        {
            Directory.Delete(output, recursive: true);
        }

        Directory.CreateDirectory(output);
        List<string> names = [.. Enumerable.Range(0, projectCount).Select(i => string.Create(CultureInfo.InvariantCulture, $"Lib{i:000}"))];
        int chain = Math.Max(1, projectCount / 2);
        StringBuilder solution = new("<Solution>\n");
        for (int i = 0; i < projectCount; i++)
        {
            List<int> references = ReferencesOf(i, chain);
            string directory = Path.Combine(output, "src", names[i]);
            Directory.CreateDirectory(directory);
            StringBuilder project = new("""
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup>
                    <TargetFramework>net10.0</TargetFramework>
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

            for (int f = 0; f < filesPerProject; f++)
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

            solution.Append(CultureInfo.InvariantCulture, $"  <Project Path=\"src/{names[i]}/{names[i]}.csproj\" />\n");
        }

        solution.Append("</Solution>\n");
        string solutionPath = Path.Combine(output, "Synth.slnx");
        File.WriteAllText(solutionPath, solution.ToString());
        return solutionPath;
    }

    /// <summary>Chain: i → i-1. Diamonds: pair k (2 projects) → both projects of pair k-1 (or the chain's end).</summary>
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
        if (pair == 0)
        {
            return [chainLength - 1];
        }

        int previousFirst = chainLength + ((pair - 1) * 2);
        return [previousFirst, previousFirst + 1];
    }
}
