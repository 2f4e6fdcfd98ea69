// hostTool(): the definition of a tool the Roslyn host answers. Its params type comes from the
// protocol table (protocol/methods.ts), so a tool argument that no longer matches a host param fails
// to compile; the call adds the workspace folder and the tool's name, and validates the result. Its
// output schema is the method's result schema unless the tool returns something else, and its
// effect is the method's (a tool that writes is one whose method writes).
import type { z } from 'zod';
import { effectCovers, type Effect } from '../protocol/effects';
import { callHost, type NoUnknownParams } from '../protocol/callHost';
import type { HostRequest, ParamsOf, ResultOf } from '../protocol/methods';
import { defineTool, type ToolContext, type ToolDefinition } from './toolDefinition';

export interface HostToolDefinition<Input, M extends HostRequest, Given extends ParamsOf<M>, Result> extends Omit<ToolDefinition<Input, Result>, 'invoke' | 'effects' | 'hostMethods'> {
  /** Only where the tool does more than its method (default: the method's effect, which it must cover). */
  effects?: Effect;
  /** The host method that answers the tool (an entry of `Methods`). */
  method: M;
  /** Tool arguments → the method's params (workspace and tool are added). */
  params(input: Input, context: ToolContext): Given;
  /** What the tool returns from the host's result (default: the result itself). */
  result?(result: ResultOf<M>, input: Input, context: ToolContext): Result;
}

/** The method's result schema describes the tool's result only when the tool returns the host's result itself. */
function outputOf<M extends HostRequest, Result>(method: M, result: unknown, declared: z.ZodType<Result> | undefined): { output?: z.ZodType<Result> } {
  if (declared) return { output: declared };
  return result ? {} : { output: method.result as unknown as z.ZodType<Result> };
}

/** The call id, for the methods whose authorization requests echo it (the host binds nothing else to it). */
function callOf(method: HostRequest, context: ToolContext): { call?: string } {
  const shape = (method.params as { shape?: Record<string, unknown> }).shape;
  return context.call && shape && 'call' in shape ? { call: context.call } : {};
}

export function hostTool<Input, M extends HostRequest, Given extends ParamsOf<M>, Result = ResultOf<M>>(
  definition: HostToolDefinition<Input, M, Given, Result> & NoUnknownParams<ParamsOf<M>, Given>,
): ToolDefinition<Input, Result> {
  const { method, params, result, output, effects = method.effects, ...rest } = definition;
  if (!effectCovers(effects, method.effects)) throw new Error(`${definition.name} says it may ${effects}, but its method ${method.method} may ${method.effects}.`);
  return defineTool<Input, Result>({
    ...rest,
    effects,
    hostMethods: [method],
    ...outputOf(method, result, output),
    invoke: async (input, context) => {
      const sent = { ...(params(input, context) as object), workspace: context.workspaceFolder, tool: definition.name, ...callOf(method, context) } as ParamsOf<M>;
      const answer = await callHost(context.host, method, sent, context.signal);
      return result ? result(answer, input, context) : (answer as Result);
    },
  });
}
