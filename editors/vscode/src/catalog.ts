// Show Skill Catalog and Open Skill…, both from `skill/catalog`.

import * as vscode from 'vscode';
import { ServerManager } from './client';
import { CatalogRequest, CatalogResult, CatalogSkill } from './protocol';

export const CATALOG_SCHEME = 'skill-lsp';
export const CATALOG_URI = vscode.Uri.from({ scheme: CATALOG_SCHEME, path: '/Skill Catalog.txt' });

/**
 * Serves the catalog as a virtual document: read-only by construction, never dirty, and
 * refreshed in place each time the command runs.
 */
export class CatalogDocuments implements vscode.TextDocumentContentProvider {
  private content = '';
  private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changeEmitter.event;

  provideTextDocumentContent(): string {
    return this.content;
  }

  update(content: string): void {
    this.content = content;
    this.changeEmitter.fire(CATALOG_URI);
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }
}

export async function fetchCatalog(server: ServerManager): Promise<CatalogResult | undefined> {
  const client = await server.clientForCommand();
  if (!client) {
    return undefined;
  }
  try {
    return await client.sendRequest(CatalogRequest, {});
  } catch (error) {
    void vscode.window.showErrorMessage(`Skill LSP: skill/catalog failed: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/**
 * Shows the catalog exactly as the agent's system prompt carries it, byte for byte, in a
 * read-only plain-text document (the per-skill data is in the Skills view).
 */
export async function showCatalog(server: ServerManager, documents: CatalogDocuments): Promise<vscode.TextDocument | undefined> {
  const catalog = await fetchCatalog(server);
  if (!catalog) {
    return undefined;
  }
  documents.update(catalog.prompt);
  const document = await vscode.workspace.openTextDocument(CATALOG_URI);
  if (document.languageId !== 'plaintext') {
    await vscode.languages.setTextDocumentLanguage(document, 'plaintext');
  }
  await vscode.window.showTextDocument(document, { preview: false });
  return document;
}

interface SkillItem extends vscode.QuickPickItem {
  skill: CatalogSkill;
}

/**
 * Lets the user pick a skill by name and opens its SKILL.md. `name` skips the picker, for
 * keybindings and automation.
 */
export async function openSkill(server: ServerManager, name?: string): Promise<vscode.Uri | undefined> {
  const catalog = await fetchCatalog(server);
  if (!catalog) {
    return undefined;
  }
  let skill: CatalogSkill | undefined;
  if (name !== undefined) {
    skill = catalog.skills.find((candidate) => candidate.name === name);
    if (!skill) {
      void vscode.window.showWarningMessage(`Skill LSP: no skill named '${name}' in this workspace.`);
      return undefined;
    }
  } else {
    if (catalog.skills.length === 0) {
      void vscode.window.showInformationMessage('Skill LSP: this workspace has no skills yet.');
      return undefined;
    }
    const items: SkillItem[] = catalog.skills.map((candidate) => ({
      label: candidate.name,
      description: candidate.diagnostics > 0 ? `$(warning) ${candidate.diagnostics} problem${candidate.diagnostics === 1 ? '' : 's'}` : undefined,
      detail: candidate.description,
      skill: candidate,
    }));
    const picked = await vscode.window.showQuickPick(items, {
      title: 'Open Skill',
      placeHolder: 'Skill name or description',
      matchOnDetail: true,
    });
    skill = picked?.skill;
  }
  if (!skill) {
    return undefined;
  }
  const uri = vscode.Uri.parse(skill.uri);
  await vscode.window.showTextDocument(uri, { preview: false });
  return uri;
}
