// @ts-check
// Draws the Skill Agent transcript the extension posts, and sends prompts and Cancel back.
// Everything the model or a tool produced goes into the page through textContent only.
(function () {
  // @ts-ignore acquireVsCodeApi is injected by the webview host
  const vscode = acquireVsCodeApi();
  const log = /** @type {HTMLElement} */ (document.getElementById('log'));
  const prompt = /** @type {HTMLTextAreaElement} */ (document.getElementById('prompt'));
  const send = /** @type {HTMLButtonElement} */ (document.getElementById('send'));
  const cancel = /** @type {HTMLButtonElement} */ (document.getElementById('cancel'));
  const newChat = /** @type {HTMLButtonElement} */ (document.getElementById('new-chat'));
  const composer = /** @type {HTMLFormElement} */ (document.getElementById('composer'));
  const progress = /** @type {HTMLElement} */ (document.getElementById('progress'));
  const progressText = /** @type {HTMLElement} */ (document.getElementById('progress-text'));
  const session = /** @type {HTMLElement} */ (document.getElementById('session'));

  /** Tool cards the user opened or closed keep that state across redraws. */
  const toggled = new Map();

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // A small Markdown subset for the agent's replies: fenced code, headings, lists, quotes,
  // paragraphs; inline code, bold, italics and links. Built as DOM, so no HTML gets through.
  function inline(parent, text) {
    const pattern = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
    let last = 0;
    for (const match of text.matchAll(pattern)) {
      parent.append(text.slice(last, match.index));
      if (match[1]) parent.append(el('code', '', match[2]));
      else if (match[3]) parent.append(el('strong', '', match[3]));
      else if (match[4]) parent.append(el('em', '', match[4]));
      else {
        const link = el('a', '', match[5]);
        if (/^https?:\/\//.test(match[6])) link.setAttribute('href', match[6]);
        link.title = match[6];
        parent.append(link);
      }
      last = (match.index ?? 0) + match[0].length;
    }
    parent.append(text.slice(last));
  }

  function markdown(text) {
    const root = el('div', 'markdown');
    const lines = text.replace(/\r\n/g, '\n').split('\n');
    let i = 0;
    while (i < lines.length) {
      const line = lines[i];
      const fence = /^\s*(```+|~~~+)\s*([\w+-]*)/.exec(line);
      if (fence) {
        const body = [];
        i++;
        while (i < lines.length && !lines[i].trim().startsWith(fence[1])) body.push(lines[i++]);
        i++;
        const pre = el('pre');
        pre.append(el('code', fence[2] ? `language-${fence[2]}` : '', body.join('\n')));
        root.append(pre);
        continue;
      }
      const heading = /^(#{1,6})\s+(.*)$/.exec(line);
      if (heading) {
        const h = el(`h${Math.min(heading[1].length + 2, 6)}`);
        inline(h, heading[2]);
        root.append(h);
        i++;
        continue;
      }
      if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
        const ordered = /^\s*\d/.test(line);
        const list = el(ordered ? 'ol' : 'ul');
        while (i < lines.length && /^\s*([-*+]|\d+[.)])\s+/.test(lines[i])) {
          const item = el('li');
          inline(item, lines[i].replace(/^\s*([-*+]|\d+[.)])\s+/, ''));
          list.append(item);
          i++;
        }
        root.append(list);
        continue;
      }
      if (/^>\s?/.test(line)) {
        const quote = el('blockquote');
        const body = [];
        while (i < lines.length && /^>\s?/.test(lines[i])) body.push(lines[i++].replace(/^>\s?/, ''));
        inline(quote, body.join('\n'));
        root.append(quote);
        continue;
      }
      if (line.trim() === '') {
        i++;
        continue;
      }
      // The first line always belongs to the paragraph, so the loop always advances.
      const para = [lines[i++]];
      while (i < lines.length && lines[i].trim() !== '' && !/^\s*(```|~~~|#{1,6}\s|[-*+]\s|\d+[.)]\s|>)/.test(lines[i])) {
        para.push(lines[i++]);
      }
      const p = el('p');
      inline(p, para.join('\n'));
      root.append(p);
    }
    return root;
  }

  function oneLine(value, max) {
    let text;
    try {
      text = value === undefined ? '' : JSON.stringify(value);
    } catch {
      text = String(value);
    }
    return text.length > max ? `${text.slice(0, max - 1)}…` : text;
  }

  function pretty(value) {
    try {
      return JSON.stringify(value, null, 2);
    } catch {
      return String(value);
    }
  }

  function renderEntry(entry) {
    switch (entry.kind) {
      case 'user': {
        const node = el('section', 'msg user');
        node.append(el('div', 'who', 'You'), el('div', 'text', entry.text));
        return node;
      }
      case 'assistant': {
        const node = el('section', 'msg assistant');
        node.append(el('div', 'who', 'Agent'), markdown(entry.text));
        return node;
      }
      case 'tool': {
        const card = /** @type {HTMLDetailsElement} */ (el('details', 'tool'));
        const state = entry.result ? (entry.result.isError ? 'error' : 'ok') : 'running';
        card.classList.add(state);
        const summary = el('summary');
        summary.append(el('span', 'tool-name', entry.name), el('span', 'tool-input', oneLine(entry.input, 90)));
        summary.append(el('span', `badge ${state}`, state === 'running' ? 'running…' : state === 'error' ? 'error' : 'done'));
        card.append(summary);
        if (entry.input !== undefined) {
          card.append(el('div', 'label', 'Input'), el('pre', 'io', pretty(entry.input)));
        }
        if (entry.result) {
          card.append(el('div', 'label', entry.result.isError ? 'Error' : 'Result'), el('pre', 'io', entry.result.content));
        }
        card.open = toggled.has(entry.id) ? toggled.get(entry.id) : state === 'error';
        card.addEventListener('toggle', () => toggled.set(entry.id, card.open));
        return card;
      }
      case 'approval':
        return entry.pending ? approvalCard(entry) : el('div', 'approval', `Approval: ${entry.message} → ${entry.answer}`);
      case 'status':
        return el('div', `status ${entry.state}`, entry.text);
      default:
        return el('div', '', '');
    }
  }

  /** The approval waiting for an answer, if any: Enter and Escape deny it. */
  let pendingApproval;

  // An approval asked in the panel: the call in full, where it runs, what "for this chat"
  // covers, and the buttons. Nothing is focused: the user's typing elsewhere is not captured,
  // and Enter or Escape here denies, so only a deliberate click (or Space on a button) allows.
  function approvalCard(entry) {
    const card = el('section', 'approval-card');
    card.setAttribute('role', 'group');
    card.setAttribute('aria-label', 'Approval needed');
    card.append(el('div', 'who', `Approval needed${entry.tool ? `: ${entry.tool}` : ''}`), el('p', 'approval-message', entry.message));
    if (entry.detail) {
      card.append(el('div', 'label', entry.tool === 'bash' ? 'Command' : 'Call'), el('pre', 'approval-detail', entry.detail));
    }
    if (entry.cwd) {
      const where = el('div', 'approval-cwd');
      where.append(el('span', 'label', 'Working directory '), el('code', '', entry.cwd));
      card.append(where);
    }
    if (entry.scope) card.append(el('p', 'approval-scope', entry.scope));
    const buttons = el('div', 'approval-buttons');
    for (const [choice, className] of [
      ['Deny', ''],
      ['Allow once', 'secondary'],
      ['Allow for this chat', 'secondary'],
    ]) {
      const button = el('button', className, choice);
      button.setAttribute('type', 'button');
      button.dataset.choice = choice;
      button.addEventListener('click', () => answer(entry.id, choice));
      buttons.append(button);
    }
    card.append(buttons, el('p', 'approval-hint', 'Enter or Escape denies.'));
    return card;
  }

  function answer(id, choice) {
    if (!pendingApproval || pendingApproval !== id) return;
    pendingApproval = undefined;
    vscode.postMessage({ type: 'approve', id, choice });
  }

  // Capture phase: ahead of the prompt box and of a focused button's own Enter.
  document.addEventListener(
    'keydown',
    (event) => {
      if (!pendingApproval || event.isComposing) return;
      if (event.key === 'Enter' || event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        answer(pendingApproval, 'Deny');
      }
    },
    true,
  );

  function render(state) {
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    log.replaceChildren();
    if (state.entries.length === 0) {
      const empty = el('div', 'empty');
      empty.append(
        el('p', '', 'Ask anything about this workspace. The agent sees the skill catalog and loads a skill when one applies.'),
        el('p', '', 'Running commands and changing files always asks for your approval first.'),
      );
      if (!state.trusted) {
        empty.append(el('p', 'warning', 'This workspace is not trusted, so the agent is off. Linting still works.'));
      }
      log.append(empty);
    }
    for (const entry of state.entries) log.append(renderEntry(entry));
    const waiting = state.entries.find((entry) => entry.kind === 'approval' && entry.pending);
    pendingApproval = waiting ? waiting.id : undefined;
    session.textContent = state.sessionId ? `session ${state.sessionId}` : '';
    progress.hidden = !state.running;
    progressText.textContent = waiting ? 'Waiting for your approval…' : state.progress || 'Working…';
    send.disabled = state.running;
    cancel.disabled = !state.running;
    newChat.disabled = state.running;
    if (atBottom) log.scrollTop = log.scrollHeight;
    reportRendered();
  }

  // Tells the extension what is on screen (its API exposes it), once redraws settle:
  // innerText forces a layout, too costly for every streamed token.
  let reportTimer;
  function reportRendered() {
    clearTimeout(reportTimer);
    reportTimer = setTimeout(() => vscode.postMessage({ type: 'rendered', text: log.innerText }), 150);
  }

  function submit() {
    const text = prompt.value.trim();
    if (!text || send.disabled) return;
    vscode.postMessage({ type: 'ask', prompt: text });
    prompt.value = '';
  }

  composer.addEventListener('submit', (event) => {
    event.preventDefault();
    submit();
  });
  prompt.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      submit();
    }
  });
  cancel.addEventListener('click', () => vscode.postMessage({ type: 'cancel' }));
  newChat.addEventListener('click', () => {
    toggled.clear();
    vscode.postMessage({ type: 'newChat' });
  });
  // For the extension's tests: a key press or a click as the user would make it.
  function simulate(input) {
    if (input.startsWith('click:')) {
      const choice = input.slice('click:'.length);
      const button = Array.from(log.querySelectorAll('.approval-card button')).find((node) => node.dataset.choice === choice);
      if (button) button.click();
      return;
    }
    const target = document.activeElement || document.body;
    target.dispatchEvent(new KeyboardEvent('keydown', { key: input, bubbles: true, cancelable: true }));
  }

  window.addEventListener('message', (event) => {
    if (event.data && event.data.type === 'state') render(event.data);
    if (event.data && event.data.type === 'simulate') simulate(event.data.input);
    if (event.data && event.data.type === 'prefill') {
      prompt.value = String(event.data.text);
      prompt.focus();
      prompt.setSelectionRange(prompt.value.length, prompt.value.length);
      vscode.postMessage({ type: 'draft', text: prompt.value });
    }
  });
  vscode.postMessage({ type: 'ready' });
})();
