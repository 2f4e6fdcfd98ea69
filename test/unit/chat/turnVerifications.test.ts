// An @sharpclaw turn gets back the report of its own verify_workspace call, keyed by its chat
// session's tool invocation token (src/surfaces/vscode/chat/turnVerifications.ts): a call from
// another chat, from no chat (the check after agent edits) or a second call of the same session
// never hands its report to the waiting turn.
import * as assert from 'node:assert/strict';
import { chatSessionKey, TurnVerifications } from '../../../src/surfaces/vscode/chat/turnVerifications';
import type { VerificationReport } from '../../../src/engine/verification/report';
import { report } from '../turns/reports';

const uri = (path: string) => ({ scheme: 'vscode-chat-session', authority: 'local', path, query: '', fragment: '', toString: () => `vscode-chat-session://local${path}` });

describe('a turn\'s own verification report', () => {
  it('keys a token by its chat session: VS Code 1.100\'s sessionId, later versions\' sessionResource (a Uri or its revived components)', () => {
    assert.equal(chatSessionKey({ sessionId: 'abc' }), 'session:abc');
    assert.equal(chatSessionKey({ sessionResource: uri('/one') }), chatSessionKey({ sessionResource: { scheme: 'vscode-chat-session', authority: 'local', path: '/one', query: '', fragment: '', $mid: 1 } }));
    assert.notEqual(chatSessionKey({ sessionResource: uri('/one') }), chatSessionKey({ sessionResource: uri('/two') }));
    for (const none of [undefined, null, 'abc', {}, { sessionId: '' }, { sessionResource: 'x' }]) assert.equal(chatSessionKey(none), undefined, JSON.stringify(none));
  });

  it('hands the report of the call carrying the turn\'s token to that turn, and no other call\'s', () => {
    const turns = new TurnVerifications();
    const wait = turns.expect({ sessionId: 'mine' });
    assert.equal(turns.claim(undefined), undefined, 'a call from no chat (after agent edits, a command) is not the turn\'s');
    assert.equal(turns.claim({ sessionId: 'another chat' }), undefined, 'Copilot\'s agent in another chat is not the turn\'s');
    const deliver = turns.claim({ sessionId: 'mine' });
    assert.ok(deliver);
    assert.equal(turns.claim({ sessionId: 'mine' }), undefined, 'only the first call of the session is the turn\'s');
    const own: VerificationReport = report('failed');
    deliver(own);
    wait.dispose();
    assert.equal(wait.report, own);
    assert.equal(turns.claim({ sessionId: 'mine' }), undefined, 'after the turn stopped waiting nothing is handed to it');
  });

  it('refuses a token it cannot key, and a second wait of one session', () => {
    const turns = new TurnVerifications();
    assert.throws(() => turns.expect(undefined), /no tool invocation token/);
    const wait = turns.expect({ sessionId: 'mine' });
    assert.throws(() => turns.expect({ sessionId: 'mine' }), /already running/);
    wait.dispose();
    turns.expect({ sessionId: 'mine' }).dispose();
  });
});
