// The agent page's test hooks: the tests' hands (a key press or a click as the user would make
// it), a look at where the transcript is scrolled, and the contrast audit. The page calls them
// only behind SKILL_LSP_TEST_HOOKS (build.d.ts), so the shipped bundle leaves this module out;
// nothing here may run on import.

import type { ContrastReport, ScrollState } from './messages';

/** What `simulate` acts on. */
export interface PageParts {
  log: HTMLElement;
  newChat: HTMLButtonElement;
  /** Reports the drawing again (after a scroll). */
  drawn(): void;
}

/** A key press (`Enter`, `Escape`), a click (`click:Deny`, `copy`, `open:PATH`, `new-chat`) or a scroll (`scroll:top`). */
export function simulate(input: string, page: PageParts): void {
  const { log, newChat } = page;
  if (input === 'copy' || input === 'insert') {
    const button = log.querySelector<HTMLButtonElement>(`.code-block button.${input}`);
    if (button) button.click();
    return;
  }
  if (input.startsWith('open:')) {
    const path = input.slice('open:'.length);
    const link = Array.from(log.querySelectorAll<HTMLAnchorElement>('a.file-link')).find((node) => node.dataset.path === path);
    if (link) link.click();
    return;
  }
  if (input === 'new-chat') {
    newChat.click();
    return;
  }
  if (input === 'scroll:top' || input === 'scroll:bottom') {
    log.scrollTop = input === 'scroll:top' ? 0 : log.scrollHeight;
    page.drawn();
    return;
  }
  if (input.startsWith('click:')) {
    const choice = input.slice('click:'.length);
    const button = Array.from(log.querySelectorAll<HTMLButtonElement>('.approval-card button')).find((node) => node.dataset.choice === choice);
    if (button) button.click();
    return;
  }
  const target = document.activeElement || document.body;
  target.dispatchEvent(new KeyboardEvent('keydown', { key: input, bubbles: true, cancelable: true }));
}

/** Where the log is scrolled and where the newest prompt sits in it, for the tests of scrolling. */
export function scrollState(log: HTMLElement): ScrollState {
  const prompts = log.querySelectorAll('.msg.user');
  const newest = prompts[prompts.length - 1];
  return {
    top: log.scrollTop,
    height: log.scrollHeight,
    client: log.clientHeight,
    promptTop: newest ? newest.getBoundingClientRect().top - log.getBoundingClientRect().top : undefined,
  };
}

/** Any CSS colour (rgb(), color(srgb …) from color-mix, names) as [r, g, b, a] with a in 0..1. */
type Rgba = number[];

let canvas: CanvasRenderingContext2D | undefined;

function rgba(color: string): Rgba {
  canvas ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D;
  canvas.clearRect(0, 0, 1, 1);
  canvas.fillStyle = '#000';
  canvas.fillStyle = color;
  canvas.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = canvas.getImageData(0, 0, 1, 1).data;
  return [r, g, b, a / 255];
}

function over(top: Rgba, bottom: Rgba, alpha = top[3]): Rgba {
  return [0, 1, 2].map((i) => top[i] * alpha + bottom[i] * (1 - alpha)).concat(1);
}

function luminance(color: Rgba): number {
  const [r, g, b] = color.slice(0, 3).map((value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function backgroundOf(element: Element): Rgba {
  const layers: Rgba[] = [];
  for (let node: Element | null = element; node; node = node.parentElement) layers.push(rgba(getComputedStyle(node).backgroundColor));
  return layers.reverse().reduce((below, layer) => over(layer, below), [255, 255, 255, 1] as Rgba);
}

function opacityOf(element: Element): number {
  let opacity = 1;
  for (let node: Element | null = element; node; node = node.parentElement) opacity *= Number(getComputedStyle(node).opacity);
  return opacity;
}

/**
 * The contrast audit: every visible text of the page (and ::before marks) against the background
 * it is drawn on, composited through its ancestors, as WCAG computes it.
 */
export function contrastAudit(): ContrastReport {
  // Folded tool cards hide text that is read once opened: open them all while measuring.
  const closed = Array.from(document.querySelectorAll('details:not([open])'));
  for (const details of closed) details.setAttribute('open', '');
  const results: ContrastReport['worst'] = [];
  const measure = (element: Element, style: CSSStyleDeclaration, text: string) => {
    const background = backgroundOf(element);
    const color = rgba(style.color);
    const shown = over(color, background, color[3] * opacityOf(element));
    const [light, dark] = [luminance(shown), luminance(background)].sort((a, b) => b - a);
    const ratio = Math.round(((light + 0.05) / (dark + 0.05)) * 100) / 100;
    results.push({ ratio, text: text.slice(0, 60), element: `${element.tagName.toLowerCase()}.${String(element.className)}`, color: style.color });
  };
  for (const element of Array.from(document.body.querySelectorAll('*'))) {
    if (!element.checkVisibility() || element.closest('button:disabled, .spinner, textarea')) continue;
    const own = Array.from(element.childNodes)
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => node.textContent || '')
      .join('')
      .trim();
    if (own) measure(element, getComputedStyle(element), own);
    const before = getComputedStyle(element, '::before');
    if (before.content && before.content !== 'none' && before.content !== 'normal') measure(element, before, `::before ${before.content}`);
  }
  for (const details of closed) details.removeAttribute('open');
  results.sort((a, b) => a.ratio - b.ratio);
  return { theme: document.body.className, checked: results.length, worst: results.slice(0, 12) };
}
