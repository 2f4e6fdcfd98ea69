// What a client receives beside the text (MCP's structuredContent, the CLI's JSON `data`): the tool's
// typed result said for an agent — the same facts as the text, once, with workspace-relative paths.
// The host's records carry what the engine needs to render (every excluded analyzer of every project
// and flavour, with its path in the person's package cache); an agent gets what the text says: how
// many were not run and which in the answering project, the full list being dotnet_solution_inspect's.
// A tool with a shape of its own (solution inspect) declares `structure`; every other is projected
// here, its schema with it, so the output schema MCP publishes is the record that is sent.
import * as path from 'node:path';
import { z } from 'zod';
import type { ExcludedAnalyzers } from '../protocol/semantic';
import type { AnyToolDefinition, ToolNames } from './toolDefinition';

/** The excluded-analyzer line of the text as a record (excludedAnalyzersLine in renderSolutionInspect.ts). */
export const ExcludedSummarySchema = z.object({
  /** Project/package analyzers and generators not run, counted once per project. */
  analyzers: z.number().int(),
  projects: z.number().int(),
  /** Their names in the projects that answered. */
  inAnsweringProjects: z.array(z.string()),
  /** The tool that lists them all. */
  fullList: z.string(),
});

export type ExcludedSummary = z.infer<typeof ExcludedSummarySchema>;

/** The summary of `excluded` the text gives, or null when nothing was excluded. */
export function excludedSummary(excluded: readonly ExcludedAnalyzers[], relevantProjects: readonly string[], fullList: string): ExcludedSummary | null {
  const withAnalyzers = excluded.filter((entry) => entry.analyzers.length > 0);
  if (withAnalyzers.length === 0) return null;
  return {
    analyzers: new Set(withAnalyzers.flatMap((entry) => entry.analyzers.map((analyzer) => `${entry.project}\0${analyzer.name}`))).size,
    projects: new Set(withAnalyzers.map((entry) => entry.project)).size,
    inAnsweringProjects: [...new Set(withAnalyzers.filter((entry) => relevantProjects.includes(entry.project)).flatMap((entry) => entry.analyzers.map((analyzer) => analyzer.name)))].sort(),
    fullList,
  };
}

type Zod = z.ZodType;

/** The agent's schema of a host record: every `excludedAnalyzers` list becomes its summary. */
export function agentSchema(schema: Zod): Zod {
  // A null field is left out of the record (agentRecord): absent, never null.
  if (schema instanceof z.ZodNullable) return agentSchema(schema.unwrap() as Zod).optional();
  if (schema instanceof z.ZodOptional) return agentSchema(schema.unwrap() as Zod).optional();
  if (schema instanceof z.ZodArray) return z.array(agentSchema(schema.element as Zod));
  if (schema instanceof z.ZodObject) {
    const shape: Record<string, Zod> = {};
    for (const [key, field] of Object.entries(schema.shape as Record<string, Zod>)) {
      shape[key] = key === 'excludedAnalyzers' ? ExcludedSummarySchema.optional() : key === 'callSites' ? callSitesSchema(field) : agentSchema(field);
    }
    return z.object(shape);
  }
  return schema;
}

/** A caller's call sites, each without the caller's own file (said once, on its location), as the text writes them. */
function callSitesSchema(schema: Zod): Zod {
  const sites = agentSchema(schema);
  const list = sites instanceof z.ZodOptional ? (sites.unwrap() as Zod) : sites;
  if (!(list instanceof z.ZodArray) || !(list.element instanceof z.ZodObject)) return sites;
  const element = list.element as z.ZodObject;
  const site = element.extend({ path: (element.shape as Record<string, Zod>).path!.optional() });
  return sites instanceof z.ZodOptional ? z.array(site).optional() : z.array(site);
}

/** The projects a record answered from: its `project`, or each of its `projects`. */
function answeringProjects(record: Record<string, unknown>): string[] {
  if (typeof record.project === 'string') return [record.project];
  if (Array.isArray(record.projects)) return record.projects.flatMap((entry: unknown) => (typeof entry === 'object' && entry !== null && typeof (entry as { project?: unknown }).project === 'string' ? [(entry as { project: string }).project] : []));
  return [];
}

export interface StructureContext {
  workspaceFolder: string;
  names: ToolNames;
  /** How the surface names dotnet_solution_inspect (the full list of excluded analyzers). */
  solutionInspect: string;
}

/** A path below the workspace, written relative to it with forward slashes; any other string unchanged. */
export function relativeToWorkspace(value: string, workspaceFolder: string): string {
  if (!path.isAbsolute(value)) return value;
  const relative = path.relative(workspaceFolder, value);
  if (relative === '') return '.';
  if (relative.startsWith('..') || path.isAbsolute(relative)) return value;
  return relative.split(path.sep).join('/');
}

/** The agent's record of a host record (agentSchema's shape): summaries for exclusions, workspace-relative paths, null fields left out. */
export function agentRecord(value: unknown, context: StructureContext): unknown {
  if (typeof value === 'string') return relativeToWorkspace(value, context.workspaceFolder);
  if (Array.isArray(value)) return value.map((item) => agentRecord(item, context));
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  const projected: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(record)) {
    if (field === null || field === undefined) continue; // said by its absence
    if (key === 'excludedAnalyzers') {
      const summary = Array.isArray(field) ? excludedSummary(field as ExcludedAnalyzers[], answeringProjects(record), context.solutionInspect) : null;
      if (summary) projected[key] = summary;
      continue;
    }
    if (key === 'callSites' && Array.isArray(field)) {
      const own = (record.location as { path?: unknown } | undefined)?.path;
      projected[key] = field.map((site: Record<string, unknown>) => {
        const { path: sitePath, ...rest } = agentRecord(site, context) as Record<string, unknown>;
        return sitePath === agentRecord(own, context) ? rest : { path: sitePath, ...rest };
      });
      continue;
    }
    projected[key] = agentRecord(field, context);
  }
  return projected;
}

/** A tool's own structure: its schema and how its result is said. */
export interface StructureView<Result> {
  schema: Zod;
  of(result: Result, context: StructureContext): Record<string, unknown>;
}

/** The schema of what a tool sends as its structure, or undefined when it sends none (its text says all). */
export function structureSchema(definition: AnyToolDefinition): Zod | undefined {
  if (definition.structure === null) return undefined;
  if (definition.structure) return definition.structure.schema;
  return definition.output ? agentSchema(definition.output as Zod) : undefined;
}

/** What a tool sends beside its text for `result`, or undefined (no structure, or a result that is no object). */
export function structureOf(definition: AnyToolDefinition, result: unknown, context: StructureContext): Record<string, unknown> | undefined {
  if (definition.structure === null) return undefined;
  if (definition.structure) return definition.structure.of(result, context);
  if (!definition.output || typeof result !== 'object' || result === null || Array.isArray(result)) return undefined;
  return agentRecord(result, context) as Record<string, unknown>;
}

/** The tool that lists every excluded analyzer (it has no other MCP name). */
export const solutionInspectToolName = 'dotnet_solution_inspect';
