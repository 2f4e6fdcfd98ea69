// Read calls that go on after their caller was answered `error loading` (mcpLoadWait.ts): the same
// call asked again — same tool, same arguments — joins the one under way instead of starting the
// work a second time, so an agent that asks again every few seconds while a large solution loads or
// compiles adds no work to the host and gets the answer as soon as it is ready. Only calls whose
// caller already has an answer are kept: nobody can cancel them any more, so no caller's cancellation
// reaches another's answer. Each is forgotten once it ends (a later call asks afresh).
import type { ToolOutcome } from '../../engine/tools/runTool';

/** The key of a call: the tool and its arguments, objects' keys sorted (the same arguments in any order). */
export function callKey(tool: string, args: unknown): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]));
    }
    return value;
  };
  return `${tool} ${JSON.stringify(canonical(args) ?? null)}`;
}

export class RunningReads {
  private readonly left = new Map<string, Promise<ToolOutcome>>();

  /** The call left running under `key`, if one is, else a new one from `start`. */
  joinOrStart(key: string, start: () => Promise<ToolOutcome>): Promise<ToolOutcome> {
    return this.left.get(key) ?? start();
  }

  /** Keeps `running`, whose caller was answered before it, for the same call asked again until it ends. */
  keep(key: string, running: Promise<ToolOutcome>): void {
    this.left.set(key, running);
    const forget = (): void => {
      if (this.left.get(key) === running) this.left.delete(key);
    };
    running.then(forget, forget);
  }

  /** How many calls are kept now (tests). */
  get size(): number {
    return this.left.size;
  }
}
