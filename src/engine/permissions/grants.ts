// The one book of approvals that outlive the moment they were given: one-shot grants and the questions
// a surface will put to the person after a call returns. Everything here lives in this process's memory
// only; no tool argument, setting or file can create an entry, and PermissionGate (permissionGate.ts) is
// the only reader.
//
// A grant names the call it belongs to (an id the engine makes per tool call, `<surface>-<random>`, which
// the host echoes in its authorization requests), the kind, workspace, target, configuration, framework
// and — when the person was asked — the fingerprint of what they were asked about. It answers one
// matching request of that call, once, and is gone when used or when the call ends. The one exception is
// the evaluation an approved build and test carries (permissionGate.ts): it lasts for its call, since the
// call evaluates its target more than once (the project graph, then the load that finds reached tests).
//
// A question is a refusal the surface can ask about later (MCP 2026-07-28: an input_required result). It
// gets a nonce and an expiry; answering it (allow or deny) spends the nonce, so a resent answer is refused
// for as long as the nonce is remembered, which is as long as it could be valid.
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import type { PermissionKind, PermissionRequest } from './permissionPolicy';

/** How long a question can be answered (the MCP requestState carries the same expiry). */
export const questionLifetimeMs = 300_000;

/** Bounds of the book: a client cannot grow this process's memory by asking without answering. */
const maxQuestions = 1_000;

export interface GrantScope {
  kind: PermissionKind;
  workspace: string;
  target?: string;
  configuration?: string;
  targetFramework?: string;
  /** What the person was asked about (fingerprints.ts); absent: the call's own approval, no earlier question. */
  fingerprint?: string;
  /** Answers every matching request of its call until the call ends, each framework of the target included. */
  forTheCall?: boolean;
}

export interface Question extends GrantScope {
  nonce: string;
  /** The call that was refused. */
  call: string;
  expiresAt: number;
  /** The request as the person will read it. */
  request: PermissionRequest;
  /** Answered: the nonce is spent. */
  spent: boolean;
}

export type Redemption = { ok: true; question: Question } | { ok: false; reason: 'spent' | 'expired' | 'unknown' };

/** A new call id: unguessable, so nothing outside this process can name another call's grants. */
export function newCallId(surface: string): string {
  return `${surface}-${randomBytes(12).toString('hex')}`;
}

const normalTarget = (target: string | undefined) => (target ?? '').replace(/\\/g, '/');
const normalWorkspace = (workspace: string) => path.resolve(workspace);

/** The request's scope, in the form grants compare. */
export function scopeOf(request: PermissionRequest, fingerprint?: string): GrantScope {
  return {
    kind: request.kind,
    workspace: request.workspaceFolder,
    ...(request.target !== undefined ? { target: request.target } : {}),
    ...(request.configuration !== undefined ? { configuration: request.configuration } : {}),
    ...(request.targetFramework !== undefined ? { targetFramework: request.targetFramework } : {}),
    ...(fingerprint !== undefined ? { fingerprint } : {}),
  };
}

function covers(grant: GrantScope, wanted: GrantScope): boolean {
  return (
    grant.kind === wanted.kind &&
    normalWorkspace(grant.workspace) === normalWorkspace(wanted.workspace) &&
    normalTarget(grant.target) === normalTarget(wanted.target) &&
    (grant.configuration ?? '') === (wanted.configuration ?? '') &&
    ((grant.forTheCall && grant.targetFramework === undefined) || (grant.targetFramework ?? '') === (wanted.targetFramework ?? '')) &&
    (grant.fingerprint === undefined || grant.fingerprint === wanted.fingerprint)
  );
}

class GrantBook {
  private readonly grants = new Map<string, GrantScope[]>();
  /** Refusals of running or finished calls, not yet put to the person. */
  private readonly unasked = new Map<string, Question>();
  /** Questions put to the person, by nonce, until they expire (spent or not). */
  private readonly asked = new Map<string, Question>();

  issue(call: string, scope: GrantScope): void {
    const list = this.grants.get(call) ?? [];
    list.push({ ...scope });
    this.grants.set(call, list);
  }

  /** Whether `call` holds a grant of `kind` (a fingerprint may still be needed to use it). */
  holds(call: string, kind: PermissionKind): boolean {
    return this.grants.get(call)?.some((grant) => grant.kind === kind) ?? false;
  }

  /** Whether one of the call's grants of this kind is bound to a fingerprint. */
  needsFingerprint(call: string, kind: PermissionKind): boolean {
    return this.grants.get(call)?.some((grant) => grant.kind === kind && grant.fingerprint !== undefined) ?? false;
  }

  /** Uses up the call's grant that covers `wanted` (one that lasts for the call stays); false when none does. */
  take(call: string, wanted: GrantScope): boolean {
    const list = this.grants.get(call);
    const index = list?.findIndex((grant) => covers(grant, wanted)) ?? -1;
    if (!list || index < 0) return false;
    if (list[index]!.forTheCall) return true;
    list.splice(index, 1);
    if (list.length === 0) this.grants.delete(call);
    return true;
  }

  /** The call ended: grants it did not use are gone. */
  release(call: string): void {
    this.grants.delete(call);
  }

  /** Keeps the first askable refusal of `call`. */
  recordQuestion(call: string, scope: GrantScope, request: PermissionRequest, now = Date.now()): void {
    this.prune(now);
    if (this.unasked.has(call)) return;
    if (this.unasked.size >= maxQuestions) this.unasked.delete(this.unasked.keys().next().value!);
    this.unasked.set(call, { ...scope, nonce: randomBytes(16).toString('hex'), call, expiresAt: now + questionLifetimeMs, request, spent: false });
  }

  /** The question `call` left, now put to the person (its nonce remembered until it expires). */
  takeQuestion(call: string, now = Date.now()): Question | undefined {
    this.prune(now);
    const question = this.unasked.get(call);
    if (!question) return undefined;
    this.unasked.delete(call);
    if (this.asked.size >= maxQuestions) this.asked.delete(this.asked.keys().next().value!);
    this.asked.set(question.nonce, question);
    return question;
  }

  /**
   * The person's answer to a question, carried by `retryCall`: spends the nonce whatever the answer;
   * allowed, the retry holds a one-shot grant for exactly what was asked.
   */
  redeem(nonce: string, retryCall: string, allowed: boolean, now = Date.now()): Redemption {
    const question = this.asked.get(nonce);
    if (!question) return { ok: false, reason: 'unknown' };
    if (question.spent) return { ok: false, reason: 'spent' };
    if (question.expiresAt < now) return { ok: false, reason: 'expired' };
    question.spent = true;
    if (allowed) {
      const { nonce: _nonce, call: _call, expiresAt: _expires, request: _request, spent: _spent, ...scope } = question;
      this.issue(retryCall, scope);
    }
    return { ok: true, question };
  }

  private prune(now: number): void {
    for (const [key, question] of this.unasked) if (question.expiresAt < now) this.unasked.delete(key);
    for (const [key, question] of this.asked) if (question.expiresAt < now) this.asked.delete(key);
  }
}

/** The process's one book (a verifier and the host's callbacks may sit in different Sessions). */
export const grantBook = new GrantBook();
