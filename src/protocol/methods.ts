// JSON-RPC method names the Roslyn host implements, with the schema of each result. The drift
// test walks this table, so a method added here is checked against the host's exported schema.
import { HostStatusSchema, InitializeResultSchema } from './hostStatus';

export const HostMethods = {
  status: 'sharpclaw/status',
} as const;

export const protocolResultSchemas = {
  initialize: InitializeResultSchema,
  [HostMethods.status]: HostStatusSchema,
} as const;
