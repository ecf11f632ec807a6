// The page's side of the webview channel: `acquireVsCodeApi` is put there by VS Code, once per
// page; `host<T>()` wraps it so a page can post only the messages its extension side reads.

interface WebviewApi {
  postMessage(message: unknown): void;
}

declare function acquireVsCodeApi(): WebviewApi;

export interface Host<T> {
  post(message: T): void;
}

export function host<T>(): Host<T> {
  const api = acquireVsCodeApi();
  return { post: (message: T) => api.postMessage(message) };
}

/** An element the page's HTML is known to hold; a missing one is a bug in that HTML. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) {
    throw new Error(`the page has no #${id}`);
  }
  return element as T;
}
