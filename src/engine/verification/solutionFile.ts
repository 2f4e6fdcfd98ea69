// Lists the projects of a solution by reading it (.slnx is XML, .sln is text); no MSBuild
// evaluation, so it runs before any permission is asked.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export const projectExtensions = ['.csproj', '.fsproj', '.vbproj'];
export const solutionExtensions = ['.sln', '.slnx'];

const slnxParser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', processEntities: false, htmlEntities: false });

function collectPaths(node: unknown, found: string[]): void {
  if (Array.isArray(node)) {
    for (const child of node) collectPaths(child, found);
    return;
  }
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === 'Project') {
      for (const project of Array.isArray(value) ? value : [value]) {
        const projectPath = (project as Record<string, unknown> | undefined)?.Path;
        if (typeof projectPath === 'string') found.push(projectPath);
      }
    }
    if (typeof value === 'object') collectPaths(value, found);
  }
}

/** Absolute paths of the projects a solution lists (solution folders and non-project entries skipped). */
export function readSolutionProjects(solutionPath: string): string[] {
  const text = fs.readFileSync(solutionPath, 'utf8').replace(/^\uFEFF/, '');
  const dir = path.dirname(solutionPath);
  const relative: string[] = [];
  if (solutionPath.toLowerCase().endsWith('.slnx')) {
    if (/<!DOCTYPE/i.test(text)) throw new Error(`${solutionPath} declares a DTD, which a solution never needs.`);
    const valid = XMLValidator.validate(text);
    if (valid !== true) throw new Error(`${solutionPath} is not well-formed XML: ${valid.err.msg} (line ${valid.err.line}).`);
    collectPaths(slnxParser.parse(text), relative);
  } else {
    for (const match of text.matchAll(/^Project\("\{[^}]+\}"\)\s*=\s*"[^"]*",\s*"([^"]+)"/gm)) relative.push(match[1]!);
  }
  return [...new Set(
    relative
      .map((entry) => entry.replace(/\\/g, '/'))
      .filter((entry) => projectExtensions.includes(path.extname(entry).toLowerCase()))
      .map((entry) => path.resolve(dir, entry)),
  )];
}
