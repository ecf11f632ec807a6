// The model provider's API key, kept in VS Code's SecretStorage (the OS keychain on desktop), one
// entry per provider so switching providers does not lose the other key.

import * as vscode from 'vscode';
import { Provider } from './settings';

const PROVIDER_LABEL: Record<Provider, string> = { anthropic: 'Anthropic', openai: 'OpenAI-compatible' };

function secretName(provider: Provider): string {
  return `skillLsp.apiKey.${provider}`;
}

export class ApiKeys {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  get(provider: Provider): Thenable<string | undefined> {
    return this.secrets.get(secretName(provider));
  }

  store(provider: Provider, key: string): Thenable<void> {
    return this.secrets.store(secretName(provider), key);
  }

  delete(provider: Provider): Thenable<void> {
    return this.secrets.delete(secretName(provider));
  }

  /** Fires when a key changes, also from another window of the same VS Code. */
  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((event) => {
      if (event.key.startsWith('skillLsp.apiKey.')) {
        listener();
      }
    });
  }

  /** Asks for a key with a password box; undefined when the user backs out. */
  async prompt(provider: Provider): Promise<string | undefined> {
    const value = await vscode.window.showInputBox({
      title: `Skill LSP: ${PROVIDER_LABEL[provider]} API key`,
      prompt: `Stored in VS Code's secret storage and passed to skill-lsp only through its environment (${
        provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY'
      }).`,
      password: true,
      ignoreFocusOut: true,
      validateInput: (text) => (text.trim() === '' ? 'The key is empty.' : undefined),
    });
    return value?.trim() || undefined;
  }
}
