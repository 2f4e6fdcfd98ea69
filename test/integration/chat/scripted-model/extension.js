// A language-model chat provider (VS Code's stable API since 1.104) whose answers the chat tests
// script: each request takes the next step of the script. Two ways to script it:
//   - in the extension host (test/integration/chat): the extension's exports, script(steps), where
//     a step is a function of the request's messages returning { text?, toolCalls?: [{ name, input }] },
//     or it may wait for cancellation;
//   - from outside VS Code (the browser tests, test/e2e, which never reach into an extension): a
//     data script, a JSON file named by the environment variable SHARPCLAW_SCRIPTED_MODEL_SCRIPT
//     (set on code-server's process, which the extension host inherits) holding an array of steps
//     { "text"?: string, "toolCalls"?: [{ "name": string, "input": object }] }. When a request finds
//     no steps left, the file is read and removed (so writing it again gives the next script); each
//     request's messages are appended, as text, to "<that file>.requests.jsonl" (one JSON array of
//     strings a line), so a browser test can show what the model was told.
// Every request's messages are kept as plain text so tests can assert what the model was told.
const fs = require('node:fs');
const vscode = require('vscode');

const state = { steps: [], requests: [] };
const scriptFile = process.env.SHARPCLAW_SCRIPTED_MODEL_SCRIPT;

function messageText(message) {
  return message.content
    .map((part) => {
      if (part instanceof vscode.LanguageModelTextPart) return part.value;
      if (part instanceof vscode.LanguageModelToolResultPart) return part.content.map((inner) => (inner instanceof vscode.LanguageModelTextPart ? inner.value : '')).join('');
      if (part instanceof vscode.LanguageModelToolCallPart) return `[call ${part.name} ${JSON.stringify(part.input)}]`;
      return '';
    })
    .join('');
}

/** The data script's steps, if its file is there (then removed); a malformed file is an error the chat shows. */
function takeDataScript() {
  if (!scriptFile || !fs.existsSync(scriptFile)) return;
  const steps = JSON.parse(fs.readFileSync(scriptFile, 'utf8'));
  fs.rmSync(scriptFile);
  if (!Array.isArray(steps)) throw new Error(`${scriptFile}: the script must be a JSON array of steps`);
  state.steps = steps.map((step) => () => step);
}

exports.activate = (context) => {
  let callId = 0;
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider('sharpclaw-scripted', {
      provideLanguageModelChatInformation: async () => [
        { id: 'scripted', name: 'Scripted', family: 'scripted', version: '1', maxInputTokens: 200000, maxOutputTokens: 20000, capabilities: { toolCalling: true } },
      ],
      async provideLanguageModelChatResponse(_model, messages, _options, progress, token) {
        const texts = messages.map(messageText);
        state.requests.push(texts);
        if (scriptFile) fs.appendFileSync(`${scriptFile}.requests.jsonl`, `${JSON.stringify(texts)}\n`);
        if (state.steps.length === 0) takeDataScript();
        const step = state.steps.shift();
        if (!step) {
          progress.report(new vscode.LanguageModelTextPart('(the script has no more steps)'));
          return;
        }
        const answer = await step(texts, token);
        if (answer.text) progress.report(new vscode.LanguageModelTextPart(answer.text));
        for (const call of answer.toolCalls ?? []) progress.report(new vscode.LanguageModelToolCallPart(`call${++callId}`, call.name, call.input));
      },
      provideTokenCount: async (_model, text) => Math.ceil((typeof text === 'string' ? text.length : 100) / 4),
    }),
  );
  return {
    /** Replaces the script: the next requests take these steps in order. */
    script(steps) {
      state.steps = [...steps];
      state.requests = [];
    },
    /** Each request's messages, as text. */
    requests: () => state.requests,
    remainingSteps: () => state.steps.length,
  };
};
