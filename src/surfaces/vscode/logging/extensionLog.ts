// The "SharpClaw" log output channel, plus a short in-memory tail of recent lines that the
// sidebar and the integration tests read (an output channel's contents are not readable).
// The language client writes the host's lines through hostChannel(), which maps them to their
// own level (see hostLogLines.ts). Once disposed, writes are dropped: the host may still log
// while it stops after the window closed.
import type * as vscode from 'vscode';
import { classifyHostLine, type HostLineLevel } from './hostLogLines';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

export interface LogLine {
  time: string;
  level: LogLevel;
  message: string;
}

export class ExtensionLog implements vscode.Disposable {
  private readonly tail: LogLine[] = [];
  private readonly maxTail = 200;
  private closed = false;
  private hostLevel: HostLineLevel = 'info';

  constructor(readonly channel: vscode.LogOutputChannel) {}

  trace(message: string): void {
    this.write('trace', message);
  }

  debug(message: string): void {
    this.write('debug', message);
  }

  info(message: string): void {
    this.write('info', message);
  }

  warn(message: string): void {
    this.write('warn', message);
  }

  error(message: string): void {
    this.write('error', message);
  }

  recent(): readonly LogLine[] {
    return this.tail;
  }

  show(): void {
    if (!this.closed) this.channel.show(true);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    this.channel.dispose();
  }

  /** One line from the host or the language client, at the level the host gave it. */
  hostLine(text: string, clientLevel: HostLineLevel = 'info'): void {
    const line = classifyHostLine(text, this.hostLevel, clientLevel);
    this.hostLevel = line.level;
    this.write(line.level, line.message);
  }

  /**
   * The output channel handed to vscode-languageclient: whatever level the client picks (it logs
   * all of the host's stderr as errors), each line is shown at the host's own level.
   */
  hostChannel(): vscode.LogOutputChannel {
    const channel = this.channel;
    const line = (level: HostLineLevel) => (message: string | Error) => this.hostLine(message instanceof Error ? message.message : message, level);
    const guarded = (action: () => void) => {
      if (!this.closed) action();
    };
    return {
      get name() {
        return channel.name;
      },
      get logLevel() {
        return channel.logLevel;
      },
      onDidChangeLogLevel: channel.onDidChangeLogLevel,
      trace: line('trace'),
      debug: line('debug'),
      info: line('info'),
      warn: line('warn'),
      error: line('error'),
      append: (value: string) => guarded(() => channel.append(value)),
      appendLine: line('info'),
      replace: (value: string) => guarded(() => channel.replace(value)),
      clear: () => guarded(() => channel.clear()),
      show: () => this.show(),
      hide: () => guarded(() => channel.hide()),
      // The extension owns the channel: the client stopping must not close it.
      dispose: () => undefined,
    } as vscode.LogOutputChannel;
  }

  /** The channel itself, for the trace channel: writes pass through unchanged until it is disposed. */
  guardedChannel(): vscode.LogOutputChannel {
    const channel = this.channel;
    return new Proxy(channel, {
      get: (target, property, receiver) => {
        if (property === 'dispose') return () => undefined;
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => (this.closed ? undefined : (value as (...a: unknown[]) => unknown).apply(target, args));
      },
    });
  }

  private write(level: LogLevel, message: string): void {
    if (this.closed) return;
    this.channel[level](message);
    this.tail.push({ time: new Date().toISOString(), level, message });
    if (this.tail.length > this.maxTail) this.tail.shift();
  }
}
