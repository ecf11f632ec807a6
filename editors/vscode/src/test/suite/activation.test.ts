import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as path from 'path';
import * as vscode from 'vscode';
import { EXTENSION_ID, env, extensionApi, waitFor } from './helpers';

suite('activation', () => {
  test('the extension installed from the .vsix activates on a workspace with skills', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed`);
    const installed = path.resolve(env('SKILL_LSP_E2E_EXTENSIONS_DIR'));
    assert.ok(
      path.resolve(extension.extensionPath).startsWith(installed + path.sep),
      `${extension.extensionPath} is not under the extensions dir ${installed}: the .vsix is not what runs`,
    );
    // No activate() call here: workspaceContains:**/SKILL.md has to do it.
    await waitFor('activation', () => extension.isActive, 20_000);
  });

  test('the server from skillLsp.server.path is running and reports its version', async () => {
    const api = await extensionApi();
    const state = await api.whenIdle();
    assert.strictEqual(state.status, 'running', JSON.stringify(state));
    const configured = vscode.workspace.getConfiguration('skillLsp').get<string>('server.path');
    assert.strictEqual(state.serverPath, configured);
    const cli = execFileSync(configured as string, ['--version'], { encoding: 'utf8' });
    assert.ok(state.version && cli.includes(state.version), `server says ${state.version}, CLI says ${cli}`);
  });

  test("every command is registered, and the server's own commands too", async () => {
    const commands = new Set(await vscode.commands.getCommands(true));
    for (const id of [
      'skillLsp.askAgent',
      'skillLsp.cancelAgent',
      'skillLsp.showCatalog',
      'skillLsp.openSkill',
      'skillLsp.fixAll',
      'skillLsp.restartServer',
      'skillLsp.setApiKey',
      'skillLsp.clearApiKey',
      'skillLsp.showOutput',
      'skill/catalog',
      'skill/loadSkill',
      'skill/agentChat',
    ]) {
      assert.ok(commands.has(id), `command ${id} is missing`);
    }
  });
});
