// The verification tests' helpers live in ../support.ts (shared by every host-e2e file); this re-export keeps
// their imports until they move to it.
export * from '../support';
