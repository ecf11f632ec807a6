import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { EXTENSION_ID, describe, extensionApi, open, skillDiagnostics, waitFor } from './helpers';

// Runs in a window where the platform-specific .vsix (linux-x64, with the release binary under
// bundled/) is installed, PATH has no skill-lsp, HOME is empty (no ~/.cargo/bin) and
// skillLsp.server.path is unset: the only server there is, is the one the extension carries.
const TARGET = `${process.platform}-${process.arch}`;

suite('bundled server', () => {
  test('there is no skill-lsp on PATH, in ~/.cargo/bin or in the settings', () => {
    for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
      assert.ok(!fs.existsSync(path.join(dir, 'skill-lsp')), `${dir} has a skill-lsp`);
    }
    assert.ok(!fs.existsSync(path.join(os.homedir(), '.cargo', 'bin', 'skill-lsp')), `${os.homedir()}/.cargo/bin has a skill-lsp`);
    assert.strictEqual(vscode.workspace.getConfiguration('skillLsp').get<string>('server.path'), '');
  });

  test('the server is the binary in the extension, executable, and its version is reported', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    const state = await (await extensionApi()).whenIdle();
    assert.strictEqual(state.status, 'running', JSON.stringify(state));
    assert.strictEqual(state.source, 'bundled');
    assert.strictEqual(state.serverPath, path.join(extension.extensionPath, 'bundled', TARGET, 'skill-lsp'));
    const mode = fs.statSync(state.serverPath).mode & 0o777;
    assert.strictEqual(mode & 0o111, 0o111, `mode ${mode.toString(8)}: the executable bit did not survive the .vsix`);
    const cli = execFileSync(state.serverPath, ['--version'], { encoding: 'utf8' });
    assert.ok(state.version && cli.includes(state.version), `server says ${state.version}, CLI says ${cli}`);
  });

  test('a broken SKILL.md gets its findings from the bundled server', async () => {
    const { document } = await open('skills/broken/SKILL.md');
    const found = await waitFor('diagnostics from the bundled server', () => {
      const described = describe(skillDiagnostics(document.uri));
      return described.length >= 2 ? described : undefined;
    });
    assert.deepStrictEqual(found, ['name-mismatch@1:6-1:18', 'unknown-field@3:0-3:6']);
  });

  test('skillLsp.server.path still wins over the bundled binary, and clearing it goes back', async () => {
    const api = await extensionApi();
    const config = vscode.workspace.getConfiguration('skillLsp');
    await config.update('server.path', '/nonexistent/skill-lsp', vscode.ConfigurationTarget.Global);
    const bad = await waitFor('the notFound state for the bad setting', () => {
      const current = api.serverState();
      return current.status === 'notFound' ? current : undefined;
    });
    assert.match(bad.message ?? '', /\/nonexistent\/skill-lsp.*does not exist/);
    await config.update('server.path', undefined, vscode.ConfigurationTarget.Global);
    const back = await waitFor('the bundled server running again', () => {
      const current = api.serverState();
      return current.status === 'running' ? current : undefined;
    });
    assert.strictEqual(back.source, 'bundled');
  });
});
