import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ChatOutcome } from '../../agent';
import { env, extensionApi, waitFor } from './helpers';

interface Recorded {
  path: string;
  body: { system?: string; messages: { role: string; content: unknown }[]; tools?: { name: string }[] };
}

function recorded(): Recorded[] {
  const file = env('SKILL_LSP_E2E_RECORD');
  if (!fs.existsSync(file)) {
    return [];
  }
  // The model server may be halfway through appending a line: only complete lines count.
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines.pop();
  return lines.filter(Boolean).map((line) => JSON.parse(line) as Recorded);
}

function ask(prompt: string, options?: { newChat?: boolean }): Thenable<ChatOutcome> {
  return vscode.commands.executeCommand<ChatOutcome>('skillLsp.askAgent', prompt, options);
}

suite('agent', () => {
  let firstSession: string | undefined;

  suiteSetup(async () => {
    const api = await extensionApi();
    // A fresh key per run; the runner greps every log for it afterwards.
    const key = `planted-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;
    fs.writeFileSync(path.join(env('SKILL_LSP_E2E_OUT'), 'planted-key.txt'), key);
    assert.strictEqual(await vscode.commands.executeCommand('skillLsp.setApiKey', key), true);
    assert.strictEqual((await api.whenIdle()).status, 'running');
  });

  test('Cancel stops a chat whose model never answers, promptly', async () => {
    const api = await extensionApi();
    const chat = ask('Wait for a model that never answers', { newChat: true });
    await waitFor('the request to reach the model', () => recorded().length >= 1);
    assert.strictEqual(api.agent.running(), true);
    const started = Date.now();
    await vscode.commands.executeCommand('skillLsp.cancelAgent');
    const outcome = await chat;
    const elapsed = Date.now() - started;
    assert.strictEqual(outcome.state, 'cancelled', JSON.stringify(outcome));
    // Under the extension's 3 s grace period: the server itself answered the $/cancelRequest.
    assert.ok(elapsed < 2500, `cancelling took ${elapsed} ms`);
    const last = outcome.entries[outcome.entries.length - 1];
    assert.deepStrictEqual([last.kind, last.kind === 'status' && last.state], ['status', 'cancelled']);
    await waitFor('the panel to show the cancellation', () => api.agent.rendered()?.includes('Cancelled.'));
  });

  test('a chat loads a skill with load_skill and the panel renders the reply live', async () => {
    const api = await extensionApi();
    const outcome = await ask('Summarise report.pdf', { newChat: true });
    assert.strictEqual(outcome.state, 'done', JSON.stringify(outcome));
    assert.strictEqual(outcome.reply, 'The **pdf-tools** skill says: run `pdftotext` on the file, then summarise it.');
    assert.deepStrictEqual(outcome.loadedSkills, ['pdf-tools']);
    assert.ok(outcome.sessionId);
    firstSession = outcome.sessionId;

    const kinds = outcome.entries.map((entry) => entry.kind);
    assert.deepStrictEqual(kinds, ['user', 'assistant', 'tool', 'assistant', 'status'], JSON.stringify(outcome.entries));
    const tool = outcome.entries[2];
    assert.ok(tool.kind === 'tool');
    assert.strictEqual(tool.name, 'load_skill');
    assert.deepStrictEqual(tool.input, { name: 'pdf-tools' });
    assert.strictEqual(tool.result?.isError, false);
    assert.match(tool.result?.content ?? '', /Run `pdftotext` on the file/);

    const rendered = await waitFor('the panel to draw the reply', () => {
      const text = api.agent.rendered();
      return text?.includes('run pdftotext on the file, then summarise it.') ? text : undefined;
    });
    assert.match(rendered, /load_skill/);
    // end_turn reads as plain "Done"; the token count is in the footer, not on that line.
    assert.match(rendered, /^Done$/m);
    assert.doesNotMatch(rendered, /end_turn/);
    assert.match(rendered, /Summarise report\.pdf/);

    // The scripted model appends to its record after answering, so wait for the line.
    const requests = await waitFor('3 recorded model calls: the hung one and two of this chat', () => {
      const all = recorded();
      return all.length >= 3 ? all : undefined;
    });
    assert.strictEqual(requests.length, 3, 'the hung call plus two calls of this chat');
    const [, first, second] = requests;
    assert.match(first.path, /\/v1\/messages$/);
    assert.ok(first.body.system?.includes('Skills available:'), first.body.system);
    assert.ok(
      first.body.system?.includes('- pdf-tools: Extract text and tables from PDF files. Use when the user asks to read or summarise a PDF.'),
      'the catalog is in the system prompt',
    );
    assert.ok(first.body.tools?.some((t) => t.name === 'load_skill'));
    const toolResults = JSON.stringify(second.body.messages[second.body.messages.length - 1]);
    assert.match(toolResults, /tool_result/);
    assert.match(toolResults, /toolu_pdf_1/);
    assert.match(toolResults, /Run `pdftotext` on the file/);
  });

  test('a follow-up prompt continues the same session', async () => {
    const outcome = await ask('And the tables?');
    assert.strictEqual(outcome.state, 'done', JSON.stringify(outcome));
    assert.strictEqual(outcome.sessionId, firstSession);
    assert.strictEqual(outcome.reply, 'For tables, add `-layout` so columns stay aligned.');
    const requests = await waitFor('the follow-up call to be recorded', () => {
      const all = recorded();
      return all.length >= 4 ? all : undefined;
    });
    assert.strictEqual(requests.length, 4);
    const messages = requests[3].body.messages;
    assert.strictEqual(messages.length, 5, 'user, tool use, tool result, answer, follow-up');
    assert.match(JSON.stringify(messages[0]), /Summarise report\.pdf/);
    assert.match(JSON.stringify(messages[4]), /And the tables\?/);
    const api = await extensionApi();
    const rendered = await waitFor('the panel to draw the follow-up', () => {
      const text = api.agent.rendered();
      return text?.includes('For tables, add -layout so columns stay aligned.') ? text : undefined;
    });
    // One conversation: the first exchange is still on screen above the follow-up.
    assert.ok(rendered.indexOf('Summarise report.pdf') < rendered.indexOf('And the tables?'), rendered);
  });
});
