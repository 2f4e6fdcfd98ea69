// Reading and writing the one file of an MCP setup, for every surface (`sharpclaw mcp setup`, VS
// Code's Set Up MCP for Another Agent…): the file must stay inside its folder (the project, the
// home, $CODEX_HOME) with no link on the path below it; it is read with the bounded reader (no
// FIFO, no device, at most 1 MiB); the merge is verified (mcpSetupMerge.ts); the write is a
// temporary file renamed over the target, done only if the file still holds what was read, and
// read back. Every refusal is a ToolError (invalid_request) and nothing is written.
import { confinedPath, writeConfinedFile, type ConfinedPath } from '../files/confinedFile';
import { configFileMaxBytes, readBoundedText } from '../files/boundedRead';
import { ToolError } from '../errors';
import type { SetupPlan } from './mcpSetup';

const what = 'MCP configuration';

export interface PreparedSetup {
  plan: SetupPlan;
  /** The whole file as it will be written. */
  text: string;
  /** An entry of ours was there (updated, not added). */
  replaced: boolean;
  /** The file already holds exactly this text: nothing to write. */
  unchanged: boolean;
  /** What the file held when read (undefined: it did not exist). */
  readonly before: string | undefined;
  readonly path: ConfinedPath;
}

/** Checks the path, reads the file and merges our entry; writes nothing. */
export function prepareSetup(plan: SetupPlan): PreparedSetup {
  const confined = confinedPath(plan.base, plan.file, what);
  const before = readBoundedText(confined.file, { maxBytes: configFileMaxBytes, what, links: 'refuse' });
  const { text, replaced } = plan.merge(before);
  return { plan, text, replaced, unchanged: before === text, before, path: confined };
}

/** Writes a prepared setup, if the file still holds what prepareSetup read; then reads it back. */
export function writeSetup(prepared: PreparedSetup): void {
  if (prepared.unchanged) return;
  const confined = confinedPath(prepared.plan.base, prepared.plan.file, what);
  const now = readBoundedText(confined.file, { maxBytes: configFileMaxBytes, what, links: 'refuse' });
  if (now !== prepared.before) throw new ToolError('invalid_request', `${prepared.plan.file} changed since SharpClaw read it; nothing was written. Run the setup again.`);
  writeConfinedFile(confined, prepared.text, what);
  const written = readBoundedText(confined.file, { maxBytes: configFileMaxBytes, what, links: 'refuse' });
  if (written !== prepared.text) throw new ToolError('invalid_request', `${prepared.plan.file} does not hold what SharpClaw wrote (another program changed it at the same time); check the file and run the setup again.`);
}
