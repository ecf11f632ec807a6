// Where the `skill-lsp` binary is, and the environment it is started with. The API key travels
// only here: from secret storage into the child process's environment, never into settings,
// LSP messages or logs.

import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Provider } from './settings';

export const INSTALL_HINT =
  'pipx install skill-lsp, npm install -g skill-lsp, or cargo install --git https://github.com/skill-lsp/skill-lsp; or install the Skill LSP extension for your platform, which carries the server';

/** Where a found binary came from: the setting, the extension's own bundled/ folder, PATH, or ~/.cargo/bin. */
export type ServerSource = 'setting' | 'bundled' | 'PATH' | 'cargo';

/**
 * `platformPackage` tells a platform-specific package (one with a bundled/ folder) from the
 * universal one: only the universal package has a reason to tell the user to install the server.
 */
export type Located = { ok: true; path: string; source: ServerSource; warning?: string } | { ok: false; message: string; platformPackage: boolean };

function isExecutableFile(candidate: string): boolean {
  try {
    if (!fs.statSync(candidate).isFile()) {
      return false;
    }
    if (process.platform !== 'win32') {
      fs.accessSync(candidate, fs.constants.X_OK);
    }
    return true;
  } catch {
    return false;
  }
}

/** A platform-specific package has a bundled/ folder; the universal package has none. */
export function isPlatformPackage(bundledRoot: string | undefined): boolean {
  try {
    return bundledRoot !== undefined && fs.statSync(bundledRoot).isDirectory();
  } catch {
    return false;
  }
}

function executableNames(base: string): string[] {
  if (process.platform !== 'win32') {
    return [base];
  }
  const extensions = (process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').filter(Boolean);
  return [base, ...extensions.map((ext) => base + ext.toLowerCase())];
}

function expandHome(value: string): string {
  return value === '~' || value.startsWith('~/') ? path.join(os.homedir(), value.slice(1)) : value;
}

/**
 * The `vsce package --target` names a package for this machine may carry: `linux-x64`,
 * `darwin-arm64`, `win32-x64`, … On Linux also `alpine-*`, whose package holds the same static
 * (musl) binary under that name.
 */
export function bundledTargets(platform: string = process.platform, arch: string = process.arch): string[] {
  const targets = [`${platform}-${arch}`];
  if (platform === 'linux') {
    targets.push(`alpine-${arch}`);
  }
  return targets;
}

/**
 * The configured path wins; then the binary bundled with a platform-specific package
 * (`bundled/<target>/skill-lsp`); then `skill-lsp` on PATH, then `~/.cargo/bin`, because
 * `cargo install` puts it there and a VS Code started from a desktop launcher often has a PATH
 * without it. `bundledRoot` is the extension's bundled/ folder, which the universal package lacks.
 */
export function locateServer(configured: string, workspaceFolder: string | undefined, bundledRoot?: string): Located {
  const platformPackage = isPlatformPackage(bundledRoot);
  if (configured) {
    let candidate = expandHome(configured);
    if (!path.isAbsolute(candidate) && workspaceFolder) {
      candidate = path.resolve(workspaceFolder, candidate);
    }
    if (isExecutableFile(candidate)) {
      return { ok: true, path: candidate, source: 'setting' };
    }
    const reason = fs.existsSync(candidate) ? 'is not an executable file' : 'does not exist';
    return { ok: false, message: `skillLsp.server.path is set to ${candidate}, which ${reason}.`, platformPackage };
  }
  let warning: string | undefined;
  if (platformPackage && bundledRoot) {
    const tried: string[] = [];
    for (const target of bundledTargets()) {
      for (const name of executableNames('skill-lsp')) {
        const candidate = path.join(bundledRoot, target, name);
        if (isExecutableFile(candidate)) {
          return { ok: true, path: candidate, source: 'bundled' };
        }
        tried.push(candidate);
      }
    }
    warning = `This extension's bundled server is missing or not executable (looked for ${tried.join(', ')}); reinstall the extension.`;
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of executableNames('skill-lsp')) {
      const candidate = path.join(dir, name);
      if (isExecutableFile(candidate)) {
        return { ok: true, path: candidate, source: 'PATH', ...(warning ? { warning } : {}) };
      }
    }
  }
  for (const name of executableNames('skill-lsp')) {
    const candidate = path.join(os.homedir(), '.cargo', 'bin', name);
    if (isExecutableFile(candidate)) {
      return { ok: true, path: candidate, source: 'cargo', ...(warning ? { warning } : {}) };
    }
  }
  const notFound = 'The skill-lsp language server was not found on PATH or in ~/.cargo/bin.';
  return { ok: false, message: warning ? `${warning} ${notFound}` : notFound, platformPackage };
}

/**
 * Runs `BINARY --version`: the first line of its output, or why it could not run (a binary for
 * another architecture, a missing executable bit, a crash), so a broken binary is named before
 * the language client tries to talk to it.
 */
export function serverVersion(binary: string, timeoutMs = 10_000): Promise<{ ok: true; version: string } | { ok: false; message: string }> {
  return new Promise((resolve) => {
    execFile(binary, ['--version'], { timeout: timeoutMs, windowsHide: true }, (error, stdout, stderr) => {
      const out = String(stdout).trim().split(/\r?\n/)[0] ?? '';
      if (error) {
        const detail = String(stderr).trim().split(/\r?\n/)[0] || error.message;
        resolve({ ok: false, message: `\`${binary} --version\` failed: ${detail}` });
      } else if (!out) {
        resolve({ ok: false, message: `\`${binary} --version\` printed nothing` });
      } else {
        resolve({ ok: true, version: out });
      }
    });
  });
}

/** The filter of the Settings editor that shows skillLsp.server.path alone. */
export const SERVER_PATH_QUERY = '@id:skillLsp.server.path';

/**
 * The command (and its arguments) that opens skillLsp.server.path in the right scope. A window
 * with a `remoteName` (SSH, WSL, a dev container, code-server) runs the server on the remote
 * machine, so its Remote settings tab; `workbench.action.openRemoteSettings` is only registered
 * in such windows, so without it (or without a remote) the usual Settings editor.
 */
export function serverPathSettingsCommand(remoteName: string | undefined, available: readonly string[]): { command: string; args: unknown[] } {
  if (remoteName && available.includes('workbench.action.openRemoteSettings')) {
    return { command: 'workbench.action.openRemoteSettings', args: [{ query: SERVER_PATH_QUERY }] };
  }
  return { command: 'workbench.action.openSettings', args: [SERVER_PATH_QUERY] };
}

export interface AgentEnv {
  provider: Provider;
  model: string;
  baseUrl: string;
  /** Most tokens per model reply (`SKILL_LSP_MAX_TOKENS`); 0 or absent leaves the server's default. */
  maxTokens?: number;
  /** From secret storage; undefined keeps whatever the environment already has. */
  apiKey: string | undefined;
}

const PROVIDER_VARS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL'];

/**
 * The server's environment. `agent` undefined means the agent must not run (untrusted
 * workspace): every provider variable is blanked, which the server reads as unset, so a key
 * inherited from the shell cannot be used either. The server picks Anthropic whenever
 * ANTHROPIC_API_KEY is set, so choosing OpenAI blanks it.
 */
export function serverEnv(base: NodeJS.ProcessEnv, agent: AgentEnv | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  if (!agent) {
    for (const name of PROVIDER_VARS) {
      env[name] = '';
    }
    return env;
  }
  if (agent.model) {
    env.MODEL_ID = agent.model;
  }
  if (agent.maxTokens && agent.maxTokens > 0) {
    env.SKILL_LSP_MAX_TOKENS = String(Math.floor(agent.maxTokens));
  }
  if (agent.provider === 'anthropic') {
    if (agent.apiKey) {
      env.ANTHROPIC_API_KEY = agent.apiKey;
    }
    if (agent.baseUrl) {
      env.ANTHROPIC_BASE_URL = agent.baseUrl;
    }
  } else {
    env.ANTHROPIC_API_KEY = '';
    if (agent.apiKey) {
      env.OPENAI_API_KEY = agent.apiKey;
    }
    if (agent.baseUrl) {
      env.OPENAI_BASE_URL = agent.baseUrl;
    }
  }
  return env;
}

/** A one-line account of the agent setup for the log, naming where the key comes from but never the key. */
export function describeAgentEnv(agent: AgentEnv | undefined, env: NodeJS.ProcessEnv): string {
  if (!agent) {
    return 'agent off (untrusted workspace)';
  }
  const keyVar = agent.provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
  const baseVar = agent.provider === 'anthropic' ? 'ANTHROPIC_BASE_URL' : 'OPENAI_BASE_URL';
  const key = agent.apiKey ? 'from secret storage' : env[keyVar] ? `from the environment (${keyVar})` : 'none';
  const model = env.MODEL_ID ? env.MODEL_ID : '(MODEL_ID unset)';
  const base = env[baseVar] ? redactUrl(env[baseVar] as string) : 'default endpoint';
  const maxTokens = env.SKILL_LSP_MAX_TOKENS ? `, max tokens ${env.SKILL_LSP_MAX_TOKENS}` : '';
  return `agent ${agent.provider}, model ${model}, base URL ${base}, API key ${key}${maxTokens}`;
}

/** Keeps scheme, host and path: a URL can carry credentials in its user info or query. */
function redactUrl(value: string): string {
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '(not a valid URL)';
  }
}
