// The messages between the extension and its two webview pages, typed once for both sides: the
// extension (Node) and the pages (the browser) compile against this one file, so neither can
// post what the other does not read. No DOM or VS Code types here.

/** The answers of an approval; anything else denies. */
export type ApprovalChoice = 'Allow once' | 'Allow for this chat' | 'Deny';

/** One entry of a chat's transcript, as the agent page draws it. */
export type Entry =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string }
  | {
      kind: 'tool';
      id: string;
      name: string;
      input: unknown;
      result?: { content: string; isError: boolean };
      /** Set when the user is asked about this call: the server's account of it. */
      approval?: { kind: string; detail: string; scope: string };
    }
  | {
      kind: 'approval';
      message: string;
      answer: string;
      /** Set for an approval asked in the panel; `pending` until it is answered. */
      id?: string;
      pending?: boolean;
      /** The tool asking, the kind of approval, the call in full (a command, a file and its new text), where it runs. */
      toolId?: string;
      tool?: string;
      approvalKind?: string;
      detail?: string;
      cwd?: string;
      /** What "Allow for this chat" would allow. */
      scope?: string;
    }
  | { kind: 'status'; state: 'done' | 'error' | 'cancelled' | 'refused' | 'note'; text: string };

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Where the page's transcript is scrolled; `promptTop` is the newest prompt's offset from the log's top. */
export interface ScrollState {
  top: number;
  height: number;
  client: number;
  promptTop?: number;
}

/** The page's contrast audit: its texts with the lowest contrast against their backgrounds. */
export interface ContrastReport {
  /** The body's classes: `vscode-light`, `vscode-dark`, `vscode-high-contrast`. */
  theme: string;
  checked: number;
  worst: { ratio: number; text: string; element: string; color: string }[];
}

/** What the agent page draws. */
export interface AgentPageState {
  type: 'state';
  entries: Entry[];
  running: boolean;
  progress?: string;
  usage?: TokenUsage;
  trusted: boolean;
}

/** The extension to the agent page. */
export type ToAgentPage =
  | AgentPageState
  | { type: 'paths'; found: Record<string, boolean> }
  | { type: 'prefill'; text: string }
  | { type: 'simulate'; input: string }
  | { type: 'audit' };

/** The agent page to the extension. */
export type FromAgentPage =
  | { type: 'ready' }
  | { type: 'ask'; prompt: string }
  | { type: 'cancel' }
  | { type: 'newChat' }
  | { type: 'rendered'; text: string; html?: string; scroll?: ScrollState }
  | { type: 'copy'; text: string }
  | { type: 'insert'; text: string }
  | { type: 'open'; path: string }
  | { type: 'resolvePaths'; paths: string[] }
  | { type: 'contrast'; report: ContrastReport }
  | { type: 'draft'; text: string }
  | { type: 'approve'; id: string; choice: ApprovalChoice };

/** One row of the eval results table, as the panel shows it. */
export interface EvalRow {
  query: string;
  expected: string;
  triggered: string;
  pass: boolean;
  /** The server's verdict: `undecided` when more runs could turn it. */
  outcome: 'pass' | 'fail' | 'undecided';
  verdict: string;
  loadedInstead: string;
}

/** What the eval page draws: everything already worded, so the page only builds DOM. */
export interface EvalPageState {
  type: 'state';
  title: string;
  description: string;
  state: string;
  status: string;
  rows: EvalRow[];
  running: boolean;
  canRerun: boolean;
  trusted: boolean;
}

/** The eval page to the extension. */
export type FromEvalPage = { type: 'ready' } | { type: 'cancel' } | { type: 'rerun' } | { type: 'rendered'; text: string };
