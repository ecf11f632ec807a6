// Owns the language client: finds and starts the server, restarts it when its command or
// environment must change, and routes the server's agent traffic to the rest of the extension.

import * as path from 'path';
import * as vscode from 'vscode';
import {
  ClientCapabilities,
  DidChangeConfigurationNotification,
  FeatureState,
  LanguageClient,
  LanguageClientOptions,
  MessageActionItem,
  MessageType,
  RevealOutputChannelOn,
  ShowMessageRequest,
  ShowMessageRequestParams,
  State,
  StaticFeature,
  WorkspaceEdit,
} from 'vscode-languageclient/node';
import { ApiKeys } from './apiKey';
import { AGENT_EVENT, APPROVAL_ACTIONS, AgentEvent, EVAL_RESULT, EvalResultParams } from './protocol';
import {
  AgentEnv,
  INSTALL_HINT,
  serverPathSettingsCommand,
  ServerSource,
  describeAgentEnv,
  isPlatformPackage,
  locateServer,
  serverEnv,
  serverVersion,
} from './server';
import { agentSettings, serverPathSetting, serverSettings } from './settings';

/** SKILL.md in any letter case: the server lints `skill.md` too, to tell the author to rename it. */
export const SKILL_GLOB = '**/[sS][kK][iI][lL][lL].[mM][dD]';
export const SKILL_SELECTOR: { scheme: string; pattern: string }[] = [{ scheme: 'file', pattern: SKILL_GLOB }];
const CONFIG_GLOB = '**/{skill-lsp.toml,.skill-lsp.toml}';
/**
 * The names of a skill's trigger eval set, relative to its folder, in the server's order: the
 * first that exists is the one measured (docs/protocol.md, "Trigger evals in the editor").
 */
export const EVAL_SET_FILES = [
  'evals/triggers.json',
  'evals/eval_queries.json',
  'evals/trigger/eval_queries.json',
  'evals/trigger-eval.json',
  'evals/eval_set.json',
  'eval_set.json',
  'eval_queries.json',
];
/** A skill's output evals: the server checks and completes them when open (it does not run them yet). */
export const OUTPUT_EVALS_FILE = 'evals/evals.json';
/**
 * A skill's eval files: the server checks and completes them when open (only those beside a
 * SKILL.md; it leaves any other JSON of these names alone).
 */
export const EVAL_FILE_SELECTOR = [...EVAL_SET_FILES, OUTPUT_EVALS_FILE].map((file) => ({
  scheme: 'file',
  language: 'json',
  pattern: `**/${file}`,
}));
/** Codex's `agents/openai.yaml` beside a SKILL.md: the server lints it when it is open. */
export const OPENAI_YAML_SELECTOR = { scheme: 'file', pattern: '**/agents/openai.yaml' };
/** Claude Code plugin manifests, checked as `claude plugin validate` does. */
export const MANIFEST_SELECTOR = [
  { scheme: 'file', pattern: '**/.claude-plugin/plugin.json' },
  { scheme: 'file', pattern: '**/.claude-plugin/marketplace.json' },
];
/** What the language client syncs: the skills, their eval sets, their Codex metadata and plugin manifests. */
const CLIENT_SELECTOR = [...SKILL_SELECTOR, ...EVAL_FILE_SELECTOR, OPENAI_YAML_SELECTOR, ...MANIFEST_SELECTOR];

/**
 * Tells the server, in `initialize`, that this client implements the `skillLsp.runTriggerEvals`
 * and `skillLsp.improveDescription` commands, so it may offer the "Run trigger evals" code lens
 * and the "Improve the description" code action (docs/protocol.md).
 */
class TriggerEvalsCapability implements StaticFeature {
  fillClientCapabilities(capabilities: ClientCapabilities): void {
    const experimental = (capabilities.experimental ?? {}) as { skillLsp?: Record<string, unknown> };
    experimental.skillLsp = { ...(experimental.skillLsp ?? {}), runTriggerEvals: true, improveDescription: true };
    capabilities.experimental = experimental;
  }
  initialize(): void {}
  getState(): FeatureState {
    return { kind: 'static' };
  }
  clear(): void {}
}

export type ServerStatus = 'stopped' | 'starting' | 'running' | 'notFound' | 'failed';

export interface ServerState {
  status: ServerStatus;
  /** Why the server is not running, for notFound and failed. */
  message?: string;
  serverPath?: string;
  /** How serverPath was found. */
  source?: ServerSource;
  version?: string;
  /** What `skill-lsp --version` printed, e.g. `skill-lsp 0.1.0 (abc1234)`: the version with its commit. */
  build?: string;
}

export interface ApprovalRecord {
  message: string;
  answer: string | undefined;
}

/**
 * Takes an approval request into the agent panel: returns the chosen title, or undefined when it
 * does not take this one (no chat of the panel is running), which leaves it to the dialog.
 */
export type InlineApprover = (message: string, token: vscode.CancellationToken) => Promise<string> | undefined;

/** Workspace diagnostics are re-pulled at least this often even when nothing changed. */
const WORKSPACE_PULL_BACKSTOP_MS = 30_000;

export class ServerManager implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private clientDisposables: vscode.Disposable[] = [];
  private state: ServerState = { status: 'stopped' };
  private queue: Promise<void> = Promise.resolve();
  private pendingRestart: Promise<void> | undefined;
  private workspaceDirty = true;
  private lastWorkspacePull = 0;
  private starts = 0;
  private inlineApprover: InlineApprover | undefined;
  /** The stored key the running server got, to tell a real key change from an echo. */
  private keyInUse: string | undefined;
  /** Every key the running server could read (stored or inherited), to cut out of messages shown. */
  private secretsInUse: string[] = [];

  private readonly stateEmitter = new vscode.EventEmitter<ServerState>();
  private readonly agentEventEmitter = new vscode.EventEmitter<AgentEvent>();
  private readonly approvalEmitter = new vscode.EventEmitter<ApprovalRecord>();
  private readonly evalResultEmitter = new vscode.EventEmitter<EvalResultParams>();
  readonly onDidChangeState = this.stateEmitter.event;
  readonly onEvalResult = this.evalResultEmitter.event;
  readonly onAgentEvent = this.agentEventEmitter.event;
  readonly onApproval = this.approvalEmitter.event;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly trace: vscode.OutputChannel,
    private readonly keys: ApiKeys,
    /** The extension's folder: a platform-specific package carries the server under bundled/. */
    private readonly extensionPath: string,
  ) {}

  /** Where a platform-specific package keeps its server; the universal package has no such folder. */
  private get bundledRoot(): string {
    return path.join(this.extensionPath, 'bundled');
  }

  get current(): ServerState {
    return { ...this.state };
  }

  /** Counts successful starts: agent sessions belong to one server process. */
  get generation(): number {
    return this.starts;
  }

  /** The running client, or undefined. */
  get running(): LanguageClient | undefined {
    return this.state.status === 'running' ? this.client : undefined;
  }

  start(): Promise<void> {
    return this.enqueue(() => (this.client ? Promise.resolve() : this.doStart()));
  }

  /** Coalesces bursts (a key change fires both the command and the secret-storage event). */
  restart(): Promise<void> {
    if (!this.pendingRestart) {
      this.pendingRestart = this.enqueue(async () => {
        this.pendingRestart = undefined;
        await this.doStop();
        await this.doStart();
      });
    }
    return this.pendingRestart;
  }

  /** Settles when no start, stop or restart is queued. */
  async idle(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.queue;
      await seen;
    } while (seen !== this.queue);
  }

  stop(): Promise<void> {
    return this.enqueue(() => this.doStop());
  }

  /**
   * For commands: the client once any start in flight has settled, starting it if it never was.
   * Tells the user why when there is none.
   */
  async clientForCommand(): Promise<LanguageClient | undefined> {
    const startsNow = this.state.status === 'stopped';
    if (startsNow) {
      await this.start();
    } else {
      await this.idle();
    }
    if (this.running) {
      return this.running;
    }
    if (startsNow) {
      return undefined; // The failed start has just said why.
    }
    if (this.state.status === 'notFound') {
      void this.showNotFound(this.state.message ?? '', isPlatformPackage(this.bundledRoot));
    } else {
      void vscode.window
        .showErrorMessage(`Skill LSP: the server is not running. ${this.state.message ?? ''}`, 'Restart Server', 'Show Output')
        .then((choice) => this.onProblemChoice(choice));
    }
    return undefined;
  }

  /**
   * Restarts when the stored key differs from the one the server runs with. A key set through
   * the command has already restarted the server; the secret-storage event that follows, or
   * one from another window, only restarts if it brings a different key.
   */
  async onKeysChanged(): Promise<void> {
    if (this.state.status === 'stopped') {
      return;
    }
    await this.idle();
    const key = vscode.workspace.isTrusted ? await this.keys.get(agentSettings().provider) : undefined;
    if (key !== this.keyInUse) {
      this.log.info('The API key changed in secret storage; restarting the server');
      await this.restart();
    }
  }

  /** Approvals asked while the panel's chat runs go to `approver` instead of a dialog. */
  setInlineApprover(approver: InlineApprover | undefined): void {
    this.inlineApprover = approver;
  }

  /** Sends targets and rules to the running server. */
  notifySettings(): void {
    const client = this.running;
    if (!client) {
      return;
    }
    this.workspaceDirty = true;
    void client.sendNotification(DidChangeConfigurationNotification.type, { settings: serverSettings() });
  }

  dispose(): void {
    void this.stop();
    this.stateEmitter.dispose();
    this.agentEventEmitter.dispose();
    this.approvalEmitter.dispose();
    this.evalResultEmitter.dispose();
  }

  /** A workspace edit the server sent inside a result, as VS Code applies it (undefined with no server). */
  async toCodeEdit(edit: WorkspaceEdit): Promise<vscode.WorkspaceEdit | undefined> {
    return this.running?.protocol2CodeConverter.asWorkspaceEdit(edit);
  }

  /**
   * A server message as it may be shown: the key the server was started with, should a message
   * ever carry it, is cut out.
   */
  redact(text: string): string {
    return this.secretsInUse.reduce((shown, secret) => shown.split(secret).join('[API key]'), text);
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const next = this.queue.then(task, task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private setState(state: ServerState): void {
    this.state = state;
    this.stateEmitter.fire({ ...state });
  }

  private async doStart(): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const located = locateServer(serverPathSetting(), folder, this.bundledRoot);
    if (!located.ok) {
      this.setState({ status: 'notFound', message: located.message });
      this.log.error(located.message);
      void this.showNotFound(located.message, located.platformPackage);
      return;
    }
    if (located.warning) {
      this.log.warn(located.warning);
    }
    const source = located.source;
    this.setState({ status: 'starting', serverPath: located.path, source });

    // A binary that cannot even print its version (another architecture, a lost executable
    // bit) is reported as such, not as a language client that failed to initialize.
    const probe = await serverVersion(located.path);
    if (!probe.ok) {
      this.log.error(probe.message);
      this.setState({ status: 'failed', serverPath: located.path, source, message: probe.message });
      void vscode.window
        .showErrorMessage(`Skill LSP: ${probe.message}`, 'Open Settings', 'Show Output')
        .then((choice) => this.onProblemChoice(choice));
      return;
    }
    this.log.info(`skill-lsp --version: ${probe.version} (${located.path}, found via ${source})`);

    // An untrusted workspace gets a server without any provider variables: it lints, and
    // skill/agentChat fails on the server side too, whoever sends it.
    let agent: AgentEnv | undefined;
    if (vscode.workspace.isTrusted) {
      const settings = agentSettings();
      agent = { ...settings, apiKey: await this.keys.get(settings.provider) };
    }
    this.keyInUse = agent?.apiKey;
    const env = serverEnv(process.env, agent);
    this.secretsInUse = [env.ANTHROPIC_API_KEY, env.OPENAI_API_KEY].filter((value): value is string => !!value && value.length >= 8);
    this.log.info(`Starting ${located.path} serve --stdio (found via ${located.source}; ${describeAgentEnv(agent, env)})`);

    const watchers = [vscode.workspace.createFileSystemWatcher(SKILL_GLOB), vscode.workspace.createFileSystemWatcher(CONFIG_GLOB)];
    const client = new LanguageClient(
      'skillLsp',
      'Skill LSP',
      { command: located.path, args: ['serve', '--stdio'], options: { env, cwd: folder } },
      this.clientOptions(watchers),
    );
    client.registerFeature(new TriggerEvalsCapability());
    client.onNotification(AGENT_EVENT, (event: AgentEvent) => this.agentEventEmitter.fire(event));
    client.onNotification(EVAL_RESULT, (params: EvalResultParams) => this.evalResultEmitter.fire(params));
    // vscode-languageclient 9 has no middleware for window/showMessageRequest: this handler
    // replaces its default one (a plain notification) for every message of the server.
    client.onRequest(ShowMessageRequest.type, (params, token) => this.showMessageRequest(params, token));
    const stateWatch = client.onDidChangeState((event) => {
      // A crash the client gave up restarting: say so instead of looking alive.
      if (event.newState === State.Stopped && this.client === client && this.state.status === 'running') {
        this.setState({ status: 'failed', serverPath: located.path, source, message: 'The server stopped. See the Skill LSP output.' });
      } else if (event.newState === State.Running && this.client === client && this.state.status === 'failed') {
        this.setState({ status: 'running', serverPath: located.path, source, version: this.state.version, build: probe.version });
      }
    });
    this.client = client;
    this.clientDisposables = [...watchers, stateWatch];
    this.workspaceDirty = true;
    try {
      await client.start();
    } catch (error) {
      const message = `Starting ${located.path} failed: ${error instanceof Error ? error.message : String(error)}`;
      this.log.error(message);
      await this.doStop();
      this.setState({ status: 'failed', serverPath: located.path, source, message });
      void vscode.window.showErrorMessage(`Skill LSP: ${message}`, 'Open Settings', 'Show Output').then((choice) => this.onProblemChoice(choice));
      return;
    }
    this.starts += 1;
    const version = client.initializeResult?.serverInfo?.version;
    this.log.info(`skill-lsp ${version ?? '(unknown version)'} is running`);
    this.setState({ status: 'running', serverPath: located.path, source, version, build: probe.version });
  }

  private async doStop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    for (const disposable of this.clientDisposables) {
      disposable.dispose();
    }
    this.clientDisposables = [];
    if (client) {
      try {
        // dispose also unregisters the VS Code commands the client made for the server's
        // executeCommand list, which a restart registers again.
        await client.dispose(3000);
      } catch (error) {
        this.log.warn(`Stopping the server: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (this.state.status === 'running' || this.state.status === 'starting') {
      this.setState({ status: 'stopped' });
    }
  }

  private clientOptions(watchers: vscode.FileSystemWatcher[]): LanguageClientOptions {
    // A middleware step for what can change a skill's findings: the next workspace pull is due.
    const dirtying = <E, R>(event: E, next: (event: E) => R): R => {
      this.workspaceDirty = true;
      return next(event);
    };
    return {
      documentSelector: CLIENT_SELECTOR,
      outputChannel: this.log,
      traceOutputChannel: this.trace,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationOptions: serverSettings(),
      // Skill and config files are watched here and not only through the watcher the server
      // registers, so linting follows disk changes whatever the server asks for.
      synchronize: { fileEvents: watchers },
      // No pull on save: the server re-lints on every change already and ignores didSave.
      diagnosticPullOptions: { onChange: true, onSave: false, onTabs: true },
      markdown: { isTrusted: false, supportHtml: false },
      middleware: {
        didChange: dirtying,
        didSave: dirtying,
        didClose: dirtying,
        workspace: {
          didChangeWatchedFile: dirtying,
          // A skill folder deleted, renamed or created in the explorer: the server hears of it
          // at once (workspace/did*Files), and the next workspace pull must not be skipped.
          didCreateFiles: dirtying,
          didRenameFiles: dirtying,
          didDeleteFiles: dirtying,
        },
        // vscode-languageclient re-pulls workspace diagnostics every 2 s, and skill-lsp answers
        // each pull with full reports (no result ids), re-linting every skill. Only ask again
        // when something could have changed; an empty answer leaves the last results standing.
        provideWorkspaceDiagnostics: (resultIds, token, reporter, next) => {
          const stale = Date.now() - this.lastWorkspacePull > WORKSPACE_PULL_BACKSTOP_MS;
          if (!this.workspaceDirty && !stale) {
            return { items: [] };
          }
          this.workspaceDirty = false;
          this.lastWorkspacePull = Date.now();
          return next(resultIds, token, reporter);
        },
      },
    };
  }

  /**
   * The server asks approval for agent tool calls through window/showMessageRequest. While the
   * panel's chat runs, the approval is asked inline in the panel (no focus taken, Enter and
   * Escape deny). Otherwise a toast would be easy to miss while the agent waits, so approvals
   * are modal, with Deny as the close affordance: dismissing the dialog denies. Other messages
   * keep the usual notification.
   */
  private async showMessageRequest(params: ShowMessageRequestParams, token: vscode.CancellationToken): Promise<MessageActionItem | null> {
    const actions = params.actions ?? [];
    const isApproval = actions.some((action) => action.title === APPROVAL_ACTIONS[0]);
    const inline = isApproval ? this.inlineApprover?.(params.message, token) : undefined;
    if (inline) {
      const title = await inline;
      return actions.find((action) => action.title === title) ?? null;
    }
    if (isApproval) {
      const items = actions.map((action) => ({ title: action.title, isCloseAffordance: action.title === 'Deny', action }));
      const choice = await vscode.window.showWarningMessage(
        params.message,
        {
          modal: true,
          detail: 'Asked by the Skill LSP agent. "Allow for this chat" allows calls like this one until the chat ends.',
        },
        ...items,
      );
      this.approvalEmitter.fire({ message: params.message, answer: choice?.title });
      return choice?.action ?? null;
    }
    const show =
      params.type === MessageType.Error
        ? vscode.window.showErrorMessage
        : params.type === MessageType.Warning
          ? vscode.window.showWarningMessage
          : vscode.window.showInformationMessage;
    const choice = await show(params.message, ...actions);
    return choice ?? null;
  }

  /**
   * The universal package (no bundled server) tells the user how to install one; a
   * platform-specific package only ends up here through a bad setting or a damaged install, and
   * the message says which.
   */
  private async showNotFound(message: string, platformPackage: boolean): Promise<void> {
    if (platformPackage) {
      const choice = await vscode.window.showErrorMessage(`Skill LSP: ${message}`, 'Open Settings', 'Show Output', 'Retry');
      await this.onProblemChoice(choice);
      return;
    }
    const choice = await vscode.window.showErrorMessage(
      `Skill LSP: ${message} Install it with: ${INSTALL_HINT}, or set skillLsp.server.path.`,
      'Open Settings',
      'Copy Install Command',
      'Retry',
    );
    if (choice === 'Copy Install Command') {
      await vscode.env.clipboard.writeText('cargo install --git https://github.com/skill-lsp/skill-lsp');
    } else {
      await this.onProblemChoice(choice);
    }
  }

  private async onProblemChoice(choice: string | undefined): Promise<void> {
    if (choice === 'Open Settings') {
      await openServerPathSetting();
    } else if (choice === 'Show Output') {
      this.log.show();
    } else if (choice === 'Retry' || choice === 'Restart Server') {
      await this.restart();
    }
  }
}

/**
 * Opens the Settings editor on skillLsp.server.path in the scope where the server runs: in a
 * remote or code-server window that is the Remote tab (the setting is machine-overridable, and the
 * binary must be on the remote machine), elsewhere the User tab.
 */
export async function openServerPathSetting(): Promise<string> {
  const available = await vscode.commands.getCommands(true);
  const choice = serverPathSettingsCommand(vscode.env.remoteName, available);
  await vscode.commands.executeCommand(choice.command, ...choice.args);
  return choice.command;
}
