import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ChatOutcome } from '../../agent';
import type { EvalOutcome } from '../../evals';
import { describe, extensionApi, open, skillDiagnostics, waitFor } from './helpers';

// Runs in a window whose workspace is not trusted, with ANTHROPIC_API_KEY in the environment.
suite('restricted mode', () => {
  test('the workspace is untrusted', () => {
    assert.strictEqual(vscode.workspace.isTrusted, false);
  });

  test('linting still works', async () => {
    const api = await extensionApi();
    assert.strictEqual((await api.whenIdle()).status, 'running');
    const { document } = await open('skills/broken/SKILL.md');
    await waitFor('diagnostics in restricted mode', () => describe(skillDiagnostics(document.uri)).length === 2);
  });

  test('Ask the Skill Agent refuses with a clear message', async () => {
    const outcome = await vscode.commands.executeCommand<ChatOutcome>('skillLsp.askAgent', 'Delete everything');
    assert.strictEqual(outcome.state, 'refused');
    assert.match(outcome.error ?? '', /Restricted Mode/);
  });

  test('the server got no provider variables, so a direct skill/agentChat cannot run either', async () => {
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('skill/agentChat', { prompt: 'Delete everything' })),
      /no model provider is configured/,
    );
  });

  test('Run Trigger Evals refuses too: evals spend model calls like the agent', async () => {
    const outcome = await vscode.commands.executeCommand<EvalOutcome>('skillLsp.runTriggerEvals', { skill: 'pdf-tools' });
    assert.strictEqual(outcome.state, 'refused');
    assert.match(outcome.error ?? '', /Restricted Mode/);
  });

  test('a server path that does not exist is reported, not ignored', async () => {
    const api = await extensionApi();
    const config = vscode.workspace.getConfiguration('skillLsp');
    const bad = '/nonexistent/skill-lsp';
    await config.update('server.path', bad, vscode.ConfigurationTarget.Global);
    const state = await waitFor('the notFound state', () => {
      const current = api.serverState();
      return current.status === 'notFound' ? current : undefined;
    });
    assert.match(state.message ?? '', /\/nonexistent\/skill-lsp.*does not exist/);
    assert.strictEqual(await vscode.commands.executeCommand('skillLsp.showCatalog'), undefined);
  });
});
