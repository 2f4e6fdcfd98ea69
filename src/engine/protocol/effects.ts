// The one vocabulary of what a call may do, for authorization: every tool and every host method says
// which of these it has, and a call's effect decides what the permission policy may be asked for
// (permissions/permissionPolicy.ts). It is not how the host schedules a request beside others (the host's
// RequestScheduling: shared, exclusive, outside the solution, lifecycle), which the drift test checks
// against it: only a method that may write runs exclusively.
//   read   answers questions; a host read may need an MSBuild evaluation ('evaluation', asked by the host)
//   write  may change workspace files ('write', asked by the host before every semantic write)
//   build  runs project code: dotnet build and dotnet test ('shell')
export const effects = ['read', 'write', 'build'] as const;

export type Effect = (typeof effects)[number];

/** True when a call with effect `effect` may do everything a call with `covered` may (read < write < build). */
export function effectCovers(effect: Effect, covered: Effect): boolean {
  return effects.indexOf(effect) >= effects.indexOf(covered);
}
