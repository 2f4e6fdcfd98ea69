// A language-model chat provider (VS Code's stable API since 1.104) whose answers the chat tests
// script: each request takes the next step of the script. A step is a function of the request's
// messages returning { text?, toolCalls?: [{ name, input }] }, or it may wait for cancellation.
// Every request's messages are kept as plain text so tests can assert what the model was told.
const vscode = require('vscode');

const state = { steps: [], requests: [] };

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
