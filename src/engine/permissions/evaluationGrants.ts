// Evaluation the person already approved as part of something larger: a verification's one
// approval ("build and test X, which evaluates, builds and tests the projects") covers the host
// evaluating X for that run. The verifier holds a grant while its sharpclaw/projectGraph request
// runs; the host's sharpclaw/authorizeEvaluation for exactly that workspace, target and
// configuration is then answered from the grant instead of asking a second time. Grants live in
// this process's memory only: no tool argument, setting or file can create one.
import * as path from 'node:path';

export interface EvaluationScope {
  /** Absolute workspace folder. */
  workspace: string;
  /** Workspace-relative target, as the host names it. */
  target: string;
  configuration: string;
}

const active = new Map<number, EvaluationScope>();
let nextId = 1;

const same = (a: EvaluationScope, b: EvaluationScope) =>
  path.resolve(a.workspace) === path.resolve(b.workspace) && a.target.replace(/\\/g, '/') === b.target.replace(/\\/g, '/') && a.configuration === b.configuration;

/** Holds a grant until the returned function is called (call it in a finally). */
export function grantEvaluation(scope: EvaluationScope): () => void {
  const id = nextId++;
  active.set(id, { ...scope });
  return () => {
    active.delete(id);
  };
}

/** Whether a granted verification covers the host's request to evaluate `scope`. */
export function isEvaluationGranted(scope: EvaluationScope): boolean {
  for (const grant of active.values()) if (same(grant, scope)) return true;
  return false;
}
