// The webview that shows an AgentChat: a transcript drawn by webview/agentPanel.js (bundled with
// markdown-it into dist/agentPanel.js) from the
// chat's entries, a prompt box, Send, Cancel and New chat.

import * as vscode from 'vscode';

import { Redraw, pagePolicy } from './webviewPage';
import { AgentChat, ApprovalChoice } from './agent';

type FromWebview =
  | { type: 'ready' }
  | { type: 'ask'; prompt: string }
  | { type: 'cancel' }
  | { type: 'newChat' }
  | { type: 'rendered'; text: string; html?: string }
  | { type: 'copy'; text: string }
  | { type: 'draft'; text: string }
  | { type: 'approve'; id: string; choice: ApprovalChoice };

const CHOICES: readonly string[] = ['Allow once', 'Allow for this chat', 'Deny'];

/** Coalesces bursts of streamed text into one redraw. */

export class AgentPanel implements vscode.Disposable {
  private static instance: AgentPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly redraws = new Redraw(() => this.redraw());
  private renderedText: string | undefined;
  private renderedHtml: string | undefined;
  private copiedText: string | undefined;
  private draftText: string | undefined;
  private ready = false;
  private pendingDraft: string | undefined;

  /** The transcript as the webview last drew it (its text content), for tests and diagnostics. */
  static rendered(): string | undefined {
    return AgentPanel.instance?.renderedText;
  }

  /**
   * Hands the page a key press (`Enter`, `Escape`) or a click on an approval button
   * (`click:Deny`), which it dispatches as if the user did it; false when the panel is closed.
   */
  static simulate(input: string): Promise<boolean> {
    const instance = AgentPanel.instance;
    return instance ? Promise.resolve(instance.panel.webview.postMessage({ type: 'simulate', input })) : Promise.resolve(false);
  }

  /** The prompt box's text as the page last reported it after a prefill. */
  static draft(): string | undefined {
    return AgentPanel.instance?.draftText;
  }

  /**
   * Opens the panel with `text` in its prompt box, focused and not sent, for the user to finish
   * (Load into Chat of the Skills view).
   */
  static prefill(extensionUri: vscode.Uri, chat: AgentChat, text: string): void {
    const instance = AgentPanel.show(extensionUri, chat, false);
    if (instance.ready) {
      void instance.panel.webview.postMessage({ type: 'prefill', text });
    } else {
      instance.pendingDraft = text;
    }
  }

  /** The transcript's HTML as the webview last drew it, for tests of the Markdown rendering. */
  static renderedHtml(): string | undefined {
    return AgentPanel.instance?.renderedHtml;
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
      panel.webview.onDidReceiveMessage((message: FromWebview) => this.onMessage(message)),
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

  private onMessage(message: FromWebview): void {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.redraw();
        if (this.pendingDraft !== undefined) {
          void this.panel.webview.postMessage({ type: 'prefill', text: this.pendingDraft });
          this.pendingDraft = undefined;
        }
        break;
      case 'draft':
        this.draftText = message.text;
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
      case 'rendered':
        this.renderedText = message.text;
        this.renderedHtml = message.html;
        break;
      case 'copy':
        this.copiedText = String(message.text);
        void vscode.env.clipboard.writeText(this.copiedText);
        break;
      case 'approve':
        // Anything but the three titles denies, as on the server.
        this.chat.answerApproval(CHOICES.includes(message.choice) ? message.choice : 'Deny', message.id);
        break;
    }
  }

  private redraw(): void {
    void this.panel.webview.postMessage({
      type: 'state',
      entries: this.chat.transcript(),
      running: this.chat.running,
      progress: this.chat.progress,
      sessionId: this.chat.session,
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
  <span id="session" class="session"></span>
  <button id="new-chat" class="secondary" title="Start a new conversation">New chat</button>
</header>
<main id="log" aria-live="polite"></main>
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
