// The webview that shows a TriggerEvals run: per query the query, what was expected, how many
// runs loaded the skill, pass or fail and which skill loaded instead, under a summary line.
// src/webview/evalPanel.ts (bundled into dist/evalPanel.js) draws the rows this posts; Cancel and Run again come back as messages.

import * as vscode from 'vscode';

import { Redraw, pagePolicy } from './webviewPage';
import { TriggerEvals, evalCounts, evalRow, summaryLine } from './evals';
import { PageReports, pageReports } from './testHooks';
import type { EvalPageState, FromEvalPage } from './webview/messages';

/** What the webview draws: everything already worded, so the page only builds DOM. */
export type EvalPanelState = EvalPageState;

/** Coalesces bursts of results into one redraw. */

export function panelState(evals: TriggerEvals): EvalPanelState {
  const view = evals.current();
  const counts = evalCounts(view.results);
  let status: string;
  switch (view.state) {
    case 'idle':
      status = 'No run yet.';
      break;
    case 'running':
      status = `Running… ${view.progress ?? ''}`.trim() + (view.results.length ? ` · so far ${summaryLine(counts)}` : '');
      break;
    case 'done': {
      const summary = view.report?.summary;
      const run = view.report?.run;
      const target = view.report?.target;
      const details = [
        summary ? `${summary.runs} runs (${summary.cached_runs} cached)` : undefined,
        typeof run?.model === 'string' ? `model ${run.model}` : undefined,
        // Under a target: what the client did with the skill, or whose listing it was.
        target ? (target.note ?? `as ${target.client} lists it`) : undefined,
      ].filter(Boolean);
      status = `${summaryLine(counts)}${details.length ? ` · ${details.join(' · ')}` : ''}`;
      break;
    }
    case 'cancelled':
      status = `Cancelled.${view.results.length ? ` Finished before the cancel: ${summaryLine(counts)}` : ''}`;
      break;
    case 'error':
    case 'refused':
      status = view.error ?? 'The run failed.';
      break;
  }
  return {
    type: 'state',
    title: `Trigger evals: ${view.skill ?? ''}`.trim(),
    description: view.description ?? '',
    state: view.state,
    status,
    rows: view.results.map(evalRow),
    running: evals.running,
    canRerun: evals.canRerun,
    trusted: vscode.workspace.isTrusted,
  };
}

export class EvalPanel implements vscode.Disposable {
  private static instance: EvalPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly redraws = new Redraw(() => this.redraw());
  /** What the page reports for the tests; undefined in the shipped bundle. */
  private readonly reports = pageReports?.();

  /** The open panel's page reports (test bundle only). */
  static reports(): PageReports | undefined {
    return EvalPanel.instance?.reports;
  }

  static show(extensionUri: vscode.Uri, evals: TriggerEvals): EvalPanel {
    if (EvalPanel.instance) {
      EvalPanel.instance.panel.reveal(undefined, true);
      return EvalPanel.instance;
    }
    const panel = vscode.window.createWebviewPanel(
      'skillLsp.triggerEvals',
      'Trigger Evals',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      {
        enableScripts: true,
        retainContextWhenHidden: true,
        localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist')],
      },
    );
    EvalPanel.instance = new EvalPanel(panel, extensionUri, evals);
    return EvalPanel.instance;
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly extensionUri: vscode.Uri,
    private readonly evals: TriggerEvals,
  ) {
    panel.webview.html = this.html();
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((message: FromEvalPage) => this.onMessage(message)),
      evals.onDidChange(() => this.redraws.schedule()),
    );
  }

  dispose(): void {
    if (EvalPanel.instance === this) {
      EvalPanel.instance = undefined;
    }
    this.redraws.dispose();
    for (const disposable of this.disposables) {
      disposable.dispose();
    }
    this.panel.dispose();
  }

  private onMessage(message: FromEvalPage): void {
    if (this.reports?.take(message)) {
      return;
    }
    switch (message.type) {
      case 'ready':
        this.redraw();
        break;
      case 'cancel':
        this.evals.cancel();
        break;
      case 'rerun':
        void this.evals.rerun();
        break;
    }
  }

  private redraw(): void {
    void this.panel.webview.postMessage(panelState(this.evals));
  }

  private html(): string {
    const webview = this.panel.webview;
    const media = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', name));
    // Queries and skill names come from files and the model: the script sets textContent only.
    const { nonce, csp } = pagePolicy(webview);
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${media('agentPanel.css')}">
<link rel="stylesheet" href="${media('evalPanel.css')}">
<title>Trigger Evals</title>
</head>
<body>
<header>
  <span id="title" class="title">Trigger evals</span>
  <span class="session"></span>
  <button id="rerun" class="secondary" title="Run the same evals again (cached runs are reused)" disabled>Run again</button>
  <button id="cancel" class="secondary" disabled>Cancel</button>
</header>
<main id="log" aria-live="polite">
  <p id="description" class="description"></p>
  <div id="status" class="eval-status" role="status"></div>
  <table id="results" hidden>
    <thead><tr><th>Query</th><th>Expected</th><th>Triggered</th><th>Result</th><th>Loaded instead</th></tr></thead>
    <tbody id="rows"></tbody>
  </table>
</main>
<script nonce="${nonce}" src="${webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'evalPanel.js'))}"></script>
</body>
</html>`;
  }
}
