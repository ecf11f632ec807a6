// Approvals asked inline in the agent panel: while the panel's chat runs, the server's approval
// window/showMessageRequest becomes a card in the transcript (the command in full, the working
// directory, what "Allow for this chat" covers) instead of a modal dialog; nothing takes focus,
// Enter and Escape deny, only a click on Allow allows.
//
// Runs after the evals suite against the same scripted model: the four entries after the evals
// suite's are a bash call and a reply, twice.

import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ChatOutcome } from '../../agent';
import { extensionApi, open, screenshot, waitFor } from './helpers';

function ask(prompt: string): Thenable<ChatOutcome> {
  return vscode.commands.executeCommand<ChatOutcome>('skillLsp.askAgent', prompt, { newChat: true });
}

suite('inline approvals', () => {
  test('the card shows the whole command, where it runs and the scope; Enter denies; focus stays', async () => {
    const api = await extensionApi();
    const editor = await open('skills/pdf-tools/SKILL.md');
    const chat = ask('Echo something for me');
    const id = await waitFor('an approval waiting in the panel', () => api.agent.pendingApproval());
    const rendered = await waitFor('the approval card', () => {
      const text = api.agent.rendered();
      // The card's heading is upper-cased by CSS, and innerText reports it so.
      return text && /approval needed/i.test(text) && text.includes('Command') ? text : undefined;
    });
    // The whole command, both lines, not the one-line summary.
    assert.match(rendered, /echo inline-approval && echo second line/);
    assert.match(rendered, /Working directory/);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    assert.ok(rendered.includes(folder), `the working directory ${folder} is shown: ${rendered}`);
    assert.match(rendered, /Allow for this chat: every command the agent runs in this conversation/);
    // The card sits under its call's card.
    assert.ok(rendered.indexOf('{"command"') < rendered.indexOf('Working directory'), rendered);
    assert.match(rendered, /Enter or Escape denies/);
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.toString(), editor.document.uri.toString(), 'the editor keeps focus');
    await screenshot('approval-inline');

    assert.ok(await api.agent.sendToPanel('Enter'));
    const outcome = await chat;
    assert.strictEqual(outcome.state, 'done', JSON.stringify(outcome));
    assert.strictEqual(outcome.reply, 'Understood: I will not run it.');
    const approval = outcome.entries.find((entry) => entry.kind === 'approval');
    assert.ok(approval && approval.kind === 'approval');
    assert.deepStrictEqual([approval.id, approval.pending, approval.answer], [id, false, 'Deny']);
    const tool = outcome.entries.find((entry) => entry.kind === 'tool');
    assert.ok(tool && tool.kind === 'tool');
    assert.strictEqual(tool.result?.isError, true);
    assert.match(tool.result?.content ?? '', /did not approve/);
    await waitFor('the answered card', () => api.agent.rendered()?.includes('→ Deny'));
  });

  test('Allow once takes a click, and the command runs', async () => {
    const api = await extensionApi();
    const chat = ask('Echo something else');
    await waitFor('an approval waiting in the panel', () => api.agent.pendingApproval());
    await waitFor('the approval card', () => {
      const text = api.agent.rendered();
      return text && /approval needed/i.test(text) && text.includes('echo allowed-once');
    });
    assert.ok(await api.agent.sendToPanel('click:Allow once'));
    const outcome = await chat;
    assert.strictEqual(outcome.state, 'done', JSON.stringify(outcome));
    const tool = outcome.entries.find((entry) => entry.kind === 'tool');
    assert.ok(tool && tool.kind === 'tool');
    assert.strictEqual(tool.result?.isError, false, JSON.stringify(tool));
    assert.match(tool.result?.content ?? '', /allowed-once/);
    const approval = outcome.entries.find((entry) => entry.kind === 'approval');
    assert.ok(approval && approval.kind === 'approval' && approval.answer === 'Allow once');
  });
});
