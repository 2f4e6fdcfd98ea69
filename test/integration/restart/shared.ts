// What both sessions of the restart suite use: a tool call through vscode.lm.invokeTool, as an agent makes it.
export { invokeTool as invoke } from '../support';

export const inspectHeader = /^target: Calculator\.slnx \(Debug\), 3 projects, load complete(, from approved snapshot)?$/m;
