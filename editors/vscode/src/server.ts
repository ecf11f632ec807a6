// Where the `skill-lsp` binary is, and the environment it is started with. The API key travels
// only here: from secret storage into the child process's environment, never into settings,
// LSP messages or logs.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Provider } from './settings';

export const INSTALL_HINT = 'cargo install --git https://github.com/skill-lsp/skill-lsp (or cargo install --path . in a clone of skill-lsp)';

export type Located = { ok: true; path: string; source: 'setting' | 'PATH' | 'cargo' } | { ok: false; message: string };

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
 * The configured path wins; otherwise `skill-lsp` on PATH, then `~/.cargo/bin`, because
 * `cargo install` puts it there and a VS Code started from a desktop launcher often has a PATH
 * without it.
 */
export function locateServer(configured: string, workspaceFolder: string | undefined): Located {
  if (configured) {
    let candidate = expandHome(configured);
    if (!path.isAbsolute(candidate) && workspaceFolder) {
      candidate = path.resolve(workspaceFolder, candidate);
    }
    if (isExecutableFile(candidate)) {
      return { ok: true, path: candidate, source: 'setting' };
    }
    const reason = fs.existsSync(candidate) ? 'is not an executable file' : 'does not exist';
    return { ok: false, message: `skillLsp.server.path is set to ${candidate}, which ${reason}.` };
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of executableNames('skill-lsp')) {
      const candidate = path.join(dir, name);
      if (isExecutableFile(candidate)) {
        return { ok: true, path: candidate, source: 'PATH' };
      }
    }
  }
  for (const name of executableNames('skill-lsp')) {
    const candidate = path.join(os.homedir(), '.cargo', 'bin', name);
    if (isExecutableFile(candidate)) {
      return { ok: true, path: candidate, source: 'cargo' };
    }
  }
  return { ok: false, message: 'The skill-lsp language server was not found on PATH or in ~/.cargo/bin.' };
}

export interface AgentEnv {
  provider: Provider;
  model: string;
  baseUrl: string;
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
  return `agent ${agent.provider}, model ${model}, base URL ${base}, API key ${key}`;
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
