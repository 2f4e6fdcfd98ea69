// What a Microsoft.Testing.Platform app answered to `--help` (its TRX option), kept in the workspace's
// private state folder: asking costs a `dotnet test … --help` process before each MTP project's run on
// every verification (0.8 s on the way to ZLinq's tests), and the options an app offers come from the
// extensions built into it, so the answer can only change when its build output does. The key is the
// help command and the stamp of every output it runs (each framework's TargetPath); an output that is
// missing or rebuilt since is asked again, and only an answer that named a TRX option or exited 0 is kept.
// A stale answer could only fail the run (an option the app no longer knows) or lose the TRX detail, never
// pass it: the app still runs every test.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileStamp, writeKeptAnswer } from './keptAnswers';
import { trxOptions, type TrxOption } from './testRunner';

const fileName = 'mtp-options.json';
const maxEntries = 200;

type Stored = Record<string, { trxOption: TrxOption | null; at: string }>;

/** The key of `args` run against `outputs`, or null when an output is missing (then nothing is kept). */
export function mtpOptionsKey(args: readonly string[], outputs: readonly string[]): string | null {
  const stamps = outputs.map((output) => fileStamp(output));
  if (outputs.length === 0 || stamps.some((s) => s === null)) return null;
  return JSON.stringify([args, outputs.map((output, index) => `${output}=${stamps[index]}`)]);
}

function read(stateDir: string): Stored {
  try {
    return JSON.parse(fs.readFileSync(path.join(stateDir, fileName), 'utf8')) as Stored;
  } catch {
    return {};
  }
}

/** The kept answer for `key`, or undefined when the app has to be asked. */
export function storedMtpOptions(stateDir: string, key: string): { trxOption: TrxOption | null } | undefined {
  const entry = read(stateDir)[key];
  return entry && (entry.trxOption === null || trxOptions.includes(entry.trxOption)) ? { trxOption: entry.trxOption } : undefined;
}

/** Keeps an answer (the newest `maxEntries`); a failed write, or one lost to a project tested beside it, only costs the next run the question. */
export function storeMtpOptions(stateDir: string, key: string, trxOption: TrxOption | null): void {
  const entries = Object.entries({ ...read(stateDir), [key]: { trxOption, at: new Date().toISOString() } })
    .sort((a, b) => b[1].at.localeCompare(a[1].at))
    .slice(0, maxEntries);
  writeKeptAnswer(path.join(stateDir, fileName), Object.fromEntries(entries));
}
