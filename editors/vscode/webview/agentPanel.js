// @ts-check
// Draws the Skill Agent transcript the extension posts, and sends prompts and Cancel back.
// Bundled with markdown-it into dist/agentPanel.js (npm run bundle). Replies are Markdown,
// rendered without raw HTML and sanitised; everything else goes in through textContent only.
import MarkdownIt from 'markdown-it';

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

  // Replies are Markdown (CommonMark and GFM tables, strikethrough) rendered by markdown-it with
  // raw HTML off, then sanitised against an allowlist of tags and attributes before they reach
  // the page; the policy blocks scripts, images and inline styles besides.
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: false });

  const ALLOWED_TAGS = new Set([
    'P',
    'H1',
    'H2',
    'H3',
    'H4',
    'H5',
    'H6',
    'UL',
    'OL',
    'LI',
    'TABLE',
    'THEAD',
    'TBODY',
    'TR',
    'TH',
    'TD',
    'PRE',
    'CODE',
    'EM',
    'STRONG',
    'A',
    'BLOCKQUOTE',
    'HR',
    'BR',
    'S',
    'DEL',
  ]);

  /** Keeps allowed elements and their safe attributes; anything else becomes its text. */
  function sanitise(parent) {
    for (const node of Array.from(parent.childNodes)) {
      if (node.nodeType === Node.TEXT_NODE) continue;
      if (node.nodeType !== Node.ELEMENT_NODE) {
        node.remove();
        continue;
      }
      const element = /** @type {HTMLElement} */ (node);
      if (!ALLOWED_TAGS.has(element.tagName)) {
        element.replaceWith(document.createTextNode(element.tagName === 'IMG' ? element.getAttribute('alt') || '' : element.textContent || ''));
        continue;
      }
      for (const attribute of Array.from(element.attributes)) {
        const name = attribute.name;
        const keep =
          (element.tagName === 'A' && name === 'href' && /^https?:\/\//i.test(attribute.value)) ||
          (element.tagName === 'OL' && name === 'start' && /^\d+$/.test(attribute.value)) ||
          (element.tagName === 'CODE' && name === 'class' && /^language-[\w+-]+$/.test(attribute.value));
        if (!keep) element.removeAttribute(name);
      }
      if (element.tagName === 'A') element.title = element.getAttribute('href') || '';
      sanitise(element);
    }
  }

  /** A code block with a Copy button; the extension writes the clipboard. */
  function withCopyButton(pre) {
    const block = el('div', 'code-block');
    const button = el('button', 'copy secondary', 'Copy');
    button.setAttribute('type', 'button');
    button.title = 'Copy the code';
    button.addEventListener('click', () => {
      vscode.postMessage({ type: 'copy', text: (pre.textContent || '').replace(/\n$/, '') });
      button.textContent = 'Copied';
      setTimeout(() => (button.textContent = 'Copy'), 1500);
    });
    pre.replaceWith(block);
    block.append(button, pre);
  }

  function markdown(text) {
    const root = el('div', 'markdown');
    const template = document.createElement('template');
    template.innerHTML = md.render(text);
    const fragment = template.content;
    sanitise(fragment);
    for (const table of Array.from(fragment.querySelectorAll('table'))) {
      const scroller = el('div', 'table-scroll');
      table.replaceWith(scroller);
      scroller.append(table);
    }
    for (const pre of Array.from(fragment.querySelectorAll('pre'))) withCopyButton(pre);
    root.append(fragment);
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

  /** How many prompts the last drawing had: a new one is scrolled to the top of the log. */
  let promptsDrawn = 0;

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
    const prompts = log.querySelectorAll('.msg.user');
    if (prompts.length > promptsDrawn) {
      // A prompt just sent: bring it to the top, the reply then grows below it.
      prompts[prompts.length - 1].scrollIntoView({ block: 'start' });
    } else if (atBottom) {
      log.scrollTop = log.scrollHeight;
    }
    promptsDrawn = prompts.length;
    reportRendered();
  }

  // Tells the extension what is on screen (its API exposes it), once redraws settle:
  // innerText forces a layout, too costly for every streamed token.
  let reportTimer;
  function reportRendered() {
    clearTimeout(reportTimer);
    reportTimer = setTimeout(() => vscode.postMessage({ type: 'rendered', text: log.innerText, html: log.innerHTML }), 150);
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
    if (input === 'copy') {
      const button = /** @type {HTMLButtonElement | null} */ (log.querySelector('.code-block button.copy'));
      if (button) button.click();
      return;
    }
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
