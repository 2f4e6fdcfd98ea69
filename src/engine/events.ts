// A small typed event emitter with VS Code's Event shape (listener, thisArgs, disposables), so
// engine objects (the host supervisor, the session) can be listened to from any surface without
// importing vscode. A failing listener never fails the emitter.
export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (value: T) => void, thisArgs?: unknown, disposables?: Disposable[]) => Disposable;

export class Emitter<T> implements Disposable {
  private readonly listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    const bound = thisArgs === undefined ? listener : listener.bind(thisArgs);
    this.listeners.add(bound);
    const subscription = { dispose: () => void this.listeners.delete(bound) };
    disposables?.push(subscription);
    return subscription;
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch {
        // A listener's failure is its own.
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
