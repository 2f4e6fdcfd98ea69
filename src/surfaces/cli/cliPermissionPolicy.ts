// The CLI's permission policy: `--permission-mode` plus explicit `--allow-*` flags typed by the
// person running the command, or a y/N prompt when both stdin and stderr are a terminal.
// Settings files are never consulted: nothing in the workspace can grant a permission.
import type { PermissionDecision, PermissionKind, PermissionPolicy, PermissionRequest } from '../../engine/permissions/permissionPolicy';

export type PermissionMode = 'read-only' | 'workspace-write';
export const permissionModes: readonly PermissionMode[] = ['read-only', 'workspace-write'];

export interface CliPermissionSettings {
  mode: PermissionMode;
  allowEvaluation: boolean;
  allowShell: boolean;
  allowWrite: boolean;
  /** Asks the person at the terminal; undefined when not interactive. */
  prompt?: (question: string) => Promise<boolean>;
  /** Why nobody can be asked, in a refusal (default: this terminal is not interactive). */
  cannotAsk?: string;
}

const flagFor: Record<PermissionKind, string> = {
  evaluation: '--allow-evaluation',
  shell: '--allow-shell',
  write: '--allow-write',
};

export class CliPermissionPolicy implements PermissionPolicy {
  readonly decisions: Array<{ request: PermissionRequest; decision: PermissionDecision }> = [];

  constructor(private readonly settings: CliPermissionSettings) {}

  async request(request: PermissionRequest): Promise<PermissionDecision> {
    const decision = await this.decide(request);
    this.decisions.push({ request, decision });
    return decision;
  }

  refusal(kind: PermissionKind): PermissionDecision | undefined {
    return this.refuse(kind, kind === 'shell' ? 'build and test the workspace' : kind === 'write' ? 'write workspace files' : 'evaluate the workspace with MSBuild');
  }

  /** The denial that needs nobody's answer: read-only mode, or no flag and no terminal to ask. */
  private refuse(kind: PermissionKind, what: string): PermissionDecision | undefined {
    if (this.settings.mode === 'read-only') {
      return {
        granted: false,
        source: 'cli-mode',
        message: `--permission-mode read-only does not allow SharpClaw to ${what}. Run with --permission-mode workspace-write ${flagFor[kind]} to allow it.`,
      };
    }
    if (this.allowedByFlag(kind) || this.settings.prompt) return undefined;
    return {
      granted: false,
      source: 'cli-flag',
      message: `SharpClaw needs permission to ${what}, and ${this.settings.cannotAsk ?? 'this terminal is not interactive'}. Pass ${flagFor[kind]} to allow it.`,
    };
  }

  private allowedByFlag(kind: PermissionKind): boolean {
    return { evaluation: this.settings.allowEvaluation, shell: this.settings.allowShell, write: this.settings.allowWrite }[kind];
  }

  private async decide(request: PermissionRequest): Promise<PermissionDecision> {
    const what = `${request.action}${request.target ? ` (${request.target})` : ''}`;
    const refused = this.refuse(request.kind, what);
    if (refused) return refused;
    if (this.allowedByFlag(request.kind)) return { granted: true, source: 'cli-flag' };
    const granted = await this.settings.prompt!(`SharpClaw wants to ${what}.\n  Why: ${request.reason}\n  Asked by: ${request.requestedBy}\nAllow? [y/N] `);
    return granted
      ? { granted: true, source: 'cli-prompt' }
      : { granted: false, source: 'cli-prompt', message: `You declined to let SharpClaw ${what}.` };
  }
}
