// Records the writes of one agent turn, in order, with the tool that made each: the turn's one
// checkpoint mutation set. Recording the same write again (a retried persistence) changes
// nothing, so checkpoint ids never repeat. The recorder knows nothing of the editor: a surface
// calls record() for each write its tools made.
import type { VerificationReport } from '../verification/report';
import { MutationSchema, mutationKind, startsVerification, type Mutation } from './mutations';

export interface Checkpoint {
  /** The turn's id: one checkpoint per turn. */
  id: string;
  /** The workspace folder the turn ran in (absolute). */
  workspaceFolder: string;
  /** In the order they were written. */
  mutations: Mutation[];
  /** Set when the turn finished (normally, failed, interrupted or cancelled). */
  finalizedAt: string | null;
  /** The last automatic check's report, kept on the finished turn (a failed turn keeps why it failed). */
  report?: VerificationReport;
}

export type RecordedWrite = Omit<Mutation, 'kind'> & { kind?: Mutation['kind'] };

export class TurnRecorder {
  private readonly mutations: Mutation[] = [];
  private readonly ids = new Set<string>();
  private finalizedAt: string | null = null;

  constructor(
    readonly turnId: string,
    readonly workspaceFolder: string,
  ) {}

  /** Records one write; false when a write with this id is already recorded (a retry). */
  record(write: RecordedWrite): boolean {
    if (this.ids.has(write.id)) return false;
    if (this.finalizedAt !== null) throw new Error(`Turn ${this.turnId} is finalized; its checkpoint takes no more writes.`);
    const mutation = MutationSchema.parse({ ...write, kind: write.kind ?? mutationKind(write.file) });
    this.ids.add(mutation.id);
    this.mutations.push(mutation);
    return true;
  }

  get recorded(): readonly Mutation[] {
    return this.mutations;
  }

  /** True when some recorded write is a source, project or build-input change. */
  get hasVerifiableMutation(): boolean {
    return this.mutations.some((mutation) => startsVerification(mutation.kind));
  }

  /** The files the turn changed, each once, in the order first written. */
  get changedFiles(): string[] {
    return [...new Set(this.mutations.map((mutation) => mutation.file))];
  }

  get isFinalized(): boolean {
    return this.finalizedAt !== null;
  }

  finalize(at = new Date()): Checkpoint {
    this.finalizedAt ??= at.toISOString();
    return this.checkpoint();
  }

  checkpoint(): Checkpoint {
    return { id: this.turnId, workspaceFolder: this.workspaceFolder, mutations: [...this.mutations], finalizedAt: this.finalizedAt };
  }
}
