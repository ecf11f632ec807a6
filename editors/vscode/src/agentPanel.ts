// The webview that shows an AgentChat: a transcript drawn by src/webview/agentPanel.ts (bundled with
// markdown-it and highlight.js into dist/agentPanel.js) from the chat's entries, a prompt box,
// Send, Cancel and New chat.

import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

import { Redraw, pagePolicy } from './webviewPage';
import { AgentChat } from './agent';
import { PageReports, pageReports } from './testHooks';
import type { FromAgentPage, ToAgentPage } from './webview/messages';

export type { ContrastReport, ScrollState } from './webview/messages';

const CHOICES: readonly string[] = ['Allow once', 'Allow for this chat', 'Deny'];

/** Most paths the page may have looked up per message: a reply names a handful. */
const PATHS_PER_LOOKUP = 200;

/**
 * The text editor that had focus last: the panel takes focus when its buttons are clicked, so
 * Insert at Cursor goes to the editor the user left.
 */
let lastEditor: vscode.TextEditor | undefined;

export function trackActiveEditor(): vscode.Disposable {
  lastEditor = vscode.window.activeTextEditor;
  return vscode.window.onDidChangeActiveTextEditor((editor) => {
    if (editor) {
      lastEditor = editor;
    }
  });
}

/** Replaces the selection of the last active editor with `text`; says so when there is none. */
async function insertAtCursor(text: string): Promise<boolean> {
  const document = lastEditor?.document;
  if (!lastEditor || !document || document.isClosed) {
    void vscode.window.showInformationMessage('Skill LSP: there is no editor to insert into. Open a file, place the cursor, and press Insert again.');
    return false;
  }
  // The remembered editor object goes stale once its tab is hidden; its document does not.
  const editor =
    vscode.window.visibleTextEditors.find((candidate) => candidate.document === document) ??
    (await vscode.window.showTextDocument(document, { viewColumn: lastEditor.viewColumn, preserveFocus: false }));
  return editor.edit((edit) => edit.replace(editor.selection, text));
}

/** `path`, `path:line` or `path:line:column` as a reply writes it. */
function splitLine(reference: string): { file: string; line?: number; column?: number } {
  const match = /^(.*?)(?::(\d+)(?::(\d+))?)?$/.exec(reference);
  const [, file, line, column] = match ?? [reference, reference];
  return { file, line: line ? Number(line) : undefined, column: column ? Number(column) : undefined };
}

/**
 * The workspace file a reply names, or undefined: relative paths are resolved against each
 * workspace folder, and whatever resolves (through `..` or symlinks) outside every folder, or is
 * no file, is not one.
 */
export async function workspaceFile(reference: string): Promise<{ uri: vscode.Uri; line?: number; column?: number } | undefined> {
  const { file, line, column } = splitLine(reference);
  if (!file || file.includes('\0')) {
    return undefined;
  }
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const root = folder.uri.path.replace(/\/+$/, '');
    const resolved = path.posix.resolve(root, file);
    if (!resolved.startsWith(`${root}/`)) {
      continue;
    }
    const uri = folder.uri.with({ path: resolved });
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.type & vscode.FileType.File && (uri.scheme !== 'file' || (await insideByRealPath(uri.fsPath, folder.uri.fsPath)))) {
        return { uri, line, column };
      }
    } catch {
      // Missing here; maybe in the next folder.
    }
  }
  return undefined;
}

async function insideByRealPath(file: string, folder: string): Promise<boolean> {
  try {
    const [real, root] = await Promise.all([fs.promises.realpath(file), fs.promises.realpath(folder)]);
    return real.startsWith(root + path.sep);
  } catch {
    return false;
  }
}

/** Opens a file a reply names, in the group of the editor used last but never over the panel. */
async function openWorkspaceFile(reference: string, panelColumn: vscode.ViewColumn | undefined): Promise<void> {
  const found = await workspaceFile(reference);
  if (!found) {
    void vscode.window.showInformationMessage(`Skill LSP: ${reference} is not a file in this workspace.`);
    return;
  }
  const position = new vscode.Position(Math.max((found.line ?? 1) - 1, 0), Math.max((found.column ?? 1) - 1, 0));
  const column = lastEditor?.viewColumn ?? vscode.ViewColumn.One;
  await vscode.window.showTextDocument(found.uri, {
    preview: false,
    viewColumn: column === panelColumn ? vscode.ViewColumn.Beside : column,
    selection: found.line ? new vscode.Range(position, position) : undefined,
  });
}

export class AgentPanel implements vscode.Disposable {
  private static instance: AgentPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly redraws = new Redraw(() => this.redraw());
  private copiedText: string | undefined;
  /** The page has loaded and asked for the state; it is loaded again each time the panel is shown. */
  private ready = false;
  private readonly onReady: (() => void)[] = [];
  /** What the page reports for the tests; undefined in the shipped bundle. */
  private readonly reports = pageReports?.();

  /** The open panel's page reports (test bundle only). */
  static reports(): PageReports | undefined {
    return AgentPanel.instance?.reports;
  }

  /** Posts to the open panel's page once it is loaded; false when the panel is closed. */
  static postToPage(message: ToAgentPage): Promise<boolean> {
    return AgentPanel.instance?.postWhenReady(message) ?? Promise.resolve(false);
  }

  /**
   * Opens the panel with `text` in its prompt box, focused and not sent, for the user to finish
   * (Load into Chat of the Skills view).
   */
  static prefill(extensionUri: vscode.Uri, chat: AgentChat, text: string): void {
    void AgentPanel.show(extensionUri, chat, false).postWhenReady({ type: 'prefill', text });
  }

  /** The text of the code block whose Copy button was last clicked. */
  static copied(): string | undefined {
    return AgentPanel.instance?.copiedText;
  }

  static isOpen(): boolean {
    return AgentPanel.instance !== undefined;
  }

  static show(extensionUri: vscode.Uri, chat: AgentChat, preserveFocus = true): AgentPanel {
    if (AgentPanel.instance) {
      AgentPanel.instance.panel.reveal(undefined, preserveFocus);
      return AgentPanel.instance;
    }
    const panel = vscode.window.createWebviewPanel(
      'skillLsp.agent',
      'Skill Agent',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus },
      {
        enableScripts: true,
        localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist')],
      },
    );
    AgentPanel.instance = new AgentPanel(panel, extensionUri, chat);
    return AgentPanel.instance;
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly extensionUri: vscode.Uri,
    private readonly chat: AgentChat,
  ) {
    panel.webview.html = this.html();
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      // A hidden webview is unloaded (no retainContextWhenHidden): what is posted before it
      // loads again is lost.
      panel.onDidChangeViewState(() => {
        if (!panel.visible) {
          this.ready = false;
        }
      }),
      panel.webview.onDidReceiveMessage((message: FromAgentPage) => this.onMessage(message)),
      chat.onDidChange(() => this.redraws.schedule()),
    );
  }

  dispose(): void {
    if (AgentPanel.instance === this) {
      AgentPanel.instance = undefined;
    }
    this.redraws.dispose();
    for (const disposable of this.disposables) {
      disposable.dispose();
    }
    this.panel.dispose();
  }

  /** Posts to the page once it is shown and loaded: a hidden page is unloaded, and what is posted while it loads is lost. */
  private async postWhenReady(message: ToAgentPage): Promise<boolean> {
    if (!this.panel.visible) {
      this.panel.reveal(undefined, true);
    }
    if (!this.ready) {
      await new Promise<void>((resolve) => this.onReady.push(resolve));
    }
    return this.panel.webview.postMessage(message);
  }

  /** Posts to the page: only what the page reads type-checks. */
  private post(message: ToAgentPage): void {
    void this.panel.webview.postMessage(message);
  }

  private onMessage(message: FromAgentPage): void {
    if (this.reports?.take(message)) {
      return;
    }
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.redraw();
        for (const resolve of this.onReady.splice(0)) {
          resolve();
        }
        break;
      case 'ask':
        if (message.prompt.trim()) {
          void this.chat.ask(message.prompt.trim());
        }
        break;
      case 'cancel':
        this.chat.cancel();
        break;
      case 'newChat':
        this.chat.newChat();
        break;
      case 'copy':
        this.copiedText = String(message.text);
        void vscode.env.clipboard.writeText(this.copiedText);
        break;
      case 'insert':
        void insertAtCursor(String(message.text));
        break;
      case 'open':
        void openWorkspaceFile(String(message.path), this.panel.viewColumn);
        break;
      case 'resolvePaths':
        void this.resolvePaths(Array.isArray(message.paths) ? message.paths.slice(0, PATHS_PER_LOOKUP).map(String) : []);
        break;
      case 'approve':
        // Anything but the three titles denies, as on the server.
        this.chat.answerApproval(CHOICES.includes(message.choice) ? message.choice : 'Deny', message.id);
        break;
    }
  }

  /** Tells the page which of the paths it found in replies are workspace files. */
  private async resolvePaths(paths: string[]): Promise<void> {
    const found = await Promise.all(paths.map(async (reference) => [reference, (await workspaceFile(reference)) !== undefined] as const));
    this.post({ type: 'paths', found: Object.fromEntries(found) });
  }

  private redraw(): void {
    this.post({
      type: 'state',
      entries: this.chat.transcript(),
      running: this.chat.running,
      progress: this.chat.progress,
      usage: this.chat.usage,
      trusted: vscode.workspace.isTrusted,
    });
  }

  private html(): string {
    const webview = this.panel.webview;
    const media = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', name));
    const bundle = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'agentPanel.js'));
    // Model output is untrusted: replies are rendered by markdown-it without raw HTML and then
    // sanitised against an allowlist, everything else goes in as text, and the policy allows no
    // inline script or style attribute, no images, no remote content and no form posts.
    const { nonce, csp } = pagePolicy(webview);
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${media('agentPanel.css')}">
<title>Skill Agent</title>
</head>
<body>
<header>
  <span class="title">Skill Agent</span>
  <button id="new-chat" class="secondary" title="Start a new conversation">New chat</button>
</header>
<main id="log" aria-live="polite"></main>
<footer id="usage" class="usage" hidden></footer>
<div id="progress" class="progress" hidden><span class="spinner"></span><span id="progress-text"></span></div>
<form id="composer">
  <textarea id="prompt" rows="3" placeholder="Ask the skill agent… (Enter to send, Shift+Enter for a new line)"></textarea>
  <div class="buttons">
    <button id="send" type="submit">Send</button>
    <button id="cancel" type="button" class="secondary" disabled>Cancel</button>
  </div>
</form>
<script nonce="${nonce}" src="${bundle}"></script>
</body>
</html>`;
  }
}
