// Reads the `skillLsp.*` settings and shapes the part the server understands.

import * as vscode from 'vscode';

export type Provider = 'anthropic' | 'openai';

export interface AgentSettings {
  provider: Provider;
  model: string;
  baseUrl: string;
  /** Most tokens one model reply may use; 0 leaves it to the server. */
  maxTokens: number;
}

/** Settings that only take effect in a new server process (they end up in its command or env). */
const RESTART_KEYS = ['skillLsp.server.path', 'skillLsp.agent'];
/** Settings the running server takes through `workspace/didChangeConfiguration`. */
const LIVE_KEYS = ['skillLsp.targets', 'skillLsp.rules'];

function section(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration('skillLsp');
}

export function serverPathSetting(): string {
  return (section().get<string>('server.path') ?? '').trim();
}

export function agentSettings(): AgentSettings {
  const config = section();
  const provider = config.get<string>('agent.provider') === 'openai' ? 'openai' : 'anthropic';
  return {
    provider,
    model: (config.get<string>('agent.model') ?? '').trim(),
    baseUrl: (config.get<string>('agent.baseUrl') ?? '').trim(),
    maxTokens: wholeNumber(config.get<number>('agent.maxTokens')),
  };
}

/** A setting meant as a count: anything but a finite number above 0 is 0. */
function wholeNumber(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

/**
 * The payload of `initializationOptions` and `workspace/didChangeConfiguration`. Only targets and
 * rules go to the server: the rest configures the extension, and an empty value is left out so
 * `skill-lsp.toml` keeps its say.
 */
export function serverSettings(): { skillLsp: { targets?: string[]; rules?: Record<string, string> } } {
  const config = section();
  const targets = config.get<string[]>('targets') ?? [];
  const rules = config.get<Record<string, string>>('rules') ?? {};
  const payload: { targets?: string[]; rules?: Record<string, string> } = {};
  if (targets.length > 0) {
    payload.targets = [...targets];
  }
  if (Object.keys(rules).length > 0) {
    payload.rules = { ...rules };
  }
  return { skillLsp: payload };
}

export function needsRestart(event: vscode.ConfigurationChangeEvent): boolean {
  return RESTART_KEYS.some((key) => event.affectsConfiguration(key));
}

export function needsNotify(event: vscode.ConfigurationChangeEvent): boolean {
  return LIVE_KEYS.some((key) => event.affectsConfiguration(key));
}
