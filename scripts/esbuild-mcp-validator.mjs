// An esbuild plugin: bundles the MCP SDK with its Cloudflare Workers JSON Schema validator instead of
// Ajv; used by esbuild.mjs for every bundle, and by its unit test.
/**
 * The MCP server SDK picks its default JSON Schema validator in `@modelcontextprotocol/server/_shims`:
 * Ajv with its formats on Node (150 KB minified, a third of the SDK in the bundle), the SDK's own
 * `validators/cf-worker` (@cfworker/json-schema, 40 KB) on workerd. The server validates with it
 * only what a client answers to an elicitation, which SharpClaw never asks for; tool inputs are
 * checked by runTool and outputs by the tools' zod schemas. So the Node shim resolves to one that
 * exports the SDK's smaller validator, with Node's real `process` (the stdio transport needs it).
 */
export const mcpSmallValidator = {
  name: 'mcp-small-validator',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, (args) => ({ path: args.path, namespace: 'mcp-small-validator', pluginData: { resolveDir: args.resolveDir } }));
    build.onLoad({ filter: /.*/, namespace: 'mcp-small-validator' }, (args) => ({
      contents: [
        "export { CfWorkerJsonSchemaValidator as DefaultJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';",
        "export { default as process } from 'node:process';",
      ].join('\n'),
      resolveDir: args.pluginData.resolveDir,
      loader: 'js',
    }));
  },
};
