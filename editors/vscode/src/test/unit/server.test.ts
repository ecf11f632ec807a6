// Unit tests of the server lookup, in plain Node (no VS Code): run by scripts/ci_vscode.sh with
// `mocha --ui tdd out/test/unit`. They build fake installs in a temp folder: a bundled/ folder
// as a platform-specific package has it, a PATH folder, a fake ~/.cargo/bin.

import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  AgentEnv,
  bundledTargets,
  describeAgentEnv,
  isPlatformPackage,
  locateServer,
  serverEnv,
  serverPathSettingsCommand,
  serverVersion,
} from '../../server';

const TARGET = `${process.platform}-${process.arch}`;
const EXE = process.platform === 'win32' ? 'skill-lsp.exe' : 'skill-lsp';

suite('locateServer', () => {
  let root: string;
  let saved: { PATH?: string; HOME?: string };

  /** An executable script that prints `skill-lsp <label>` for --version. */
  function fakeServer(dir: string, label: string, mode = 0o755): string {
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, EXE);
    fs.writeFileSync(file, `#!/bin/sh\necho "skill-lsp ${label}"\n`, { mode });
    fs.chmodSync(file, mode);
    return file;
  }

  setup(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'skill-lsp-locate-'));
    saved = { PATH: process.env.PATH, HOME: process.env.HOME };
    // No real skill-lsp may leak in from the machine: an empty PATH and a HOME of our own.
    process.env.PATH = path.join(root, 'empty-path');
    process.env.HOME = path.join(root, 'home');
  });

  teardown(() => {
    process.env.PATH = saved.PATH;
    process.env.HOME = saved.HOME;
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('the bundled binary comes before PATH and ~/.cargo/bin', () => {
    const bundled = fakeServer(path.join(root, 'ext', 'bundled', TARGET), 'bundled');
    const onPath = fakeServer(path.join(root, 'bin'), 'path');
    fakeServer(path.join(root, 'home', '.cargo', 'bin'), 'cargo');
    process.env.PATH = path.dirname(onPath);
    assert.deepStrictEqual(locateServer('', undefined, path.join(root, 'ext', 'bundled')), { ok: true, path: bundled, source: 'bundled' });
  });

  test('the setting comes before the bundled binary, and a bad setting is not skipped over', () => {
    fakeServer(path.join(root, 'ext', 'bundled', TARGET), 'bundled');
    const configured = fakeServer(path.join(root, 'custom'), 'custom');
    const bundledRoot = path.join(root, 'ext', 'bundled');
    assert.deepStrictEqual(locateServer(configured, undefined, bundledRoot), { ok: true, path: configured, source: 'setting' });
    const bad = locateServer(path.join(root, 'nope', EXE), undefined, bundledRoot);
    assert.strictEqual(bad.ok, false);
    assert.ok(!bad.ok && /skillLsp\.server\.path .*does not exist/.test(bad.message) && bad.platformPackage);
  });

  test('the universal package (no bundled/ folder) keeps the old order: PATH, then ~/.cargo/bin', () => {
    const cargo = fakeServer(path.join(root, 'home', '.cargo', 'bin'), 'cargo');
    const noBundle = path.join(root, 'ext', 'bundled');
    assert.deepStrictEqual(locateServer('', undefined, noBundle), { ok: true, path: cargo, source: 'cargo' });
    const onPath = fakeServer(path.join(root, 'bin'), 'path');
    process.env.PATH = path.dirname(onPath);
    assert.deepStrictEqual(locateServer('', undefined, noBundle), { ok: true, path: onPath, source: 'PATH' });
    assert.strictEqual(isPlatformPackage(noBundle), false);
  });

  test('nothing anywhere: the universal package reports notFound as a universal package', () => {
    const located = locateServer('', undefined, path.join(root, 'ext', 'bundled'));
    assert.deepStrictEqual(located, {
      ok: false,
      message: 'The skill-lsp language server was not found on PATH or in ~/.cargo/bin.',
      platformPackage: false,
    });
  });

  test('a platform package whose binary lost its executable bit says so, and falls back to PATH', function () {
    if (process.platform === 'win32') {
      this.skip();
    }
    const bundledRoot = path.join(root, 'ext', 'bundled');
    const broken = fakeServer(path.join(bundledRoot, TARGET), 'bundled', 0o644);
    const alone = locateServer('', undefined, bundledRoot);
    assert.ok(!alone.ok && alone.platformPackage, JSON.stringify(alone));
    assert.ok(!alone.ok && alone.message.includes(broken) && /reinstall the extension/.test(alone.message), JSON.stringify(alone));
    const onPath = fakeServer(path.join(root, 'bin'), 'path');
    process.env.PATH = path.dirname(onPath);
    const fallback = locateServer('', undefined, bundledRoot);
    assert.ok(fallback.ok && fallback.source === 'PATH' && fallback.path === onPath, JSON.stringify(fallback));
    assert.ok(fallback.ok && fallback.warning?.includes(broken), JSON.stringify(fallback));
  });

  test('bundled targets follow vsce names, with alpine-* on Linux', () => {
    assert.deepStrictEqual(bundledTargets('linux', 'x64'), ['linux-x64', 'alpine-x64']);
    assert.deepStrictEqual(bundledTargets('darwin', 'arm64'), ['darwin-arm64']);
    assert.deepStrictEqual(bundledTargets('win32', 'x64'), ['win32-x64']);
  });

  test('serverVersion: the first line of --version, or why the binary could not run', async function () {
    if (process.platform === 'win32') {
      this.skip();
    }
    const good = fakeServer(path.join(root, 'good'), '9.9.9 (abc)');
    assert.deepStrictEqual(await serverVersion(good), { ok: true, version: 'skill-lsp 9.9.9 (abc)' });
    const notExecutable = fakeServer(path.join(root, 'plain'), 'x', 0o644);
    const denied = await serverVersion(notExecutable);
    assert.ok(!denied.ok && denied.message.startsWith(`\`${notExecutable} --version\` failed:`), JSON.stringify(denied));
    const failing = path.join(root, 'failing.sh');
    fs.writeFileSync(failing, '#!/bin/sh\necho "cannot execute binary file" >&2\nexit 126\n', { mode: 0o755 });
    const crashed = await serverVersion(failing);
    assert.ok(!crashed.ok && crashed.message.endsWith('failed: cannot execute binary file'), JSON.stringify(crashed));
    const silent = path.join(root, 'silent.sh');
    fs.writeFileSync(silent, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    assert.deepStrictEqual(await serverVersion(silent), { ok: false, message: `\`${silent} --version\` printed nothing` });
  });
});

suite('serverEnv', () => {
  const agent: AgentEnv = { provider: 'anthropic', model: 'm', baseUrl: '', apiKey: undefined };

  test('skillLsp.agent.maxTokens above 0 becomes SKILL_LSP_MAX_TOKENS next to MODEL_ID', () => {
    const env = serverEnv({}, { ...agent, maxTokens: 512 });
    assert.strictEqual(env.MODEL_ID, 'm');
    assert.strictEqual(env.SKILL_LSP_MAX_TOKENS, '512');
    assert.match(describeAgentEnv({ ...agent, maxTokens: 512 }, env), /max tokens 512/);
  });

  test('0 or no maxTokens sets nothing, so the server default (or an inherited value) applies', () => {
    assert.strictEqual(serverEnv({}, { ...agent, maxTokens: 0 }).SKILL_LSP_MAX_TOKENS, undefined);
    assert.strictEqual(serverEnv({}, agent).SKILL_LSP_MAX_TOKENS, undefined);
    assert.strictEqual(serverEnv({ SKILL_LSP_MAX_TOKENS: '100' }, { ...agent, maxTokens: 0 }).SKILL_LSP_MAX_TOKENS, '100');
  });

  test('an untrusted workspace gets no provider variables and no agent settings', () => {
    const env = serverEnv({ ANTHROPIC_API_KEY: 'inherited' }, undefined);
    assert.strictEqual(env.ANTHROPIC_API_KEY, '');
    assert.strictEqual(env.SKILL_LSP_MAX_TOKENS, undefined);
  });
});

suite('serverPathSettingsCommand', () => {
  const remote = ['workbench.action.openSettings', 'workbench.action.openRemoteSettings'];

  test('a remote or code-server window opens the Remote settings on the server path', () => {
    assert.deepStrictEqual(serverPathSettingsCommand('ssh-remote', remote), {
      command: 'workbench.action.openRemoteSettings',
      args: [{ query: '@id:skillLsp.server.path' }],
    });
  });

  test('a local window opens the usual Settings editor on the server path', () => {
    assert.deepStrictEqual(serverPathSettingsCommand(undefined, remote), {
      command: 'workbench.action.openSettings',
      args: ['@id:skillLsp.server.path'],
    });
    assert.deepStrictEqual(serverPathSettingsCommand('', remote).command, 'workbench.action.openSettings');
  });

  test('without the remote command (an older VS Code) it falls back to the Settings editor', () => {
    assert.strictEqual(serverPathSettingsCommand('wsl', ['workbench.action.openSettings']).command, 'workbench.action.openSettings');
  });
});
