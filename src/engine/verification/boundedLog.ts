// Keeps the start and the end of a long process output within a byte budget, so reports stay
// small while the first error and the final summary survive.
export interface BoundedLogSnapshot {
  text: string;
  truncated: boolean;
  totalBytes: number;
}

export class BoundedLog {
  private head = '';
  private tail = '';
  private total = 0;
  private overflowed = false;

  constructor(
    private readonly headBytes = 8 * 1024,
    private readonly tailBytes = 24 * 1024,
  ) {}

  append(text: string): void {
    this.total += Buffer.byteLength(text);
    if (!this.overflowed && this.head.length + text.length <= this.headBytes) {
      this.head += text;
      return;
    }
    if (!this.overflowed) {
      const room = Math.max(0, this.headBytes - this.head.length);
      this.head += text.slice(0, room);
      text = text.slice(room);
      this.overflowed = true;
    }
    this.tail = (this.tail + text).slice(-this.tailBytes);
  }

  snapshot(): BoundedLogSnapshot {
    const truncated = this.overflowed && this.total > this.headBytes + this.tailBytes;
    const text = truncated ? `${this.head}\n… ${this.total - this.head.length - this.tail.length} bytes omitted …\n${this.tail}` : this.head + this.tail;
    return { text, truncated, totalBytes: this.total };
  }
}
