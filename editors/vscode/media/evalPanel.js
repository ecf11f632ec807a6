// @ts-check
// Draws the Trigger Evals results the extension posts (already worded), and sends Cancel and
// Run again back. Queries and skill names go into the page through textContent only.
(function () {
  // @ts-ignore acquireVsCodeApi is injected by the webview host
  const vscode = acquireVsCodeApi();
  const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const title = byId('title');
  const description = byId('description');
  const status = byId('status');
  const table = byId('results');
  const rows = byId('rows');
  const cancel = /** @type {HTMLButtonElement} */ (byId('cancel'));
  const rerun = /** @type {HTMLButtonElement} */ (byId('rerun'));

  function cell(text, className) {
    const td = document.createElement('td');
    if (className) td.className = className;
    td.textContent = text;
    return td;
  }

  function render(state) {
    title.textContent = state.title || 'Trigger evals';
    description.textContent = state.description;
    description.hidden = !state.description;
    status.textContent = state.status;
    status.className = `eval-status ${state.state}`;
    rows.replaceChildren();
    for (const row of state.rows) {
      const tr = document.createElement('tr');
      tr.className = row.pass ? 'pass' : 'fail';
      tr.append(
        cell(row.query, 'query'),
        cell(row.expected),
        cell(row.triggered, 'rate'),
        cell(row.verdict, `verdict ${row.pass ? 'pass' : 'fail'}`),
        cell(row.loadedInstead || '—', 'instead'),
      );
      rows.append(tr);
    }
    table.hidden = state.rows.length === 0;
    cancel.disabled = !state.running;
    rerun.disabled = state.running || !state.canRerun || !state.trusted;
    reportRendered();
  }

  // Tells the extension what is on screen (its API exposes it), once redraws settle.
  let reportTimer;
  function reportRendered() {
    clearTimeout(reportTimer);
    reportTimer = setTimeout(() => vscode.postMessage({ type: 'rendered', text: document.body.innerText }), 100);
  }

  cancel.addEventListener('click', () => vscode.postMessage({ type: 'cancel' }));
  rerun.addEventListener('click', () => vscode.postMessage({ type: 'rerun' }));
  window.addEventListener('message', (event) => {
    if (event.data && event.data.type === 'state') render(event.data);
  });
  vscode.postMessage({ type: 'ready' });
})();
