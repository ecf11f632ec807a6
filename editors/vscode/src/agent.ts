// One conversation with the server's skill agent: sends `skill/agentChat`, folds the live
// `skill/agentEvent` stream into a transcript, and cancels through the request's token so the
// client sends `$/cancelRequest`. The panel only draws what this holds.

import * as vscode from 'vscode';
import { ResponseError, WorkDoneProgress } from 'vscode-languageclient/node';
import { ServerManager } from './client';
import { AgentChatRequest, AgentChatResult, AgentEvent, UnsetData } from './protocol';
import type { ApprovalChoice, Entry } from './webview/messages';

export type { ApprovalChoice, Entry } from './webview/messages';

export type ChatState = 'done' | 'error' | 'cancelled' | 'refused' | 'busy';

export interface ChatOutcome {
  state: ChatState;
  sessionId?: string;
  reply?: string;
  stopReason?: string;
  loadedSkills?: string[];
  usage?: AgentChatResult['usage'];
  error?: string;
  entries: Entry[];
}

/** After Cancel, how long to wait for the server's answer before calling the chat cancelled anyway. */
const CANCEL_GRACE_MS = 3000;

/** The workspaceState key of the saved conversation. */
export const SAVED_CHAT_KEY = 'skillLsp.agent.chat';
/** workspaceState lives in a database that every extension shares: a long chat keeps its end. */
const SAVED_ENTRIES_MAX = 200;
const SAVED_CHARS_MAX = 1_000_000;
/** Streaming changes the transcript per token; saving waits for a pause. */
const SAVE_DELAY_MS = 500;

/** What is kept of a conversation across panel closes and window reloads: no key, no session id. */
export interface SavedChat {
  entries: Entry[];
  usage?: AgentChatResult['usage'];
}

export class AgentChat implements vscode.Disposable {
  private entries: Entry[] = [];
  private sessionId: string | undefined;
  /** Sessions live in the server process: an id is only good for the server that made it. */
  private sessionGeneration = -1;
  private claimSession = false;
  private openText: Extract<Entry, { kind: 'assistant' }> | undefined;
  private sawFinalEvent = false;
  private tokenSource: vscode.CancellationTokenSource | undefined;
  /** From the moment a prompt is accepted, including the wait for the server. */
  private busy = false;
  private progressMessage: string | undefined;
  private approvalCount = 0;
  /** The approvals waiting in the panel, by id: each settles its request. */
  private readonly pendingApprovals = new Map<string, (choice: ApprovalChoice, shown: string) => void>();
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  readonly onDidChange = this.changeEmitter.event;
  /** The server's running token count of this conversation, from the last finished prompt. */
  private usageTotal: AgentChatResult['usage'] | undefined;
  /** The entries came from an earlier window, whose server session is gone. */
  private restored = false;
  private saveTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly server: ServerManager,
    private readonly store?: vscode.Memento,
  ) {
    this.restore();
    this.disposables.push(
      server.onAgentEvent((event) => this.onEvent(event)),
      server.onApproval((record) => {
        if (this.running) {
          this.push({ kind: 'approval', message: record.message, answer: record.answer ?? 'Deny (dismissed)' });
        }
      }),
    );
  }

  get running(): boolean {
    return this.busy;
  }

  get session(): string | undefined {
    return this.sessionId;
  }

  get progress(): string | undefined {
    return this.progressMessage;
  }

  get usage(): AgentChatResult['usage'] | undefined {
    return this.usageTotal;
  }

  transcript(): Entry[] {
    return this.entries.map((entry) => ({ ...entry }));
  }

  /** Forgets the conversation; the next prompt starts a new session. */
  newChat(): void {
    if (this.running) {
      return;
    }
    this.entries = [];
    this.sessionId = undefined;
    this.openText = undefined;
    this.usageTotal = undefined;
    this.restored = false;
    this.changed();
  }

  cancel(): void {
    this.denyPending('Deny (chat cancelled)');
    this.tokenSource?.cancel();
  }

  /** The approval waiting in the panel, if any. */
  get pendingApproval(): string | undefined {
    return this.pendingApprovals.keys().next().value;
  }

  /**
   * Asks for an approval in the transcript instead of a dialog: the card shows the call in full
   * (from the tool call the server announced just before), where it runs and what "Allow for
   * this chat" covers. Resolves with the choice; a withdrawn request (the chat was cancelled)
   * denies.
   */
  requestApproval(message: string, token: vscode.CancellationToken): Promise<ApprovalChoice> {
    this.approvalCount += 1;
    const id = `approval-${this.approvalCount}`;
    const entry: Extract<Entry, { kind: 'approval' }> = {
      kind: 'approval',
      id,
      pending: true,
      message,
      answer: '',
      cwd: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
      scope: DEFAULT_SCOPE,
    };
    this.entries.push(entry);
    // The server's toolCall event and its approval request travel separately: the call may be
    // here already, or come next (then onEvent attaches it).
    const call = this.entries.find(
      (candidate): candidate is Extract<Entry, { kind: 'tool' }> =>
        candidate.kind === 'tool' && !candidate.result && candidate.approval !== undefined && !this.claimed(candidate.id),
    );
    if (call) {
      this.attachCall(entry, call);
    }
    this.changed();
    return new Promise<ApprovalChoice>((resolve) => {
      const settle = (choice: ApprovalChoice, shown: string) => {
        if (!this.pendingApprovals.delete(id)) {
          return;
        }
        entry.pending = false;
        entry.answer = shown;
        listener.dispose();
        this.changed();
        resolve(choice);
      };
      const listener = token.onCancellationRequested(() => settle('Deny', 'Deny (the agent withdrew the request)'));
      this.pendingApprovals.set(id, settle);
    });
  }

  /** Answers the approval `id` (or the one waiting); returns whether one was waiting. */
  answerApproval(choice: ApprovalChoice, id?: string): boolean {
    const key = id ?? this.pendingApproval;
    const settle = key ? this.pendingApprovals.get(key) : undefined;
    if (!settle) {
      return false;
    }
    settle(choice, choice);
    return true;
  }

  private claimed(toolId: string): boolean {
    return this.entries.some((entry) => entry.kind === 'approval' && entry.toolId === toolId);
  }

  /** Shows the call in full on its approval card, and moves the card under the call's card. */
  private attachCall(approval: Extract<Entry, { kind: 'approval' }>, call: Extract<Entry, { kind: 'tool' }>): void {
    approval.toolId = call.id;
    approval.tool = call.name;
    approval.approvalKind = call.approval?.kind;
    approval.detail = call.approval?.detail;
    approval.scope = call.approval?.scope ?? DEFAULT_SCOPE;
    const at = this.entries.indexOf(approval);
    if (at >= 0 && at < this.entries.indexOf(call)) {
      this.entries.splice(at, 1);
      this.entries.splice(this.entries.indexOf(call) + 1, 0, approval);
    }
  }

  private denyPending(shown: string): void {
    for (const settle of [...this.pendingApprovals.values()]) {
      settle('Deny', shown);
    }
  }

  async ask(prompt: string, options: { newChat?: boolean } = {}): Promise<ChatOutcome> {
    if (this.busy) {
      return { state: 'busy', error: 'The agent is still answering the previous prompt.', entries: this.transcript() };
    }
    if (options.newChat) {
      this.newChat();
    }
    this.busy = true;
    try {
      return await this.run(prompt);
    } finally {
      this.busy = false;
      this.changed();
    }
  }

  private async run(prompt: string): Promise<ChatOutcome> {
    if (!vscode.workspace.isTrusted) {
      const text = 'The skill agent is off in Restricted Mode: it can run commands and edit files in this workspace. Trust the workspace to use it.';
      this.push({ kind: 'user', text: prompt });
      this.push({ kind: 'status', state: 'refused', text });
      void vscode.window.showWarningMessage(`Skill LSP: ${text}`, 'Manage Workspace Trust').then((choice) => {
        if (choice) {
          void vscode.commands.executeCommand('workbench.trust.manage');
        }
      });
      return { state: 'refused', error: text, entries: this.transcript() };
    }
    const client = await this.server.clientForCommand();
    if (!client) {
      const text = `The language server is not running. ${this.server.current.message ?? ''}`.trim();
      this.push({ kind: 'user', text: prompt });
      this.push({ kind: 'status', state: 'error', text });
      return { state: 'error', error: text, entries: this.transcript() };
    }
    if (this.sessionId && this.sessionGeneration !== this.server.generation) {
      this.sessionId = undefined;
      this.push({ kind: 'status', state: 'note', text: 'The server restarted, so this is a new conversation.' });
    } else if (this.restored && !this.sessionId && this.entries.length > 0) {
      this.push({
        kind: 'status',
        state: 'note',
        text: 'The messages above are from an earlier session: the agent starts a new conversation and does not remember them.',
      });
    }
    this.restored = false;

    const tokenSource = new vscode.CancellationTokenSource();
    this.tokenSource = tokenSource;
    this.claimSession = this.sessionId === undefined;
    this.sawFinalEvent = false;
    this.openText = undefined;
    this.progressMessage = 'Thinking…';
    void vscode.commands.executeCommand('setContext', 'skillLsp.agentRunning', true);
    this.push({ kind: 'user', text: prompt });

    const workDoneToken = `skill-lsp-agent-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    // Begin carries the prompt itself; reports name the tool being run.
    let reportInWindow: ((message: string) => void) | undefined;
    const progress = client.onProgress(WorkDoneProgress.type, workDoneToken, (value) => {
      if (value.kind === 'report' && value.message) {
        // The server says what the call does in words (`Running ls -la`), never its JSON.
        this.progressMessage = value.message;
        reportInWindow?.(this.progressMessage);
        this.changed();
      }
    });
    let endWindowProgress: () => void = () => undefined;
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Skill agent' }, (windowProgress) => {
      reportInWindow = (message) => windowProgress.report({ message });
      return new Promise<void>((resolve) => (endWindowProgress = resolve));
    });
    const generation = this.server.generation;
    let outcome: ChatOutcome;
    try {
      const request = client.sendRequest(AgentChatRequest, { prompt, sessionId: this.sessionId, workDoneToken }, tokenSource.token);
      // The server answers $/cancelRequest with a RequestCancelled error; the grace timer
      // covers a server that never answers at all.
      const gaveUp = new Promise<undefined>((resolve) => {
        tokenSource.token.onCancellationRequested(() => setTimeout(() => resolve(undefined), CANCEL_GRACE_MS));
      });
      const result = await Promise.race([
        request.catch((error: unknown) => {
          if (tokenSource.token.isCancellationRequested) {
            return undefined;
          }
          throw error;
        }),
        gaveUp,
      ]);
      if (tokenSource.token.isCancellationRequested || !result) {
        const kept = this.sessionId ? ' The steps completed so far stay in the conversation.' : '';
        this.push({ kind: 'status', state: 'cancelled', text: `Cancelled.${kept}` });
        outcome = { state: 'cancelled', sessionId: this.sessionId, entries: [] };
      } else {
        this.sessionId = result.sessionId;
        this.sessionGeneration = generation;
        // The server reports the conversation's running total, not this prompt's share: the
        // panel shows it in a footer, apart from the closing line.
        this.usageTotal = result.usage;
        this.finish('done', stopText(result.stopReason));
        outcome = {
          state: 'done',
          sessionId: result.sessionId,
          reply: result.reply,
          stopReason: result.stopReason,
          loadedSkills: result.loadedSkills,
          usage: result.usage,
          entries: [],
        };
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof ResponseError && (error.data as { session?: string } | undefined)?.session === 'unavailable') {
        this.sessionId = undefined;
      }
      this.finish('error', withHint(message, error instanceof ResponseError ? error.data : undefined));
      outcome = { state: 'error', sessionId: this.sessionId, error: message, entries: [] };
    } finally {
      this.denyPending('Deny (the chat ended)');
      endWindowProgress();
      progress.dispose();
      tokenSource.dispose();
      this.tokenSource = undefined;
      this.progressMessage = undefined;
      this.openText = undefined;
      void vscode.commands.executeCommand('setContext', 'skillLsp.agentRunning', false);
    }
    if (this.sessionId) {
      this.sessionGeneration = generation;
    }
    this.changed();
    return { ...outcome, entries: this.transcript() };
  }

  dispose(): void {
    this.cancel();
    void this.save();
    for (const disposable of this.disposables) {
      disposable.dispose();
    }
    this.changeEmitter.dispose();
  }

  private onEvent(event: AgentEvent): void {
    if (!this.running) {
      return;
    }
    // A new chat learns its session id from its first event: only one chat runs at a time.
    if (this.claimSession) {
      this.sessionId = event.sessionId;
      this.claimSession = false;
    }
    if (event.sessionId !== this.sessionId) {
      return;
    }
    const fold: EventFold = { entries: this.entries, openText: this.openText, sawFinalEvent: this.sawFinalEvent };
    const changed = foldAgentEvent(fold, event);
    this.openText = fold.openText;
    this.sawFinalEvent = fold.sawFinalEvent;
    if (event.kind === 'toolCall' && event.approval) {
      const waiting = this.entries.find(
        (entry): entry is Extract<Entry, { kind: 'approval' }> => entry.kind === 'approval' && !!entry.pending && !entry.toolId,
      );
      const call = this.entries.find((entry): entry is Extract<Entry, { kind: 'tool' }> => entry.kind === 'tool' && entry.id === event.id);
      if (waiting && call) {
        this.attachCall(waiting, call);
      }
    }
    if (changed) {
      this.changed();
    }
  }

  /** The final status line: the live done/error event's line, completed by the response. */
  private finish(state: 'done' | 'error', text: string): void {
    const last = this.entries[this.entries.length - 1];
    if (this.sawFinalEvent && last?.kind === 'status' && last.state === state) {
      last.text = text;
      this.changed();
    } else if (!this.sawFinalEvent || last?.kind !== 'status') {
      this.push({ kind: 'status', state, text });
    }
  }

  private push(entry: Entry): void {
    this.entries.push(entry);
    this.changed();
  }

  private changed(): void {
    this.changeEmitter.fire();
    if (this.store && !this.saveTimer) {
      this.saveTimer = setTimeout(() => this.save(), SAVE_DELAY_MS);
    }
  }

  /** Writes the conversation to workspaceState now (also what the pending timer would do). */
  save(): Thenable<void> {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
    }
    if (!this.store) {
      return Promise.resolve();
    }
    return this.store.update(SAVED_CHAT_KEY, this.entries.length ? savedChat(this.entries, this.usageTotal) : undefined);
  }

  private restore(): void {
    const saved = this.store?.get<SavedChat>(SAVED_CHAT_KEY);
    if (!saved || !Array.isArray(saved.entries)) {
      return;
    }
    // An approval nobody can answer any more reads as what it became: denied.
    this.entries = saved.entries.map((entry) =>
      entry.kind === 'approval' && entry.pending ? { ...entry, pending: false, answer: 'Deny (the window closed)' } : entry,
    );
    this.usageTotal = saved.usage;
    this.restored = this.entries.length > 0;
  }
}

/** The conversation as saved: its last entries, within the caps. */
export function savedChat(entries: readonly Entry[], usage: AgentChatResult['usage'] | undefined): SavedChat {
  let kept = entries.slice(-SAVED_ENTRIES_MAX);
  let size = JSON.stringify(kept).length;
  while (kept.length > 0 && size > SAVED_CHARS_MAX) {
    size -= JSON.stringify(kept[0]).length + 1;
    kept = kept.slice(1);
  }
  return { entries: kept, usage };
}

/** What folding the event stream into a transcript keeps between events. */
export interface EventFold {
  entries: Entry[];
  /** The assistant entry that the next text chunk continues. */
  openText: Extract<Entry, { kind: 'assistant' }> | undefined;
  /** A done or error event has come. */
  sawFinalEvent: boolean;
}

/**
 * Folds one `skill/agentEvent` (docs/protocol.md) into the transcript; returns whether the
 * transcript changed. Unknown kinds change nothing.
 */
export function foldAgentEvent(fold: EventFold, event: AgentEvent): boolean {
  switch (event.kind) {
    case 'text':
      if (fold.openText) {
        fold.openText.text += event.text;
      } else {
        fold.openText = { kind: 'assistant', text: event.text };
        fold.entries.push(fold.openText);
      }
      return true;
    case 'toolCall':
      fold.openText = undefined;
      fold.entries.push({ kind: 'tool', id: event.id, name: event.name, input: event.input, approval: event.approval });
      return true;
    case 'toolResult': {
      const call = [...fold.entries].reverse().find((entry) => entry.kind === 'tool' && entry.id === event.id);
      if (call && call.kind === 'tool') {
        call.result = { content: event.content, isError: event.isError };
      } else {
        fold.entries.push({
          kind: 'tool',
          id: event.id,
          name: event.name,
          input: undefined,
          result: { content: event.content, isError: event.isError },
        });
      }
      return true;
    }
    case 'notice':
      // A retry or the token limit: said in the conversation, in the server's words.
      fold.openText = undefined;
      fold.entries.push({ kind: 'status', state: 'note', text: event.text });
      return true;
    case 'done':
      fold.sawFinalEvent = true;
      fold.openText = undefined;
      // A cancelled chat's closing event (it carries the session id, learnt by the caller); the
      // cancel path writes its own status line.
      if (event.stopReason !== 'cancelled') {
        fold.entries.push({ kind: 'status', state: 'done', text: stopText(event.stopReason) });
        return true;
      }
      return false;
    case 'error':
      fold.sawFinalEvent = true;
      fold.openText = undefined;
      fold.entries.push({ kind: 'status', state: 'error', text: event.message });
      return true;
  }
  return false;
}

/** Until the call's event arrives: the server says what the answer covers on the call itself. */
const DEFAULT_SCOPE = 'Allow for this chat: calls of this kind in this conversation, without asking again.';

/**
 * An error's message with the way to fix it in VS Code: the server says in the error's data
 * when no model or no provider is set (docs/protocol.md), and here the fix is a setting or a
 * command rather than the environment variable the message names.
 */
export function withHint(message: string, data: unknown): string {
  const unset = (data as Partial<UnsetData> | undefined)?.unset;
  if (unset === 'model') {
    return `${message}\nIn VS Code: set "skillLsp.agent.model".`;
  }
  if (unset === 'provider') {
    return `${message}\nIn VS Code: run "Skill LSP: Set API Key" (and set "skillLsp.agent.baseUrl" for a local server).`;
  }
  return message;
}

/**
 * The closing line of a chat in words: `end_turn` (the model finished) is just "Done"; other
 * stop reasons say why the reply ended.
 */
export function stopText(stopReason: string): string {
  switch (stopReason) {
    case 'end_turn':
    case 'stop':
      return 'Done';
    case 'max_tokens':
    case 'length':
      return 'Stopped: the reply reached the token limit (max_tokens)';
    default:
      return `Done (${stopReason})`;
  }
}
