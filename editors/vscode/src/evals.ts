// One skill's trigger evals at a time: sends `skill/runEvals` with a work-done token, shows the
// server's `$/progress` as a cancellable notification (Cancel sends `$/cancelRequest`), collects
// the `skill/evalResult` notifications as they arrive and keeps the final report. The results
// panel only draws what this holds.

import * as path from 'path';
import * as vscode from 'vscode';
import { ResponseError, WorkDoneProgress } from 'vscode-languageclient/node';
import { withHint } from './agent';
import { EVAL_SET_FILES, ServerManager, SKILL_SELECTOR } from './client';
import { EstimateEvalsRequest, EvalQueryResult, EvalResultParams, RunEvalsRequest, RunEvalsResult, RunTriggerEvalsArgument } from './protocol';
import type { EvalRow } from './webview/messages';

export type EvalState = 'idle' | 'running' | 'done' | 'error' | 'cancelled' | 'refused';

/** What the panel shows. */
export interface EvalView {
  state: EvalState;
  /** The skill's name, or its folder's name until the server has answered. */
  skill?: string;
  /** The SKILL.md the run is for. */
  uri?: string;
  description?: string;
  /** In the order they finished while running; in the eval set's order once done. */
  results: EvalQueryResult[];
  /** The final report, once done. */
  report?: RunEvalsResult;
  /** The server's latest progress message, such as `2/3 queries`. */
  progress?: string;
  /** Why the run failed or was refused. */
  error?: string;
}

export interface EvalOutcome {
  state: Exclude<EvalState, 'idle' | 'running'> | 'busy' | 'noSkill';
  skill?: string;
  uri?: string;
  report?: RunEvalsResult;
  /** The results that arrived as `skill/evalResult` notifications during the run. */
  live: EvalQueryResult[];
  error?: string;
}

/** Runs that may send more requests than this ask first (skillLsp.evals.confirmAboveRequests). */
export const DEFAULT_CONFIRM_ABOVE = 100;

/** Asks whether to run; Cancel comes first, so a hasty Enter sends nothing. */
export async function confirmRun(question: { title: string; run: string }, text: string): Promise<boolean> {
  const run = { label: question.run, description: text };
  const choice = await vscode.window.showQuickPick([{ label: 'Cancel', description: 'send nothing' }, run], {
    title: question.title,
    placeHolder: `This run may send ${text}. Run it?`,
    ignoreFocusOut: true,
  });
  return choice === run;
}

/**
 * Runs per query, whether undecided queries get more, and whose listing the model is sent: the
 * call's own `runs` first, else the settings `skillLsp.evals.runs`, `skillLsp.evals.autoRuns`,
 * `skillLsp.evals.target` and `skillLsp.evals.contextWindow` (the server's defaults when unset).
 */
export function measuringSettings(options: { runs?: number }): {
  runs?: number;
  autoRuns?: boolean;
  target?: string;
  contextWindow?: number;
} {
  const config = vscode.workspace.getConfiguration('skillLsp');
  const runs = options.runs ?? config.get<number>('evals.runs');
  const target = config.get<string>('evals.target') || undefined;
  const window = config.get<number>('evals.contextWindow');
  return {
    runs: typeof runs === 'number' && runs >= 1 ? Math.floor(runs) : undefined,
    autoRuns: config.get<boolean>('evals.autoRuns') || undefined,
    target,
    // The server takes a window only with a target: it is that client's budget.
    contextWindow: target && typeof window === 'number' && window >= 1 ? Math.floor(window) : undefined,
  };
}

export interface RunOptions {
  /** Runs per query; the server's default (3) when absent. */
  runs?: number;
  /** Sends every run to the model again instead of using the cache. */
  noCache?: boolean;
}

/** After Cancel, how long to wait for the server's answer before calling the run cancelled anyway. */
const CANCEL_GRACE_MS = 3000;

export type { EvalRow } from './webview/messages';

/** The counts of the summary line: missed = should trigger but did not; wrongly loaded = the reverse. */
export interface EvalCounts {
  passed: number;
  total: number;
  missed: number;
  wronglyLoaded: number;
  /** Queries whose interval straddles the threshold: more runs could turn them. */
  undecided: number;
}

/**
 * One row. The result is the server's `verdict`: `pass` or `fail` when the query's 95 % interval
 * lies on one side of the threshold, else `pass?`/`fail?` (undecided: more runs could turn it),
 * as the CLI marks them.
 */
export function evalRow(result: EvalQueryResult): EvalRow {
  const instead = Object.entries(result.loaded_instead ?? {})
    .sort(([, a], [, b]) => b - a)
    .map(([skill, runs]) => `${skill} (${runs}/${result.runs})`);
  const outcome = result.verdict ?? (result.pass ? 'pass' : 'fail');
  const why = result.should_trigger ? 'missed' : 'wrongly loaded';
  const mark = outcome === 'undecided' ? '?' : '';
  return {
    query: result.query,
    expected: result.should_trigger ? 'should trigger' : 'should not trigger',
    triggered: `${result.triggers}/${result.runs}`,
    pass: result.pass,
    outcome,
    verdict: result.pass ? `pass${mark}` : `fail${mark}: ${why}`,
    loadedInstead: instead.join(', '),
  };
}

export function evalCounts(results: EvalQueryResult[]): EvalCounts {
  const failed = results.filter((result) => !result.pass);
  return {
    passed: results.length - failed.length,
    total: results.length,
    missed: failed.filter((result) => result.should_trigger).length,
    wronglyLoaded: failed.filter((result) => !result.should_trigger).length,
    undecided: results.filter((result) => result.verdict === 'undecided').length,
  };
}

/**
 * `1/3 passed — 2 missed, 0 wrongly loaded`, the words of the server's code lens, and how many
 * of those are undecided (`· 3 undecided: run more`).
 */
export function summaryLine(counts: EvalCounts): string {
  const line = `${counts.passed}/${counts.total} passed — ${counts.missed} missed, ${counts.wronglyLoaded} wrongly loaded`;
  return counts.undecided > 0 ? `${line} · ${counts.undecided} undecided: run more` : line;
}

export class TriggerEvals implements vscode.Disposable {
  private view: EvalView = { state: 'idle', results: [] };
  private live: EvalQueryResult[] = [];
  private tokenSource: vscode.CancellationTokenSource | undefined;
  private lastTarget: { argument: RunTriggerEvalsArgument; options: RunOptions } | undefined;
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly server: ServerManager) {
    this.disposables.push(
      server.onEvalResult((params) => this.onResult(params)),
      this.changeEmitter,
    );
  }

  get running(): boolean {
    return this.view.state === 'running';
  }

  /** Whether Run again has something to run. */
  get canRerun(): boolean {
    return this.lastTarget !== undefined;
  }

  current(): EvalView {
    return { ...this.view, results: [...this.view.results] };
  }

  cancel(): void {
    this.tokenSource?.cancel();
  }

  rerun(): Promise<EvalOutcome> | undefined {
    const last = this.lastTarget;
    return last ? this.run(last.argument, last.options) : undefined;
  }

  /**
   * Runs the evals of the skill the argument names (the code lens passes `{skill, uri}`), else
   * of the active editor's SKILL.md (or of the skill whose `evals/triggers.json` is active).
   */
  async run(argument?: RunTriggerEvalsArgument, options: RunOptions = {}): Promise<EvalOutcome> {
    if (this.running) {
      void vscode.window.showInformationMessage(`Skill LSP: the trigger evals of ${this.view.skill ?? 'a skill'} are still running.`);
      return { state: 'busy', live: [] };
    }
    const target = argument?.uri || argument?.skill ? argument : activeSkill();
    if (!target) {
      void vscode.window.showInformationMessage('Skill LSP: open a SKILL.md whose folder has evals/triggers.json to run its trigger evals.');
      return { state: 'noSkill', live: [] };
    }
    const skill = target.skill ?? (target.uri ? path.basename(path.dirname(vscode.Uri.parse(target.uri).fsPath)) : undefined);
    this.lastTarget = { argument: { skill: target.skill, uri: target.uri }, options };
    this.live = [];
    this.view = { state: 'running', skill, uri: target.uri, results: [], progress: 'Starting…' };
    this.changed();

    if (!vscode.workspace.isTrusted) {
      const text =
        'Trigger evals are off in Restricted Mode: they send the workspace’s skill catalog and queries to the model provider. Trust the workspace to run them.';
      void vscode.window.showWarningMessage(`Skill LSP: ${text}`, 'Manage Workspace Trust').then((choice) => {
        if (choice) {
          void vscode.commands.executeCommand('workbench.trust.manage');
        }
      });
      return this.end('refused', text);
    }
    const client = await this.server.clientForCommand();
    if (!client) {
      return this.end('error', `The language server is not running. ${this.server.current.message ?? ''}`.trim());
    }

    // What the run would send, before anything is: shown while it runs, and asked about when
    // it may send more requests than the user set.
    const measuring = measuringSettings(options);
    const estimate = await client
      .sendRequest(EstimateEvalsRequest, {
        skill: target.skill,
        uri: target.uri,
        ...measuring,
        noCache: options.noCache || undefined,
        dryRun: true,
      })
      .catch(() => undefined);
    if (estimate) {
      const limit = vscode.workspace.getConfiguration('skillLsp').get<number>('evals.confirmAboveRequests', DEFAULT_CONFIRM_ABOVE);
      // The server words it, as the CLI's --dry-run.
      const text = estimate.summary;
      if (
        limit > 0 &&
        estimate.dry_run.requests_at_most > limit &&
        !(await confirmRun({ title: `Trigger evals: ${skill ?? 'skill'}`, run: 'Run the trigger evals' }, text))
      ) {
        return this.end('cancelled', `Not run: ${text}, above skillLsp.evals.confirmAboveRequests (${limit}).`);
      }
      this.view.progress = `Starting: ${text}`;
      this.changed();
    }

    const tokenSource = new vscode.CancellationTokenSource();
    this.tokenSource = tokenSource;
    void vscode.commands.executeCommand('setContext', 'skillLsp.evalsRunning', true);
    const workDoneToken = `skill-lsp-evals-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    let finishNotification: () => void = () => undefined;
    const notificationDone = new Promise<void>((resolve) => (finishNotification = resolve));
    let reportInNotification: (value: { message?: string; increment?: number }) => void = () => undefined;
    let reported = 0;
    const progress = client.onProgress(WorkDoneProgress.type, workDoneToken, (value) => {
      if (value.kind === 'end') {
        return;
      }
      if (value.message) {
        this.view.progress = value.message;
        // `2/10 queries`: the bar moves by the queries finished since the last report.
        const counted = /^(\d+)\/(\d+)/.exec(value.message);
        let increment: number | undefined;
        if (counted && Number(counted[2]) > 0) {
          const done = (100 * Number(counted[1])) / Number(counted[2]);
          increment = done - reported;
          reported = done;
        }
        reportInNotification({ message: value.message, increment });
        this.changed();
      }
    });
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Trigger evals: ${skill ?? 'skill'}`, cancellable: true },
      (notification, cancelled) => {
        reportInNotification = (value) => notification.report(value);
        cancelled.onCancellationRequested(() => tokenSource.cancel());
        return notificationDone;
      },
    );

    try {
      const request = client.sendRequest(
        RunEvalsRequest,
        { skill: target.skill, uri: target.uri, ...measuring, noCache: options.noCache || undefined, workDoneToken },
        tokenSource.token,
      );
      // The server answers $/cancelRequest with a RequestCancelled error; the grace timer
      // covers a server that never answers at all.
      const gaveUp = new Promise<undefined>((resolve) => {
        tokenSource.token.onCancellationRequested(() => setTimeout(() => resolve(undefined), CANCEL_GRACE_MS));
      });
      const report = await Promise.race([
        request.catch((error: unknown) => {
          if (tokenSource.token.isCancellationRequested) {
            return undefined;
          }
          throw error;
        }),
        gaveUp,
      ]);
      if (tokenSource.token.isCancellationRequested || !report) {
        return this.end('cancelled', undefined);
      }
      this.view.report = report;
      this.view.skill = report.skill_name;
      this.view.description = report.description;
      this.view.results = [...report.results];
      return this.end('done', undefined);
    } catch (error) {
      const message = this.server.redact(error instanceof Error ? error.message : String(error));
      const text = withHint(message, error instanceof ResponseError ? error.data : undefined);
      void vscode.window.showErrorMessage(`Skill LSP: trigger evals of ${skill ?? 'the skill'} failed: ${text}`);
      return this.end('error', text);
    } finally {
      finishNotification();
      progress.dispose();
      tokenSource.dispose();
      this.tokenSource = undefined;
      void vscode.commands.executeCommand('setContext', 'skillLsp.evalsRunning', false);
    }
  }

  dispose(): void {
    this.cancel();
    for (const disposable of this.disposables) {
      disposable.dispose();
    }
  }

  private end(state: Exclude<EvalState, 'idle' | 'running'>, error: string | undefined): EvalOutcome {
    this.view.state = state;
    this.view.error = error;
    this.view.progress = undefined;
    this.changed();
    return { state, skill: this.view.skill, uri: this.view.uri, report: this.view.report, live: [...this.live], error };
  }

  /** Only one run is in flight from this window, so every result that comes while it runs is its. */
  private onResult(params: EvalResultParams): void {
    if (!this.running) {
      return;
    }
    this.live.push(params.result);
    this.view.skill = params.skill;
    this.view.results.push(params.result);
    this.changed();
  }

  private changed(): void {
    this.changeEmitter.fire();
  }
}

/** The SKILL.md of the active editor, or the one of the active trigger eval set (`evals/triggers.json`, …). */
function activeSkill(): RunTriggerEvalsArgument | undefined {
  const document = vscode.window.activeTextEditor?.document;
  if (!document) {
    return undefined;
  }
  if (vscode.languages.match(SKILL_SELECTOR, document) > 0) {
    return { uri: document.uri.toString() };
  }
  const file = document.uri.fsPath.split(path.sep).join('/');
  const set = EVAL_SET_FILES.find((name) => file.endsWith(`/${name}`));
  if (document.uri.scheme === 'file' && set) {
    const folder = file.slice(0, file.length - set.length - 1);
    return { uri: vscode.Uri.file(path.join(folder, 'SKILL.md')).toString() };
  }
  return undefined;
}
