// Entry point: wires the language client, the agent, the catalog and the commands, and starts
// the server once the workspace turns out to hold a skill.

import * as vscode from 'vscode';
import { AgentChat, Entry, SAVED_CHAT_KEY, SavedChat } from './agent';
import { AgentPanel, ContrastReport, ScrollState, trackActiveEditor } from './agentPanel';
import { ApiKeys } from './apiKey';
import { CATALOG_SCHEME, CatalogDocuments } from './catalog';
import { SKILL_GLOB, SKILL_SELECTOR, ServerManager, ServerState, openServerPathSetting } from './client';
import { registerCommands } from './commands';
import { EvalPanel } from './evalPanel';
import { EvalView, TriggerEvals } from './evals';
import { DescriptionImprover } from './improve';
import { needsNotify, needsRestart } from './settings';
import { ProblemCounts, SkillsView, problemCounts, registerSkillsViewCommands } from './skillsView';

/** What `activate` returns: read-only views of the extension's state, for other extensions and tests. */
export interface SkillLspApi {
  serverState(): ServerState;
  /** The language status item on SKILL.md editors as it reads now. */
  status(): { text: string; detail: string | undefined };
  /** Opens skillLsp.server.path in the Settings editor of the right scope; returns the command used. */
  openServerPathSetting(): Promise<string>;
  skills: {
    /** Fetches the catalog again and resolves once the Skills view has it. */
    refresh(): Promise<void>;
    /** The Skills view's nodes: each TreeItem as drawn, with the counts it was drawn with. */
    nodes(): { name: string; uri: string; item: vscode.TreeItem; counts: ProblemCounts }[];
    /** The nodes of skills only Claude Code plugins provide, after the agent's. */
    pluginNodes(): { name: string; uri: string; item: vscode.TreeItem; counts: ProblemCounts }[];
  };
  /** Resolves once the initial look for skills and any start or restart in flight have settled. */
  whenIdle(): Promise<ServerState>;
  agent: {
    transcript(): Entry[];
    /** The transcript's HTML as the panel last drew it, for tests of the Markdown rendering. */
    renderedHtml(): string | undefined;
    /** The code the last Copy button of the panel copied. */
    copied(): string | undefined;
    /** The prompt box's text after Load into Chat filled it; undefined before. */
    draft(): string | undefined;
    /** The transcript's text as the panel last drew it; undefined before it drew once. */
    rendered(): string | undefined;
    /** Where the panel's transcript was scrolled when it last drew. */
    scroll(): ScrollState | undefined;
    /** The panel's contrast audit: its least readable texts; undefined while it is closed. */
    contrast(): Promise<ContrastReport | undefined>;
    /** The conversation as saved in workspaceState, after writing any pending change. */
    saved(): Promise<SavedChat | undefined>;
    session(): string | undefined;
    running(): boolean;
    /** The id of the approval waiting in the panel, if any. */
    pendingApproval(): string | undefined;
    /**
     * Sends a key press (`Enter`, `Escape`) or a click on an approval button (`click:Allow once`)
     * into the agent panel's page, as the user would: for tests of the approval card.
     */
    sendToPanel(input: string): Promise<boolean>;
  };
  evals: {
    current(): EvalView;
    /** The Trigger Evals panel's text as it last drew it; undefined while it is closed. */
    rendered(): string | undefined;
    running(): boolean;
  };
}

let activeServer: ServerManager | undefined;

export function activate(context: vscode.ExtensionContext): SkillLspApi | undefined {
  const log = vscode.window.createOutputChannel('Skill LSP', { log: true });
  const trace = vscode.window.createOutputChannel('Skill LSP Trace');
  const keys = new ApiKeys(context.secrets);
  const server = new ServerManager(log, trace, keys, context.extensionPath);
  activeServer = server;
  const chat = new AgentChat(server, context.workspaceState);
  const evals = new TriggerEvals(server);
  const improver = new DescriptionImprover(server);
  const catalog = new CatalogDocuments();
  const skills = new SkillsView(server);
  const status = statusItem(server, skills);

  context.subscriptions.push(
    log,
    trace,
    server,
    chat,
    evals,
    improver,
    catalog,
    vscode.workspace.registerTextDocumentContentProvider(CATALOG_SCHEME, catalog),
    ...registerCommands({ extensionUri: context.extensionUri, server, chat, evals, improver, keys, catalog, log }),
    skills,
    ...registerSkillsViewCommands(skills, async (name) => {
      AgentPanel.prefill(context.extensionUri, chat, `Load the skill '${name}' and use it to `);
    }),
    status,
    trackActiveEditor(),
    vscode.commands.registerCommand('skillLsp.openServerPathSetting', () => openServerPathSetting()),
    // The Skills view shows once the server was wanted (a SKILL.md in the workspace or open).
    server.onDidChangeState((state) => {
      if (state.status !== 'stopped') {
        void vscode.commands.executeCommand('setContext', 'skillLsp.active', true);
      }
    }),
  );

  // Restarts matter only once the server was wanted; before that the next start reads everything fresh.
  const started = () => server.current.status !== 'stopped';
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (needsRestart(event) && started()) {
        log.info('Server or agent settings changed; restarting the server');
        void server.restart();
      } else if (needsNotify(event)) {
        server.notifySettings();
      }
    }),
    keys.onDidChange(() => void server.onKeysChanged()),
    // The agent's provider variables are only given to a server of a trusted workspace.
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      if (started()) {
        log.info('Workspace trusted; restarting the server with the agent enabled');
        void server.restart();
      }
    }),
  );

  // Approvals of the panel's chat are asked in the panel; it is brought up without taking focus.
  server.setInlineApprover((message, token) => {
    if (!chat.running) {
      return undefined;
    }
    AgentPanel.show(context.extensionUri, chat);
    return chat.requestApproval(message, token);
  });
  context.subscriptions.push({ dispose: () => server.setInlineApprover(undefined) });

  const discovery = startWhenSkillsAppear(context, server).catch((error) => log.error(`Looking for skills: ${String(error)}`));

  // The API is the tests' view of the extension: only the test bundle returns it.
  if (!SKILL_LSP_TEST_HOOKS) {
    return undefined;
  }
  return {
    serverState: () => server.current,
    status: () => ({ text: status.item.text, detail: status.item.detail }),
    openServerPathSetting,
    skills: {
      refresh: () => skills.refresh(),
      nodes: () =>
        skills.skills.map((node) => ({
          name: node.skill.name,
          uri: node.uri.toString(),
          item: skills.getTreeItem(node),
          counts: problemCounts(node.uri),
        })),
      pluginNodes: () =>
        skills.pluginSkills.map((node) => ({
          name: node.skill.name,
          uri: node.uri.toString(),
          item: skills.getTreeItem(node),
          counts: problemCounts(node.uri),
        })),
    },
    whenIdle: async () => {
      await discovery;
      await server.idle();
      return server.current;
    },
    agent: {
      transcript: () => chat.transcript(),
      draft: () => AgentPanel.reports()?.draft,
      renderedHtml: () => AgentPanel.reports()?.html,
      copied: () => AgentPanel.copied(),
      rendered: () => AgentPanel.reports()?.text,
      scroll: () => AgentPanel.reports()?.scroll,
      contrast: async () => AgentPanel.reports()?.audit((message) => AgentPanel.postToPage(message)),
      saved: async () => {
        await chat.save();
        return context.workspaceState.get<SavedChat>(SAVED_CHAT_KEY);
      },
      session: () => chat.session,
      running: () => chat.running,
      pendingApproval: () => chat.pendingApproval,
      sendToPanel: (input) => AgentPanel.postToPage({ type: 'simulate', input }),
    },
    evals: {
      current: () => evals.current(),
      rendered: () => EvalPanel.reports()?.text,
      running: () => evals.running,
    },
  };
}

/** Waits for the server to shut down cleanly; VS Code awaits this, not the subscriptions. */
export function deactivate(): Promise<void> | undefined {
  const server = activeServer;
  activeServer = undefined;
  return server?.stop();
}

/**
 * Activation also happens for any Markdown file; the server only starts when a SKILL.md is
 * open or the workspace holds one, so plain Markdown work costs no process.
 */
async function startWhenSkillsAppear(context: vscode.ExtensionContext, server: ServerManager): Promise<void> {
  const isSkill = (document: vscode.TextDocument) => vscode.languages.match(SKILL_SELECTOR, document) > 0;
  if (vscode.workspace.textDocuments.some(isSkill)) {
    await server.start();
    return;
  }
  const listener = vscode.workspace.onDidOpenTextDocument((document) => {
    if (isSkill(document)) {
      listener.dispose();
      void server.start();
    }
  });
  context.subscriptions.push(listener);
  const found = await vscode.workspace.findFiles(SKILL_GLOB, '**/{node_modules,.git,target}/**', 1);
  if (found.length > 0) {
    listener.dispose();
    await server.start();
  }
}

/**
 * A language status entry on SKILL.md editors: the server's version with its commit (from
 * `skill-lsp --version`) and how many skills it indexes (from `skill/catalog`), or what is wrong;
 * clicking restarts the server.
 */
function statusItem(server: ServerManager, skills: SkillsView): vscode.Disposable & { item: vscode.LanguageStatusItem } {
  const item = vscode.languages.createLanguageStatusItem('skillLsp.server', SKILL_SELECTOR);
  item.name = 'Skill LSP';
  const update = () => {
    const state = server.current;
    item.busy = state.status === 'starting';
    item.severity =
      state.status === 'notFound' || state.status === 'failed' ? vscode.LanguageStatusSeverity.Error : vscode.LanguageStatusSeverity.Information;
    switch (state.status) {
      case 'running': {
        const build = state.build ?? `skill-lsp ${state.version ?? ''}`.trim();
        const count = skills.ready ? skills.skills.length : undefined;
        item.text = count === undefined ? build : `${build} · ${count} skill${count === 1 ? '' : 's'}`;
        item.detail = count === undefined ? state.serverPath : `${count} skill${count === 1 ? '' : 's'} indexed · ${state.serverPath ?? ''}`;
        break;
      }
      case 'starting':
        item.text = 'skill-lsp starting';
        item.detail = state.serverPath;
        break;
      case 'notFound':
        item.text = 'skill-lsp not found';
        item.detail = state.message;
        break;
      case 'failed':
        item.text = 'skill-lsp failed';
        item.detail = state.message;
        break;
      case 'stopped':
        item.text = 'skill-lsp stopped';
        item.detail = undefined;
        break;
    }
    item.command =
      state.status === 'notFound'
        ? { title: 'Open Settings', command: 'skillLsp.openServerPathSetting' }
        : { title: 'Restart', command: 'skillLsp.restartServer' };
  };
  update();
  const subscriptions = [server.onDidChangeState(update), skills.onDidChangeCatalog(update)];
  return Object.assign(vscode.Disposable.from(item, ...subscriptions), { item });
}
