// The quick fixes that lead a person to SharpClaw's compiler-checked fix-all: on a C# diagnostic with a
// compiler or analyzer code (CS0168, IDE0005, CA1822…), in the editor's light bulb and the Problems
// panel's quick fix menu, "Fix all CS0168 in project/solution (compiler-checked)…" runs
// sharpclaw.fixAll. Offering them asks the host nothing (a light bulb must stay instant and must not
// load a solution); the command says so when Roslyn has no fix-all for the code.
import * as vscode from 'vscode';

export type FixAllScope = 'project' | 'solution';

/** sharpclaw.fixAll's argument: the diagnostic's file, code and 1-based line, and the scope. */
export interface FixAllRequest {
  uri: string;
  code: string;
  line: number;
  scope: FixAllScope;
}

const codePattern = /^[A-Z]{2,}\d{3,}$/;

/** The diagnostic's code when it is a compiler or analyzer id (CS0168), from any source (the C# extension, SharpClaw's verifier). */
export function diagnosticCode(diagnostic: vscode.Diagnostic): string | undefined {
  const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
  const text = code === undefined ? undefined : String(code);
  return text && codePattern.test(text) ? text : undefined;
}

export class FixAllCodeActionProvider implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    // In Restricted Mode SharpClaw loads nothing; the command would only say so.
    if (!vscode.workspace.isTrusted || document.uri.scheme !== 'file') return [];
    const actions: vscode.CodeAction[] = [];
    const offered = new Set<string>();
    for (const diagnostic of context.diagnostics) {
      const code = diagnosticCode(diagnostic);
      if (!code || offered.has(code)) continue;
      offered.add(code);
      for (const scope of ['project', 'solution'] as const) {
        const action = new vscode.CodeAction(`Fix all ${code} in ${scope} (compiler-checked)…`, vscode.CodeActionKind.QuickFix);
        const request: FixAllRequest = { uri: document.uri.toString(), code, line: diagnostic.range.start.line + 1, scope };
        action.command = { command: 'sharpclaw.fixAll', title: action.title, arguments: [request] };
        action.diagnostics = [diagnostic];
        actions.push(action);
      }
    }
    return actions;
  }
}

export function registerFixAllCodeActions(): vscode.Disposable {
  return vscode.languages.registerCodeActionsProvider({ language: 'csharp', scheme: 'file' }, new FixAllCodeActionProvider(), { providedCodeActionKinds: FixAllCodeActionProvider.kinds });
}
