// The typed way to call the host: callHost(host, Methods.navigate, params, signal). The params and
// the result type come from the protocol table, so a param the table does not know (a renamed one)
// fails to compile; the result is validated by the method's result schema.
import type { z } from 'zod';
import type { HostRequest, ParamsOf, ResultOf } from './methods';

/**
 * What sends a request to the host and validates its answer: the host supervisor, or a session's
 * requester around it. Defined here, beside the one typed way to call it, so the protocol needs
 * nothing from the host folder above it (engine/host/hostRequester.ts re-exports it).
 */
export interface HostRequester {
  request<T>(method: string, params: unknown, resultSchema: z.ZodType<T>, signal?: AbortSignal): Promise<T>;
}

/** `Given` with no property the table's `Shape` lacks: an extra (misspelt, renamed) key becomes `never`. */
export type Exactly<Shape, Given> = Given & { [Key in Exclude<keyof Given, keyof Shape>]: never };

/** Nothing when `Given` has only keys of `Shape`; else a required `unknownParams` naming the extra keys, so the definition fails to compile. */
export type NoUnknownParams<Shape, Given> = [Exclude<keyof Given, keyof Shape>] extends [never] ? unknown : { unknownParams: Exclude<keyof Given, keyof Shape> };

export function callHost<M extends HostRequest, Given extends ParamsOf<M>>(
  host: HostRequester,
  method: M,
  params: Exactly<ParamsOf<M>, Given>,
  signal?: AbortSignal,
): Promise<ResultOf<M>> {
  return host.request(method.method, params, method.result, signal) as Promise<ResultOf<M>>;
}
