// Agent turns of one workspace run one after another: a second @sharpclaw request sent while a
// turn runs (another chat, or the same one) waits its place, so two turns never edit, verify and
// repair the same files at once and the turn log stays in order. (Build and test output is kept
// apart across processes by the workspace verification lock; this keeps turn order in-process.)
// A request cancelled while it waits leaves the queue without running.

export class TurnWaitCancelledError extends Error {
  constructor() {
    super('Cancelled while waiting for the running turn to finish; this request did not run.');
    this.name = 'TurnWaitCancelledError';
  }
}

export class TurnQueue {
  private tail: Promise<void> = Promise.resolve();
  private inQueue = 0;

  /** True while a turn runs or waits. */
  get busy(): boolean {
    return this.inQueue > 0;
  }

  /** Runs `work` after every turn queued before it; `onWait` is called first when it has to wait. */
  async run<T>(signal: AbortSignal, onWait: () => void, work: () => Promise<T>): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    // The next turn waits for this one and, through `previous`, for every turn before it.
    this.tail = previous.then(() => mine);
    if (this.busy) onWait();
    this.inQueue++;
    try {
      await untilDoneOrAborted(previous, signal);
      return await work();
    } finally {
      this.inQueue--;
      release();
    }
  }
}

function untilDoneOrAborted(done: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new TurnWaitCancelledError());
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new TurnWaitCancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    void done.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
