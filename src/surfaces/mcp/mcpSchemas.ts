// The schemas the MCP server publishes in tools/list, trimmed because every client (and often the
// agent's context) pays for each byte of the listing. The definition's zod schemas stay the
// contract: runTool validates every input with them and the server checks every result with
// them; what is published is a faithful but shorter JSON Schema of the same shapes.
//   input:  the definition's JSON Schema, descriptions kept on the top-level arguments only
//           (nested ones repeat what the tool documents), without the bounds every argument has
//           anyway (strings of at least 1 character, integers up to the host's C# int, string property
//           names), without
//           the aliases runTool also accepts (an argument described as "Alias of …": one name per
//           argument is enough to call with), and without descriptions of the compilation context's
//           self-explaining configuration and targetFramework.
//   output: the top level of the structure a call sends (structuredResult.ts): each field, with its
//           JSON type where it is a scalar. The nested records are documented by the text answers; the full shape is the
//           structure's zod schema, which the server still checks every result with.
import { inputJsonSchema, outputJsonSchema } from '../../engine/tools/manifest';
import type { AnyToolDefinition } from '../../engine/tools/toolDefinition';
import { maxHostInteger } from '../../engine/protocol/paramRules';

type JsonSchema = Record<string, unknown>;

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Drops implied bounds everywhere and descriptions below `depth` 1 (the arguments themselves). */
function trimInput(schema: JsonSchema, depth: number): JsonSchema {
  const trimmed: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'description' && depth > 1) continue;
    if (key === 'minLength' && value === 1) continue;
    if (key === 'maximum' && value === maxHostInteger) continue;
    // Every JSON object's property names are strings.
    if (key === 'propertyNames' && isSchema(value) && value.type === 'string' && Object.keys(value).length === 1) continue;
    if (key === 'properties' && isSchema(value)) {
      trimmed[key] = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, isSchema(property) ? trimInput(property, depth + 1) : property]));
    } else if ((key === 'items' || key === 'not') && isSchema(value)) {
      trimmed[key] = trimInput(value, depth + 1);
    } else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) {
      trimmed[key] = value.map((item) => (isSchema(item) ? trimInput(item, depth) : item));
    } else {
      trimmed[key] = value;
    }
  }
  return trimmed;
}

/** Arguments whose names say what they are (the compilation context's); their descriptions are left out. */
const selfExplaining = new Set(['configuration', 'targetFramework']);

/** The input schema a tool publishes over MCP. */
export function publishedInputSchema(definition: AnyToolDefinition): JsonSchema {
  const trimmed = trimInput(inputJsonSchema(definition), 0);
  if (!isSchema(trimmed.properties)) return trimmed;
  const properties: JsonSchema = {};
  for (const [name, property] of Object.entries(trimmed.properties)) {
    if (!isSchema(property)) continue;
    if (typeof property.description === 'string' && property.description.startsWith('Alias of')) continue;
    properties[name] = selfExplaining.has(name) ? Object.fromEntries(Object.entries(property).filter(([key]) => key !== 'description')) : property;
  }
  return { ...trimmed, properties };
}

/** The JSON types a (sub)schema allows, through anyOf/oneOf. */
function jsonTypes(schema: JsonSchema): string[] {
  const types = new Set<string>();
  const visit = (node: unknown): void => {
    if (!isSchema(node)) return;
    if (typeof node.type === 'string') types.add(node.type);
    if (Array.isArray(node.type)) for (const type of node.type) if (typeof type === 'string') types.add(type);
    for (const key of ['anyOf', 'oneOf']) if (Array.isArray(node[key])) (node[key] as unknown[]).forEach(visit);
  };
  visit(schema);
  return [...types];
}

/** The output schema a tool publishes over MCP, where it sends a structure (structuredContent). */
export function publishedOutputSchema(definition: AnyToolDefinition): JsonSchema | undefined {
  const full = outputJsonSchema(definition);
  if (full?.type !== 'object' || !isSchema(full.properties)) return undefined;
  const properties: JsonSchema = {};
  for (const [name, property] of Object.entries(full.properties)) {
    const types = isSchema(property) ? jsonTypes(property) : [];
    // A list or record is published as {} (its shape is the text's; the server checks it), as is a field of any type.
    const scalar = types.length > 0 && !types.includes('array') && !types.includes('object');
    properties[name] = scalar ? { type: types.length === 1 ? types[0] : types } : {};
  }
  return { type: 'object', properties };
}
