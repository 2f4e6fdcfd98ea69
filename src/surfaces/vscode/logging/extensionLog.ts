// The "SharpClaw" log output channel, plus a short in-memory tail of recent lines that the
// sidebar and the integration tests read (an output channel's contents are not readable).
import * as vscode from 'vscode';

export type LogLevel = 'trace' | 'info' | 'warn' | 'error';

export interface LogLine {
  time: string;
  level: LogLevel;
  message: string;
}

export class ExtensionLog implements vscode.Disposable {
  private readonly tail: LogLine[] = [];
  private readonly maxTail = 200;

  constructor(readonly channel: vscode.LogOutputChannel) {}

  info(message: string): void {
    this.channel.info(message);
    this.remember('info', message);
  }

  warn(message: string): void {
    this.channel.warn(message);
    this.remember('warn', message);
  }

  error(message: string): void {
    this.channel.error(message);
    this.remember('error', message);
  }

  recent(): readonly LogLine[] {
    return this.tail;
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }

  private remember(level: LogLevel, message: string): void {
    this.tail.push({ time: new Date().toISOString(), level, message });
    if (this.tail.length > this.maxTail) this.tail.shift();
  }
}
