// "Improve the description with the trigger evals…": the server's code action on `description:`
// runs this command, which sends `skill/improveDescription` (after the same estimate and question
// as a trigger-eval run), shows the server's `$/progress` in a cancellable notification, then
// shows the file beside the file with the best description as a diff and asks before it applies
// the server's edit. Nothing is written unless the user says Apply.

import * as path from 'path';
import * as vscode from 'vscode';
import { ResponseError, WorkDoneProgress } from 'vscode-languageclient/node';
import { withHint } from './agent';
import { ServerManager, SKILL_SELECTOR } from './client';
import { confirmRun, DEFAULT_CONFIRM_ABOVE, measuringSettings } from './evals';
import { EstimateImproveRequest, ImproveDescriptionRequest, ImproveDescriptionResult, RunTriggerEvalsArgument } from './protocol';

/** The scheme of the read-only "with the best description" side of the diff. */
export const PROPOSAL_SCHEME = 'skill-lsp-proposal';

export interface ImproveOptions {
  /** Most rewrites (the server's default is 5). */
  iterations?: number;
  /** Runs per query (the server's default is 3). */
  runs?: number;
  seed?: number;
  noCache?: boolean;
}

export interface ImproveOutcome {
  state: 'applied' | 'discarded' | 'unchanged' | 'cancelled' | 'error' | 'refused' | 'busy' | 'noSkill';
  skill?: string;
  result?: ImproveDescriptionResult;
  error?: string;
}

/** After Cancel, how long to wait for the server's answer before calling the run cancelled anyway. */
const CANCEL_GRACE_MS = 3000;

/** The texts of the proposal documents, by their uri; they live as long as their diff tab. */
class Proposals implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changeEmitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changeEmitter.event;

  put(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changeEmitter.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }
}

export class DescriptionImprover implements vscode.Disposable {
  private readonly proposals = new Proposals();
  private readonly registration: vscode.Disposable;
  private tokenSource: vscode.CancellationTokenSource | undefined;

  constructor(private readonly server: ServerManager) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, this.proposals);
  }

  get running(): boolean {
    return this.tokenSource !== undefined;
  }

  cancel(): void {
    this.tokenSource?.cancel();
  }

  dispose(): void {
    this.cancel();
    this.registration.dispose();
    this.proposals.dispose();
  }

  async run(argument?: RunTriggerEvalsArgument, options: ImproveOptions = {}): Promise<ImproveOutcome> {
    if (this.running) {
      void vscode.window.showInformationMessage('Skill LSP: a description is being improved already.');
      return { state: 'busy' };
    }
    const target = argument?.uri || argument?.skill ? argument : activeSkill();
    if (!target) {
      void vscode.window.showInformationMessage('Skill LSP: open a SKILL.md with trigger evals to improve its description.');
      return { state: 'noSkill' };
    }
    const skill = target.skill ?? (target.uri ? path.basename(path.dirname(vscode.Uri.parse(target.uri).fsPath)) : undefined);
    if (!vscode.workspace.isTrusted) {
      const text = 'Improving a description is off in Restricted Mode: it sends the workspace’s skill catalog and queries to the model provider.';
      void vscode.window.showWarningMessage(`Skill LSP: ${text}`);
      return { state: 'refused', skill, error: text };
    }
    const client = await this.server.clientForCommand();
    if (!client) {
      return { state: 'error', skill, error: `The language server is not running. ${this.server.current.message ?? ''}`.trim() };
    }
    const params = {
      skill: target.skill,
      uri: target.uri,
      iterations: options.iterations,
      ...measuringSettings(options),
      seed: options.seed,
      noCache: options.noCache || undefined,
    };
    const estimate = await client.sendRequest(EstimateImproveRequest, { ...params, dryRun: true }).catch(() => undefined);
    if (estimate) {
      const limit = vscode.workspace.getConfiguration('skillLsp').get<number>('evals.confirmAboveRequests', DEFAULT_CONFIRM_ABOVE);
      const question = { title: `Improve the description: ${skill ?? 'skill'}`, run: 'Improve the description' };
      if (limit > 0 && estimate.dry_run.requests_at_most > limit && !(await confirmRun(question, estimate.summary))) {
        return { state: 'cancelled', skill, error: `Not run: ${estimate.summary}, above skillLsp.evals.confirmAboveRequests (${limit}).` };
      }
    }

    const tokenSource = new vscode.CancellationTokenSource();
    this.tokenSource = tokenSource;
    const workDoneToken = `skill-lsp-improve-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
    let finishNotification: () => void = () => undefined;
    const notificationDone = new Promise<void>((resolve) => (finishNotification = resolve));
    let report: (message: string) => void = () => undefined;
    const progress = client.onProgress(WorkDoneProgress.type, workDoneToken, (value) => {
      if (value.kind !== 'end' && value.message) {
        report(value.message);
      }
    });
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Improving the description of ${skill ?? 'the skill'}`, cancellable: true },
      (notification, cancelled) => {
        report = (message) => notification.report({ message });
        if (estimate) {
          report(`may send ${estimate.summary}`);
        }
        cancelled.onCancellationRequested(() => tokenSource.cancel());
        return notificationDone;
      },
    );
    let result: ImproveDescriptionResult | undefined;
    try {
      const request = client.sendRequest(ImproveDescriptionRequest, { ...params, workDoneToken }, tokenSource.token);
      const gaveUp = new Promise<undefined>((resolve) => {
        tokenSource.token.onCancellationRequested(() => setTimeout(() => resolve(undefined), CANCEL_GRACE_MS));
      });
      result = await Promise.race([
        request.catch((error: unknown) => {
          if (tokenSource.token.isCancellationRequested) {
            return undefined;
          }
          throw error;
        }),
        gaveUp,
      ]);
    } catch (error) {
      const message = this.server.redact(error instanceof Error ? error.message : String(error));
      const text = withHint(message, error instanceof ResponseError ? error.data : undefined);
      void vscode.window.showErrorMessage(`Skill LSP: improving the description of ${skill ?? 'the skill'} failed: ${text}`);
      return { state: 'error', skill, error: text };
    } finally {
      finishNotification();
      progress.dispose();
      tokenSource.dispose();
      this.tokenSource = undefined;
    }
    if (tokenSource.token.isCancellationRequested || !result) {
      return { state: 'cancelled', skill };
    }
    return this.offer(result, skill);
  }

  /** Shows the diff of the best description and applies the server's edit if the user accepts it. */
  private async offer(result: ImproveDescriptionResult, skill: string | undefined): Promise<ImproveOutcome> {
    for (const warning of result.improve.warnings) {
      void vscode.window.showWarningMessage(`Skill LSP: ${warning}`);
    }
    if (!result.edit || result.proposed === null) {
      const text = result.warning ? `${result.summary}; ${result.warning}` : result.summary;
      void vscode.window.showInformationMessage(`Skill LSP: ${skill ?? 'the skill'}: ${text}.`);
      return { state: 'unchanged', skill, result };
    }
    const fileUri = vscode.Uri.parse(result.uri);
    const proposal = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: fileUri.path, query: `${Date.now()}` });
    this.proposals.put(proposal, result.proposed);
    await vscode.commands.executeCommand(
      'vscode.diff',
      fileUri,
      proposal,
      `${path.basename(path.dirname(fileUri.fsPath))}/SKILL.md ↔ improved description`,
      {
        preview: true,
      },
    );
    const apply = { label: 'Apply the new description', description: result.summary };
    const choice = await vscode.window.showQuickPick([apply, { label: 'Discard', description: 'leave the file as it is' }], {
      title: `Improve the description: ${skill ?? 'skill'}`,
      placeHolder: result.summary,
      ignoreFocusOut: true,
    });
    await closeDiff(proposal);
    if (choice !== apply) {
      return { state: 'discarded', skill, result };
    }
    const edit = await this.server.toCodeEdit(result.edit);
    if (!edit || !(await vscode.workspace.applyEdit(edit))) {
      const text = 'the new description could not be applied: the file changed while the evals ran. Run the improvement again.';
      void vscode.window.showErrorMessage(`Skill LSP: ${text}`);
      return { state: 'error', skill, result, error: text };
    }
    return { state: 'applied', skill, result };
  }
}

/** Closes the diff tab whose right side is `proposal`. */
async function closeDiff(proposal: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === proposal.toString());
  if (tabs.length) {
    await vscode.window.tabGroups.close(tabs);
  }
}

/** The SKILL.md of the active editor. */
function activeSkill(): RunTriggerEvalsArgument | undefined {
  const document = vscode.window.activeTextEditor?.document;
  if (document && vscode.languages.match(SKILL_SELECTOR, document) > 0) {
    return { uri: document.uri.toString() };
  }
  return undefined;
}
