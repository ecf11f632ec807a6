// Draws the Skill Agent transcript the extension posts, and sends prompts and Cancel back.
// Bundled with markdown-it and highlight.js into dist/agentPanel.js (npm run bundle). Replies are
// Markdown, rendered without raw HTML and sanitised; everything else goes in through textContent
// only.
import MarkdownIt from 'markdown-it';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import diff from 'highlight.js/lib/languages/diff';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdownLanguage from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import typescript from 'highlight.js/lib/languages/typescript';
import yaml from 'highlight.js/lib/languages/yaml';

import { byId, host } from './host';
import type { AgentPageState, ApprovalChoice, Entry, FromAgentPage, ToAgentPage } from './messages';
import { contrastAudit, scrollState, simulate } from './pageHooks';

(function () {
  const vscode = host<FromAgentPage>();
  const log = byId('log');
  const prompt = byId<HTMLTextAreaElement>('prompt');
  const send = byId<HTMLButtonElement>('send');
  const cancel = byId<HTMLButtonElement>('cancel');
  const newChat = byId<HTMLButtonElement>('new-chat');
  const composer = byId<HTMLFormElement>('composer');
  const progress = byId('progress');
  const progressText = byId('progress-text');
  const usage = byId('usage');

  /** Tool cards the user opened or closed keep that state across redraws. */
  const toggled = new Map<string, boolean>();

  function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // Replies are Markdown (CommonMark and GFM tables, strikethrough) rendered by markdown-it with
  // raw HTML off, then sanitised against an allowlist of tags and attributes before they reach
  // the page; the policy blocks scripts, images and inline styles besides.
  // Only the languages skills use (each alias too: sh, py, ts, yml, …), to keep the bundle small.
  for (const [name, language] of Object.entries({
    bash,
    diff,
    javascript,
    json,
    markdown: markdownLanguage,
    python,
    rust,
    shell,
    typescript,
    yaml,
  })) {
    hljs.registerLanguage(name, language);
  }
  // An unknown or missing language stays plain: guessing costs time on every streamed token.
  function highlight(code: string, lang: string): string {
    if (!lang || !hljs.getLanguage(lang)) return '';
    return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
  }
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: false, highlight });

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

  /** A highlight.js token class: `hljs-string`; its other classes (`function_`) are dropped. */
  const TOKEN_CLASS = /^hljs(-[\w-]+)?$/;

  /**
   * Keeps allowed elements and their safe attributes; anything else becomes its text. Inside
   * CODE, highlight.js's SPANs stay, with their token classes only.
   */
  function sanitise(parent: ParentNode, inCode = false): void {
    for (const node of Array.from(parent.childNodes)) {
      if (node.nodeType === Node.TEXT_NODE) continue;
      if (node.nodeType !== Node.ELEMENT_NODE) {
        node.remove();
        continue;
      }
      const element = node as HTMLElement;
      if (inCode && element.tagName === 'SPAN') {
        const tokens = Array.from(element.classList).filter((name) => TOKEN_CLASS.test(name));
        for (const attribute of Array.from(element.attributes)) element.removeAttribute(attribute.name);
        if (tokens.length) element.className = tokens.join(' ');
        sanitise(element, true);
        continue;
      }
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
      sanitise(element, inCode || element.tagName === 'CODE');
    }
  }

  /** A button of a code block's toolbar that hands the extension the code (without the fence's last newline). */
  function codeButton(pre: HTMLElement, className: string, label: string, done: string, title: string, type: 'copy' | 'insert'): HTMLButtonElement {
    const button = el('button', `${className} secondary`, label);
    button.setAttribute('type', 'button');
    button.title = title;
    button.addEventListener('click', () => {
      vscode.post({ type, text: (pre.textContent || '').replace(/\n$/, '') });
      button.textContent = done;
      setTimeout(() => (button.textContent = label), 1500);
    });
    return button;
  }

  /** A code block with Copy (the extension writes the clipboard) and Insert at Cursor. */
  function withCodeButtons(pre: HTMLElement): void {
    const block = el('div', 'code-block');
    const tools = el('div', 'code-tools');
    tools.append(
      codeButton(pre, 'insert', 'Insert', 'Inserted', 'Insert at the cursor of the last active editor, replacing its selection', 'insert'),
      codeButton(pre, 'copy', 'Copy', 'Copied', 'Copy the code', 'copy'),
    );
    pre.replaceWith(block);
    block.append(tools, pre);
  }

  // File paths in replies become links once the extension has found the file in the workspace
  // (it alone can look, and only inside the workspace folders). Answers are kept: a found file
  // stays a link; a missing one is asked again after the next chat, which may have created it.
  const knownPaths = new Map<string, boolean>();
  const askedPaths = new Set<string>();
  const PATH_LIKE = /^(?:\.{1,2}\/|\/)?[\w@.-]+(?:\/[\w@.-]+)*(?:\/[\w@-]+|\.[A-Za-z][\w-]{0,9})(?::\d+(?::\d+)?)?$/;

  /** The path a token names, or undefined: it needs a folder or an extension, and no scheme. */
  function pathOf(token: string): string | undefined {
    if (token.length > 300 || !PATH_LIKE.test(token)) return undefined;
    return token.includes('/') || /\.[A-Za-z]/.test(token) ? token : undefined;
  }

  function fileLink(path: string, content: Node): HTMLAnchorElement {
    const link = el('a', 'file-link');
    link.setAttribute('href', '#');
    link.title = `Open ${path}`;
    link.dataset.path = path;
    link.append(content);
    link.addEventListener('click', (event) => {
      event.preventDefault();
      vscode.post({ type: 'open', path });
    });
    return link;
  }

  /** Whether `path` is a known file; an unknown one is queued for the extension to look up. */
  function isFile(path: string, wanted: Set<string>): boolean {
    if (!knownPaths.has(path)) wanted.add(path);
    return knownPaths.get(path) === true;
  }

  /** Links the code spans and plain words of `root` that name a workspace file. */
  function linkPaths(root: ParentNode, wanted: Set<string>): void {
    for (const code of Array.from(root.querySelectorAll('code'))) {
      if (code.closest('pre, a')) continue;
      const path = pathOf((code.textContent || '').trim());
      if (path && isFile(path, wanted)) code.replaceWith(fileLink(path, code.cloneNode(true)));
    }
    const walker = document.createTreeWalker(root as Node, NodeFilter.SHOW_TEXT);
    const texts: Text[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.parentElement || !node.parentElement.closest('pre, code, a')) texts.push(node as Text);
    }
    for (const text of texts) linkWords(text, wanted);
  }

  function linkWords(text: Text, wanted: Set<string>): void {
    const data = text.data;
    const parts: (string | Node)[] = [];
    let last = 0;
    for (const match of data.matchAll(/\S+/g)) {
      // Sentence punctuation and brackets around a path are not part of it.
      const token = match[0].replace(/^[(['"]+/, '').replace(/[.,;:!?)\]'"]+$/, '');
      const path = pathOf(token);
      if (!path || !isFile(path, wanted)) continue;
      const start = (match.index || 0) + match[0].indexOf(token);
      parts.push(data.slice(last, start), fileLink(path, document.createTextNode(token)));
      last = start + token.length;
    }
    if (parts.length === 0) return;
    parts.push(data.slice(last));
    text.replaceWith(...parts);
  }

  function markdown(text: string, wanted: Set<string>): HTMLElement {
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
    for (const pre of Array.from(fragment.querySelectorAll('pre'))) withCodeButtons(pre);
    linkPaths(fragment, wanted);
    root.append(fragment);
    return root;
  }

  function oneLine(value: unknown, max: number): string {
    let text: string;
    try {
      text = value === undefined ? '' : (JSON.stringify(value) ?? '');
    } catch {
      text = String(value);
    }
    return text.length > max ? `${text.slice(0, max - 1)}…` : text;
  }

  function pretty(value: unknown): string {
    try {
      return JSON.stringify(value, null, 2) ?? '';
    } catch {
      return String(value);
    }
  }

  function renderEntry(entry: Entry, wanted: Set<string>): HTMLElement {
    switch (entry.kind) {
      case 'user': {
        const node = el('section', 'msg user');
        node.append(el('div', 'who', 'You'), el('div', 'text', entry.text));
        return node;
      }
      case 'assistant': {
        const node = el('section', 'msg assistant');
        node.append(el('div', 'who', 'Agent'), markdown(entry.text, wanted));
        return node;
      }
      case 'tool': {
        const card = el('details', 'tool');
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
        card.open = toggled.get(entry.id) ?? state === 'error';
        card.addEventListener('toggle', () => toggled.set(entry.id, card.open));
        return card;
      }
      case 'approval':
        return entry.pending ? approvalCard(entry) : el('div', 'approval', `Approval: ${entry.message} → ${entry.answer}`);
      case 'status':
        return el('div', `status ${entry.state}`, entry.text);
    }
  }

  /** The approval waiting for an answer, if any: Enter and Escape deny it. */
  let pendingApproval: string | undefined;

  // An approval asked in the panel: the call in full, where it runs, what "for this chat"
  // covers, and the buttons. Nothing is focused: the user's typing elsewhere is not captured,
  // and Enter or Escape here denies, so only a deliberate click (or Space on a button) allows.
  function approvalCard(entry: Extract<Entry, { kind: 'approval' }>): HTMLElement {
    const card = el('section', 'approval-card');
    card.setAttribute('role', 'group');
    card.setAttribute('aria-label', 'Approval needed');
    card.append(el('div', 'who', `Approval needed${entry.tool ? `: ${entry.tool}` : ''}`), el('p', 'approval-message', entry.message));
    if (entry.detail) {
      const label = entry.approvalKind === 'bash' ? 'Command' : entry.approvalKind === 'unsafe-skill' ? 'Security errors' : 'Call';
      card.append(el('div', 'label', label), el('pre', 'approval-detail', entry.detail));
    }
    if (entry.cwd) {
      const where = el('div', 'approval-cwd');
      where.append(el('span', 'label', 'Working directory '), el('code', '', entry.cwd));
      card.append(where);
    }
    if (entry.scope) card.append(el('p', 'approval-scope', entry.scope));
    const buttons = el('div', 'approval-buttons');
    const choices: [ApprovalChoice, string][] = [
      ['Deny', ''],
      ['Allow once', 'secondary'],
      ['Allow for this chat', 'secondary'],
    ];
    for (const [choice, className] of choices) {
      const button = el('button', className, choice);
      button.setAttribute('type', 'button');
      button.dataset.choice = choice;
      button.addEventListener('click', () => answer(entry.id, choice));
      buttons.append(button);
    }
    card.append(buttons, el('p', 'approval-hint', 'Enter or Escape denies.'));
    return card;
  }

  function answer(id: string | undefined, choice: ApprovalChoice): void {
    if (!pendingApproval || id === undefined || pendingApproval !== id) return;
    pendingApproval = undefined;
    vscode.post({ type: 'approve', id, choice });
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
  /** The last state drawn: drawn again when path lookups come back. */
  let lastState: AgentPageState | undefined;

  function render(state: AgentPageState): void {
    if (lastState && lastState.running && !state.running) {
      for (const [path, found] of knownPaths) if (!found) knownPaths.delete(path);
    }
    lastState = state;
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
    const wanted = new Set<string>();
    for (const entry of state.entries) log.append(renderEntry(entry, wanted));
    const ask = Array.from(wanted).filter((path) => !askedPaths.has(path));
    if (ask.length) {
      for (const path of ask) askedPaths.add(path);
      vscode.post({ type: 'resolvePaths', paths: ask });
    }
    const waiting = state.entries.find((entry) => entry.kind === 'approval' && entry.pending);
    pendingApproval = waiting?.kind === 'approval' ? waiting.id : undefined;
    usage.textContent = state.usage
      ? `Session total: ${state.usage.inputTokens.toLocaleString('en-US')} input / ${state.usage.outputTokens.toLocaleString('en-US')} output tokens`
      : '';
    usage.hidden = !state.usage;
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

  // Tells the extension what is on screen, for its tests (only the test bundle has the hooks),
  // once redraws settle: innerText forces a layout, too costly for every streamed token.
  let reportTimer: ReturnType<typeof setTimeout> | undefined;
  function reportRendered(): void {
    if (SKILL_LSP_TEST_HOOKS) {
      clearTimeout(reportTimer);
      reportTimer = setTimeout(() => {
        const text = usage.hidden ? log.innerText : `${log.innerText}\n${usage.innerText}`;
        vscode.post({ type: 'rendered', text, html: log.innerHTML, scroll: scrollState(log) });
      }, 150);
    }
  }

  function submit(): void {
    const text = prompt.value.trim();
    if (!text || send.disabled) return;
    vscode.post({ type: 'ask', prompt: text });
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
  cancel.addEventListener('click', () => vscode.post({ type: 'cancel' }));
  newChat.addEventListener('click', () => {
    toggled.clear();
    vscode.post({ type: 'newChat' });
  });
  window.addEventListener('message', (event: MessageEvent<ToAgentPage>) => {
    const message = event.data;
    // The tests' hands and eyes: a key press or click as the user would make it, and the
    // contrast audit. Only the test bundle has them.
    if (SKILL_LSP_TEST_HOOKS && message?.type === 'simulate') {
      simulate(message.input, { log, newChat, drawn: reportRendered });
      return;
    }
    if (SKILL_LSP_TEST_HOOKS && message?.type === 'audit') {
      vscode.post({ type: 'contrast', report: contrastAudit() });
      return;
    }
    switch (message?.type) {
      case 'state':
        render(message);
        break;
      case 'paths':
        for (const [path, found] of Object.entries(message.found)) {
          knownPaths.set(path, found === true);
          askedPaths.delete(path);
        }
        if (lastState && Object.values(message.found).includes(true)) render(lastState);
        break;
      case 'prefill':
        prompt.value = String(message.text);
        prompt.focus();
        prompt.setSelectionRange(prompt.value.length, prompt.value.length);
        if (SKILL_LSP_TEST_HOOKS) vscode.post({ type: 'draft', text: prompt.value });
        break;
    }
  });
  vscode.post({ type: 'ready' });
})();
