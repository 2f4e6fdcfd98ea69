// Bounds automatic restarts: a host that keeps crashing is left down with a clear message
// instead of being restarted forever.
export class CrashBudget {
  private readonly crashes: number[] = [];

  constructor(
    readonly maxCrashes = 3,
    readonly windowMs = 3 * 60 * 1000,
  ) {}

  /** Records a crash; returns true when the budget is exhausted and the host must stay down. */
  recordCrash(now = Date.now()): boolean {
    this.crashes.push(now);
    while (this.crashes.length > 0 && now - this.crashes[0]! > this.windowMs) this.crashes.shift();
    return this.crashes.length >= this.maxCrashes;
  }

  get recentCrashes(): number {
    return this.crashes.length;
  }

  reset(): void {
    this.crashes.length = 0;
  }
}
