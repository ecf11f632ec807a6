// Draws the Trigger Evals results the extension posts (already worded), and sends Cancel and
// Run again back. Queries and skill names go into the page through textContent only. Bundled
// into dist/evalPanel.js (npm run bundle).
import { byId, host } from './host';
import type { EvalPageState, FromEvalPage } from './messages';

(function () {
  const vscode = host<FromEvalPage>();
  const title = byId('title');
  const description = byId('description');
  const status = byId('status');
  const table = byId('results');
  const rows = byId('rows');
  const cancel = byId<HTMLButtonElement>('cancel');
  const rerun = byId<HTMLButtonElement>('rerun');

  function cell(text: string, className?: string): HTMLTableCellElement {
    const td = document.createElement('td');
    if (className) td.className = className;
    td.textContent = text;
    return td;
  }

  function render(state: EvalPageState): void {
    title.textContent = state.title || 'Trigger evals';
    description.textContent = state.description;
    description.hidden = !state.description;
    status.textContent = state.status;
    status.className = `eval-status ${state.state}`;
    rows.replaceChildren();
    for (const row of state.rows) {
      const tr = document.createElement('tr');
      const kind = row.pass ? 'pass' : 'fail';
      tr.className = kind;
      const verdict = cell(row.verdict, `verdict ${kind}${row.outcome === 'undecided' ? ' undecided' : ''}`);
      if (row.outcome === 'undecided') {
        verdict.title = 'Undecided: the 95 % interval of its trigger rate straddles the threshold, so more runs could turn it.';
      }
      tr.append(cell(row.query, 'query'), cell(row.expected), cell(row.triggered, 'rate'), verdict, cell(row.loadedInstead || '—', 'instead'));
      rows.append(tr);
    }
    table.hidden = state.rows.length === 0;
    cancel.disabled = !state.running;
    rerun.disabled = state.running || !state.canRerun || !state.trusted;
    reportRendered();
  }

  // Tells the extension what is on screen, for its tests (only the test bundle has the hooks),
  // once redraws settle.
  let reportTimer: ReturnType<typeof setTimeout> | undefined;
  function reportRendered(): void {
    if (SKILL_LSP_TEST_HOOKS) {
      clearTimeout(reportTimer);
      reportTimer = setTimeout(() => vscode.post({ type: 'rendered', text: document.body.innerText }), 100);
    }
  }

  cancel.addEventListener('click', () => vscode.post({ type: 'cancel' }));
  rerun.addEventListener('click', () => vscode.post({ type: 'rerun' }));
  window.addEventListener('message', (event: MessageEvent<EvalPageState>) => {
    if (event.data?.type === 'state') render(event.data);
  });
  vscode.post({ type: 'ready' });
})();
