// Mirrors SharpClaw.Protocol/Semantic/ReachedTests.cs: sharpclaw/reachedTests, the verifier's request for the
// union of the tests that reach a change's members (navigate's tests walk over all of them at once).
import { z } from 'zod';
import { Bounds } from './paramRules';
import { hostErrorKinds } from './semantic';
import { GeneratorGapSchema, workspaceParams } from './symbols';
import { UnfollowableNoteSchema } from './navigation';

export const ReachedTestsParamsSchema = z.object({
  ...workspaceParams,
  symbols: z
    .array(
      z.object({
        name: z.string().nullable().optional(),
        path: z.string().nullable().optional(),
        line: z.number().int().nullable().optional(),
        character: z.number().int().nullable().optional(),
      }),
    )
    .min(Bounds.reachedTestsSymbols.minimum)
    .max(Bounds.reachedTestsSymbols.maximum)
    .nullable()
    .optional(),
  /** Changed C# files with their text before the change (null: new): the host compares each with the workspace's text. */
  changes: z
    .array(z.object({ path: z.string().nullable().optional(), before: z.string().nullable().optional() }))
    .min(Bounds.reachedTestsChanges.minimum)
    .max(Bounds.reachedTestsChanges.maximum)
    .nullable()
    .optional(),
});

export const ReachedTestSchema = z.object({
  /** Namespace.Class.Method, as navigate's tests lines name it. */
  name: z.string(),
  /** Runners' FullyQualifiedName: nested classes joined with +, no parameters. */
  fullyQualifiedName: z.string(),
  /** Each class the test runs in (its own, or the concrete classes deriving from an abstract one). */
  className: z.array(z.string()),
  project: z.string(),
  path: z.string(),
  line: z.number().int(),
});

export const ReachedTestsResultSchema = z.object({
  tests: z.array(ReachedTestSchema),
  unfollowable: UnfollowableNoteSchema.nullable(),
  limitReached: z.boolean(),
  generatorGaps: z.array(GeneratorGapSchema).nullable(),
  failures: z.array(z.object({ index: z.number().int(), code: z.enum(hostErrorKinds), message: z.string() })),
  visited: z.number().int(),
  /** How many members the changes named. */
  changedMembers: z.number().int(),
  /** Why the changes are not confined to member bodies (every test must run); empty when they are. */
  fallbacks: z.array(z.string()),
  /** How many tests each test project has, counted like the tests' runner names (empty when nothing was walked). */
  projectTests: z.array(z.object({ project: z.string(), tests: z.number().int() })),
});

export type ReachedTestsResult = z.infer<typeof ReachedTestsResultSchema>;
