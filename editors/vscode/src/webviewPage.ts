import * as vscode from 'vscode';

/** How long a panel waits to redraw after a change, so a burst of events draws once. */
const REDRAW_MS = 40;

/**
 * The head of a panel's page: a fresh nonce for its script and the content security policy
 * both panels use (styles and fonts from the extension, the one nonced script, no images, no
 * remote content, no form posts): what they show comes from files and the model.
 */
export function pagePolicy(webview: vscode.Webview): { nonce: string; csp: string } {
  const nonce = Array.from({ length: 32 }, () => Math.floor(Math.random() * 36).toString(36)).join('');
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
    "img-src 'none'",
    "form-action 'none'",
  ].join('; ');
  return { nonce, csp };
}

/** Runs `draw` once, `REDRAW_MS` after the first of a burst of `schedule` calls. */
export class Redraw implements vscode.Disposable {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly draw: () => void) {}

  schedule(): void {
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.draw();
      }, REDRAW_MS);
    }
  }

  dispose(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }
}
