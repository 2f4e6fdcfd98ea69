// The one place every permission request passes (the host's evaluation and write authorizations, the
// verifier's build/test approval), on every surface: VS Code, the CLI, MCP in both eras. In order:
//   1. a one-shot grant of this call that covers exactly this request (grants.ts) answers it, once;
//   2. else the surface's own policy decides (a dialog, flags, a prompt, an elicitation);
//   3. a granted build and test of a target also grants, for that call only and until it ends, the
//      host's evaluations of that target with that configuration, any framework (the person approved
//      "build and test X", which evaluates X: the project graph, and for reached tests the load);
//   4. a refusal the surface will ask about after the call (askLater) is kept as a question, with the
//      fingerprint of what is asked, for the retry that carries the person's answer.
// Session wraps its surface's policy in a gate; registerHostCallbacks and verify() wrap whatever they
// are given (PermissionGate.of never wraps twice), so no request reaches a policy around it.
import { fingerprintOf } from './fingerprints';
import { grantBook, scopeOf } from './grants';
import type { PermissionDecision, PermissionKind, PermissionPolicy, PermissionRequest } from './permissionPolicy';

export class PermissionGate implements PermissionPolicy {
  /** Requests the surface's policy is deciding now: a dialog, a prompt or an elicitation waiting on the person. */
  private undecided = 0;

  private constructor(readonly policy: PermissionPolicy) {}

  /** Whether a request is with the surface's policy now (the person may be being asked). */
  get asking(): boolean {
    return this.undecided > 0;
  }

  /** `policy` behind a gate (itself when it is one). */
  static of(policy: PermissionPolicy): PermissionGate {
    return policy instanceof PermissionGate ? policy : new PermissionGate(policy);
  }

  async request(request: PermissionRequest, signal?: AbortSignal): Promise<PermissionDecision> {
    const call = request.call;
    if (call && grantBook.holds(call, request.kind)) {
      const fingerprint = grantBook.needsFingerprint(call, request.kind) ? await fingerprintOf(request) : undefined;
      if (grantBook.take(call, scopeOf(request, fingerprint))) return this.granted(request, { granted: true, source: 'grant' });
    }
    let decision: PermissionDecision;
    this.undecided++;
    try {
      decision = await this.policy.request(request, signal);
    } finally {
      this.undecided--;
    }
    if (decision.granted) return this.granted(request, decision);
    if (decision.askLater && call) grantBook.recordQuestion(call, scopeOf(request, await fingerprintOf(request)), request);
    return decision;
  }

  refusal(kind: PermissionKind, call?: string): PermissionDecision | undefined {
    if (call && grantBook.holds(call, kind)) return undefined;
    return this.policy.refusal?.(kind, call);
  }

  private granted(request: PermissionRequest, decision: PermissionDecision): PermissionDecision {
    if (request.kind === 'shell' && request.call && request.target !== undefined) {
      const { fingerprint: _none, ...scope } = scopeOf(request);
      grantBook.issue(request.call, { ...scope, kind: 'evaluation', forTheCall: true });
    }
    return decision;
  }
}

/** The call ended: the grants it did not use are gone (its unasked question stays until it expires). */
export function endCall(call: string): void {
  grantBook.release(call);
}
