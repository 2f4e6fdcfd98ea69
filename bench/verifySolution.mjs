// A synthetic layered solution for the verification benchmarks: `projects` class libraries in
// layers (each references two projects of the layer below), `files` C# files each, and a few
// xunit test projects on top. Written to a temporary folder; nothing here is checked in.
import fs from 'node:fs';
import path from 'node:path';

export function generateSolution(dir, { projects = 50, files = 20, testProjects = 4, layerWidth = 8 } = {}) {
  const libraries = projects - testProjects;
  const names = Array.from({ length: libraries }, (_, i) => `Lib${String(i).padStart(2, '0')}`);
  const layerOf = (i) => Math.floor(i / layerWidth);
  const references = new Map();
  names.forEach((name, i) => {
    const below = names.filter((_, j) => layerOf(j) === layerOf(i) - 1);
    references.set(name, below.length ? [below[i % below.length], below[(i + 3) % below.length]].filter((v, k, a) => a.indexOf(v) === k) : []);
  });
  const entries = [];
  for (const name of names) {
    const projectDir = path.join(dir, 'src', name);
    fs.mkdirSync(projectDir, { recursive: true });
    fs.writeFileSync(path.join(projectDir, `${name}.csproj`), `<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>net10.0</TargetFramework>
    <Nullable>enable</Nullable>
  </PropertyGroup>
  <ItemGroup>
${references.get(name).map((ref) => `    <ProjectReference Include="..\\${ref}\\${ref}.csproj" />`).join('\n')}
  </ItemGroup>
</Project>
`);
    for (let f = 0; f < files; f++) {
      const uses = references.get(name).map((ref) => `${ref}.Type0.Value(x)`).join(' + ') || 'x';
      fs.writeFileSync(path.join(projectDir, `Type${f}.cs`), `namespace ${name};\n\npublic static class Type${f}\n{\n    public static int Value(int x) => ${f === 0 ? uses : 'x'} + ${f};\n}\n`);
    }
    entries.push(`src/${name}/${name}.csproj`);
  }
  const top = names.filter((_, i) => layerOf(i) === layerOf(libraries - 1));
  for (let t = 0; t < testProjects; t++) {
    const name = `Tests${t}`;
    const target = top[t % top.length];
    const projectDir = path.join(dir, 'tests', name);
    fs.mkdirSync(projectDir, { recursive: true });
    fs.writeFileSync(path.join(projectDir, `${name}.csproj`), `<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>net10.0</TargetFramework>
    <IsPackable>false</IsPackable>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Microsoft.NET.Test.Sdk" Version="18.11.0" />
    <PackageReference Include="xunit" Version="2.9.3" />
    <PackageReference Include="xunit.runner.visualstudio" Version="3.1.5" />
  </ItemGroup>
  <ItemGroup>
    <ProjectReference Include="..\\..\\src\\${target}\\${target}.csproj" />
  </ItemGroup>
</Project>
`);
    fs.writeFileSync(path.join(projectDir, 'Tests.cs'), `namespace ${name};\n\npublic class Tests\n{\n    [Xunit.Fact]\n    public void Works() => Xunit.Assert.Equal(0, ${target}.Type1.Value(-1));\n}\n`);
    entries.push(`tests/${name}/${name}.csproj`);
  }
  fs.writeFileSync(path.join(dir, 'Synthetic.slnx'), `<Solution>\n${entries.map((e) => `  <Project Path="${e}" />`).join('\n')}\n</Solution>\n`);
  fs.writeFileSync(path.join(dir, '.gitignore'), 'bin/\nobj/\n');
  // A leaf: a top-layer library no other project references.
  const referenced = new Set([...references.values()].flat());
  const leaf = names.filter((name) => !referenced.has(name) && !top.slice(0, testProjects).includes(name)).pop() ?? names[names.length - 1];
  return { solution: 'Synthetic.slnx', leafFile: `src/${leaf}/Type5.cs`, leafProject: leaf, projects: entries.length };
}
