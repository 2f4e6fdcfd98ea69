// The TypeScript zod mirror of the protocol must describe exactly what the C# records send.
// The host exports its records' JSON Schema (System.Text.Json's JsonSchemaExporter) with the
// contract rules written on them ([Bounds] as minimum/maximum/default or minItems/maxItems,
// [OneOf] and enums as enum, each request's scheduling as x-scheduling); this test walks the
// protocol table (every method's params and result, the callbacks, the error data) and compares
// each zod schema's JSON Schema with the host's — types, properties, required, items, enums and
// bounds — ignoring only how each side spells a type. It also checks that each method's
// authorization effect (the table's `effects`) agrees with how the host schedules it.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { Methods, protocolSchemas, type HostRequest } from '../../src/engine/protocol/methods';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const serverDll = path.join(repoRoot, 'dist', 'server', 'SharpClaw.Server.dll');

type Json = { [key: string]: unknown };
type Shape = {
  types: string[];
  enum?: unknown[];
  properties?: Record<string, Shape>;
  required?: string[];
  items?: Shape;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  minItems?: number;
  maxItems?: number;
};

/** The bounds zod writes for every integer (JavaScript's safe integers): no bound the host has. */
const unbounded = new Set([Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]);

/** The bounds and default of a (sub)schema, as both sides must state them. */
function bounds(schema: Json): Partial<Shape> {
  const result: Partial<Shape> = {};
  for (const key of ['minimum', 'maximum', 'minItems', 'maxItems'] as const) {
    const value = schema[key];
    if (typeof value === 'number' && !unbounded.has(value)) result[key] = value;
  }
  if (schema.default !== undefined) result.default = schema.default;
  return result;
}

/** Follows local `$ref`s ("#/properties/a/items") against the root schema. */
function resolve(schema: Json, root: Json): Json {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const target = ref.replace(/^#\/?/, '').split('/').filter(Boolean).reduce<unknown>((node, key) => (node as Json)?.[key], root);
  if (!target) throw new Error(`Unresolvable $ref ${ref}`);
  return resolve(target as Json, root);
}

/** Reduces a JSON Schema to what both generators must agree on: types, properties, required, items. */
function shape(input: Json, root: Json = input): Shape {
  const schema = resolve(input, root);
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (variants) {
    const parts = variants.map((variant) => shape(variant, root));
    const merged = parts.find((part) => part.types.some((type) => type !== 'null')) ?? parts[0]!;
    // A default written beside anyOf (zod puts .meta() on the wrapper in some cases) counts like one inside it.
    return { ...merged, ...bounds(schema), types: [...new Set(parts.flatMap((part) => part.types))].sort() };
  }
  const values = (schema.enum as unknown[] | undefined) ?? (schema.const !== undefined ? [schema.const] : undefined);
  const declared = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(Boolean).map(String);
  // An enum without a declared type is typed by its values (null counts as the type "null").
  const inferred = values ? values.map((value) => (value === null ? 'null' : typeof value)) : [];
  const types = [...new Set(declared.length ? declared : inferred)].sort();
  const result: Shape = { types, ...bounds(schema) };
  // null in an enum only repeats that the type is nullable (the host lists it so the enum fits its type).
  if (values) result.enum = values.filter((value) => value !== null).sort();
  if (types.includes('object')) {
    const properties = (schema.properties ?? {}) as Record<string, Json>;
    result.properties = Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, shape(value, root)]));
    result.required = [...((schema.required as string[] | undefined) ?? [])].sort();
  }
  if (types.includes('array')) result.items = shape(schema.items as Json, root);
  return result;
}

describe('protocol drift between the C# records and the zod schemas', () => {
  it('has a built host to ask', () => {
    assert.ok(fs.existsSync(serverDll), `${serverDll} is missing: run "npm run build" (npm test builds it first)`);
  });

  let printed: Record<string, Json> | undefined;
  const exported = (): Record<string, Json> =>
    (printed ??= JSON.parse(execFileSync('dotnet', [serverDll, '--print-protocol-schema'], { encoding: 'utf8', timeout: 60_000 })) as Record<string, Json>);

  it('exports a schema for every entry of the protocol table, and no other', () => {
    assert.deepEqual(Object.keys(exported()).sort(), Object.keys(protocolSchemas()).sort());
  });

  for (const [key, schema] of Object.entries(protocolSchemas())) {
    it(`agrees on ${key.includes(':') ? key : `the result of ${key}`}`, () => {
      const server = exported()[key];
      assert.ok(server, `the host exports no schema for ${key}`);
      const client = z.toJSONSchema(schema, { io: 'output' }) as Json;
      assert.deepEqual(shape(client), shape(server));
    });
  }

  // Two vocabularies, named apart: what a call may do (effects: read, write — the permission policy's
  // business) and how the host admits it (scheduling). A call that may write must run alone, and only such a call does.
  for (const entry of Object.values(Methods) as HostRequest[]) {
    it(`schedules ${entry.method} as its effects (${entry.effects}) require`, () => {
      const scheduling = exported()[entry.method]?.['x-scheduling'];
      assert.ok(typeof scheduling === 'string', `the host exports no scheduling for ${entry.method}`);
      if (entry.effects === 'write') assert.equal(scheduling, 'exclusive', `${entry.method} may write, so it must run alone`);
      else assert.notEqual(scheduling, 'exclusive', `${entry.method} only reads, so it must not hold every reader back`);
    });
  }
});
