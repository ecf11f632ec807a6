// The Skills view in the Explorer: one node per skill of `skill/catalog` (every workspace folder
// the server indexes), with the errors and warnings VS Code holds for its SKILL.md, so the counts
// are the Problems panel's, and inline actions: Open, Load into Chat, Run Trigger Evals, Rename.

import * as path from 'path';
import * as vscode from 'vscode';
import { EVAL_SET_FILES, SKILL_GLOB, ServerManager } from './client';
import { CatalogPlugin, CatalogRequest, CatalogSkill } from './protocol';

export const SKILLS_VIEW = 'skillLsp.skills';
/** contextValue of a node; with trigger evals it ends in `.evals`, for the Run Trigger Evals action. */
export const SKILL_CONTEXT = 'skill';
export const SKILL_WITH_EVALS_CONTEXT = 'skill.evals';
/** contextValue of a skill only a Claude Code plugin provides: no agent loads it, so no actions but Open. */
export const PLUGIN_SKILL_CONTEXT = 'pluginSkill';

/** Catalog refetches after edits and saves are coalesced over this long. */
const REFRESH_MS = 400;
/** The second fetch after a SKILL.md was created or deleted. */
const LATE_REFRESH_MS = 1500;
/** Longest description shown next to the name; the tooltip has all of it. */
const SHORT_DESCRIPTION = 60;

export interface SkillNode {
  skill: CatalogSkill;
  uri: vscode.Uri;
  /** Whether the skill's folder has a trigger eval set (any name of EVAL_SET_FILES). */
  hasEvals: boolean;
  /** For a skill only a Claude Code plugin provides (not one of the agent's): that plugin. */
  plugin?: CatalogPlugin;
}

export interface ProblemCounts {
  errors: number;
  warnings: number;
}

/** Errors and warnings as the Problems panel counts them: information and hints are no problems. */
/**
 * The errors and warnings of a skill: its SKILL.md's, and the security findings the server
 * reports on the other files of its folder (scripts, references).
 */
export function problemCounts(uri: vscode.Uri): ProblemCounts {
  let errors = 0;
  let warnings = 0;
  const folder = vscode.Uri.joinPath(uri, '..').toString() + '/';
  for (const [file, diagnostics] of vscode.languages.getDiagnostics()) {
    const own = file.toString() === uri.toString();
    if (!own && !file.toString().startsWith(folder)) {
      continue;
    }
    for (const diagnostic of diagnostics) {
      if (!own && diagnostic.source !== 'skill-lsp') {
        continue;
      }
      if (diagnostic.severity === vscode.DiagnosticSeverity.Error) {
        errors += 1;
      } else if (diagnostic.severity === vscode.DiagnosticSeverity.Warning) {
        warnings += 1;
      }
    }
  }
  return { errors, warnings };
}

export function describeCounts(counts: ProblemCounts): string {
  const parts: string[] = [];
  if (counts.errors > 0) {
    parts.push(`${counts.errors} error${counts.errors === 1 ? '' : 's'}`);
  }
  if (counts.warnings > 0) {
    parts.push(`${counts.warnings} warning${counts.warnings === 1 ? '' : 's'}`);
  }
  return parts.join(', ');
}

export function shorten(text: string, max = SHORT_DESCRIPTION): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

export class SkillsView implements vscode.TreeDataProvider<SkillNode>, vscode.Disposable {
  private nodes: SkillNode[] = [];
  /** Skills only Claude Code plugins provide, listed after the agent's under their Claude Code names. */
  private pluginNodes: SkillNode[] = [];
  private readonly disposables: vscode.Disposable[] = [];
  private readonly changeEmitter = new vscode.EventEmitter<SkillNode | undefined>();
  private readonly catalogEmitter = new vscode.EventEmitter<SkillNode[]>();
  private timer: NodeJS.Timeout | undefined;
  private lateTimer: NodeJS.Timeout | undefined;
  private fetching: Promise<void> = Promise.resolve();
  private loaded = false;
  readonly onDidChangeTreeData = this.changeEmitter.event;
  /** Fires with the skills each time the catalog was fetched anew. */
  readonly onDidChangeCatalog = this.catalogEmitter.event;
  readonly treeView: vscode.TreeView<SkillNode>;

  constructor(private readonly server: ServerManager) {
    this.treeView = vscode.window.createTreeView(SKILLS_VIEW, { treeDataProvider: this, showCollapseAll: false });
    const watcher = vscode.workspace.createFileSystemWatcher(SKILL_GLOB);
    const evalsWatcher = vscode.workspace.createFileSystemWatcher(`**/{${EVAL_SET_FILES.join(',')}}`, false, true, false);
    const isSkill = (uri: vscode.Uri) => path.basename(uri.fsPath).toLowerCase() === 'skill.md';
    this.disposables.push(
      this.treeView,
      watcher,
      evalsWatcher,
      this.changeEmitter,
      this.catalogEmitter,
      vscode.languages.onDidChangeDiagnostics((event) => {
        // Counts are read from VS Code's diagnostics each time a node is drawn.
        const listed = [...this.nodes, ...this.pluginNodes];
        const known = new Set(listed.map((node) => node.uri.toString()));
        // A script or reference of a listed skill counts towards it too.
        const folders = listed.map((node) => vscode.Uri.joinPath(node.uri, '..').toString() + '/');
        const touches = (uri: vscode.Uri) => known.has(uri.toString()) || folders.some((folder) => uri.toString().startsWith(folder));
        if (event.uris.some(touches)) {
          this.changeEmitter.fire(undefined);
          this.updateBadge();
        }
        // A SKILL.md with findings the view does not list: the server has indexed a new skill
        // since the last fetch (file events reach the view before the server has read the file).
        if (this.server.running && event.uris.some((uri) => isSkill(uri) && !known.has(uri.toString()))) {
          this.schedule();
        }
      }),
      server.onDidChangeState((state) => {
        if (state.status === 'running') {
          this.schedule(0);
        } else if (state.status !== 'starting' && (this.nodes.length > 0 || this.loaded)) {
          this.nodes = [];
          this.pluginNodes = [];
          this.loaded = false;
          this.changeEmitter.fire(undefined);
          this.updateBadge();
        }
      }),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (isSkill(event.document.uri) && event.contentChanges.length > 0) {
          this.schedule();
        }
      }),
      vscode.workspace.onDidSaveTextDocument((document) => {
        if (isSkill(document.uri)) {
          this.schedule();
        }
      }),
      watcher.onDidCreate(() => this.scheduleAfterFileEvent()),
      watcher.onDidDelete(() => this.scheduleAfterFileEvent()),
      evalsWatcher.onDidCreate(() => this.schedule()),
      evalsWatcher.onDidDelete(() => this.schedule()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.schedule()),
    );
    if (server.running) {
      this.schedule(0);
    }
  }

  /** The skills as last fetched, in catalog order. */
  get skills(): readonly SkillNode[] {
    return this.nodes;
  }

  /** The skills only Claude Code plugins provide, as last fetched. */
  get pluginSkills(): readonly SkillNode[] {
    return this.pluginNodes;
  }

  /** Whether a catalog has been fetched since the server last started. */
  get ready(): boolean {
    return this.loaded;
  }

  getTreeItem(node: SkillNode): vscode.TreeItem {
    const counts = problemCounts(node.uri);
    // A skill only a plugin provides goes by the name Claude Code lists it under.
    const label = node.plugin ? (node.skill.claudeCodeName ?? node.skill.name) : node.skill.name;
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
    item.id = node.uri.toString();
    const problems = describeCounts(counts);
    const short = shorten(node.skill.description);
    // What the skill's files can do, as the server names it (`network`, `shell`, …).
    const capabilities = (node.skill.capabilities ?? []).join(', ');
    // An agent skill that a plugin provides too: its Claude Code name beside its own.
    const claudeName = !node.plugin && node.skill.claudeCodeName ? node.skill.claudeCodeName : '';
    item.description = [claudeName, problems, capabilities, short].filter((part) => part).join(' · ');
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.isTrusted = false;
    tooltip.supportHtml = false;
    tooltip.appendMarkdown('**').appendText(label).appendMarkdown('**\n\n');
    tooltip.appendText(node.skill.description);
    if (node.skill.claudeCodeName) {
      const plugin = node.plugin ? ` ${node.plugin.name}` : '';
      tooltip.appendMarkdown('\n\n').appendText(`Claude Code lists it as ${node.skill.claudeCodeName} once the plugin${plugin} is installed`);
      if (node.plugin) {
        tooltip.appendText(` (${node.plugin.install})`);
      }
    }
    tooltip.appendMarkdown('\n\n').appendText(`${problems || 'No problems'} · ${vscode.workspace.asRelativePath(node.uri, true)}`);
    tooltip
      .appendMarkdown('\n\n')
      .appendText(capabilities ? `What its files can do: ${capabilities}` : 'Its files use no network, shell, secrets or persistence');
    const securityErrors = node.skill.securityErrors ?? 0;
    if (securityErrors > 0) {
      tooltip
        .appendMarkdown('\n\n')
        .appendText(`${securityErrors} security error${securityErrors === 1 ? '' : 's'}: the agent asks before loading it`);
    }
    item.tooltip = tooltip;
    item.iconPath =
      counts.errors > 0
        ? new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'))
        : counts.warnings > 0
          ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'))
          : new vscode.ThemeIcon('book');
    item.contextValue = node.plugin ? PLUGIN_SKILL_CONTEXT : node.hasEvals ? SKILL_WITH_EVALS_CONTEXT : SKILL_CONTEXT;
    item.command = { title: 'Open Skill', command: 'vscode.open', arguments: [node.uri] };
    item.accessibilityInformation = { label: `${label}, ${problems || 'no problems'}` };
    return item;
  }

  getChildren(node?: SkillNode): SkillNode[] {
    return node ? [] : [...this.nodes, ...this.pluginNodes];
  }

  /** Fetches the catalog now; resolves once the tree has the result. */
  refresh(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.fetching = this.fetching.then(() => this.fetch());
    return this.fetching;
  }

  dispose(): void {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    if (this.lateTimer) {
      clearTimeout(this.lateTimer);
    }
    for (const disposable of this.disposables) {
      disposable.dispose();
    }
  }

  private schedule(delay = REFRESH_MS): void {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, delay);
  }

  /** Now and once more later: the server hears of the file through its own watcher, maybe after us. */
  private scheduleAfterFileEvent(): void {
    this.schedule();
    if (this.lateTimer) {
      clearTimeout(this.lateTimer);
    }
    this.lateTimer = setTimeout(() => {
      this.lateTimer = undefined;
      this.schedule(0);
    }, LATE_REFRESH_MS);
  }

  private async fetch(): Promise<void> {
    const client = this.server.running;
    if (!client) {
      return;
    }
    let skills: CatalogSkill[];
    let plugins: CatalogPlugin[];
    try {
      const result = await client.sendRequest(CatalogRequest, {});
      skills = result.skills;
      plugins = result.plugins ?? [];
    } catch {
      return; // A server stopping meanwhile; its state change clears the tree.
    }
    // A plugin's skill that is also one of the agent's is shown once, as the agent's.
    const agents = new Set(skills.map((skill) => skill.uri));
    this.pluginNodes = plugins.flatMap((plugin) =>
      plugin.skills
        .filter((skill) => !agents.has(skill.uri))
        .map((skill) => ({
          skill: {
            name: skill.claudeCodeName,
            description: skill.description,
            uri: skill.uri,
            root: plugin.root,
            diagnostics: 0,
            capabilities: [],
            securityErrors: 0,
            claudeCodeName: skill.claudeCodeName,
          },
          uri: vscode.Uri.parse(skill.uri),
          hasEvals: false,
          plugin,
        })),
    );
    this.nodes = await Promise.all(
      skills.map(async (skill) => {
        const uri = vscode.Uri.parse(skill.uri);
        const sets = EVAL_SET_FILES.map((file) => vscode.Uri.joinPath(uri, '..', ...file.split('/')));
        const hasEvals = (await Promise.all(sets.map(exists))).some(Boolean);
        return { skill, uri, hasEvals };
      }),
    );
    this.loaded = true;
    this.changeEmitter.fire(undefined);
    this.updateBadge();
    this.catalogEmitter.fire(this.nodes);
  }

  private updateBadge(): void {
    let total = 0;
    for (const node of [...this.nodes, ...this.pluginNodes]) {
      const counts = problemCounts(node.uri);
      total += counts.errors + counts.warnings;
    }
    this.treeView.badge = total > 0 ? { value: total, tooltip: `${total} problem${total === 1 ? '' : 's'} in skills` } : undefined;
  }
}

/** The node a view action was invoked on; from the palette, the skill of the active editor. */
function nodeFor(view: SkillsView, argument: unknown): SkillNode | undefined {
  if (argument && typeof argument === 'object' && 'skill' in argument && 'uri' in argument) {
    return argument as SkillNode;
  }
  const active = vscode.window.activeTextEditor?.document.uri.toString();
  return view.skills.find((node) => node.uri.toString() === active);
}

/** Where the value of `name:` is in a SKILL.md's frontmatter, or undefined. */
export function nameValuePosition(text: string): { line: number; character: number } | undefined {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.replace(/^\uFEFF/, '').trim() !== '---') {
    return undefined;
  }
  for (let line = 1; line < lines.length; line++) {
    if (lines[line].trim() === '---') {
      return undefined;
    }
    const match = /^name:[ \t]*(['"]?)/.exec(lines[line]);
    if (match) {
      return { line, character: match[0].length };
    }
  }
  return undefined;
}

export function registerSkillsViewCommands(view: SkillsView, loadIntoChat: (name: string) => Promise<void>): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('skillLsp.skills.refresh', () => view.refresh()),
    vscode.commands.registerCommand('skillLsp.skills.open', async (argument?: unknown) => {
      const node = nodeFor(view, argument);
      if (node) {
        await vscode.window.showTextDocument(node.uri, { preview: false });
      }
      return node?.uri;
    }),
    vscode.commands.registerCommand('skillLsp.skills.loadIntoChat', async (argument?: unknown) => {
      const node = nodeFor(view, argument);
      if (node) {
        await loadIntoChat(node.skill.name);
      }
      return node?.skill.name;
    }),
    vscode.commands.registerCommand('skillLsp.skills.runTriggerEvals', (argument?: unknown) => {
      const node = nodeFor(view, argument);
      return node ? vscode.commands.executeCommand('skillLsp.runTriggerEvals', { skill: node.skill.name, uri: node.skill.uri }) : undefined;
    }),
    // The server's rename at the name value: it updates the `/name` and `$name` mentions too and, where
    // the client allows resource operations, moves the skill folder.
    vscode.commands.registerCommand('skillLsp.skills.rename', async (argument?: unknown) => {
      const node = nodeFor(view, argument);
      if (!node) {
        return undefined;
      }
      const editor = await vscode.window.showTextDocument(node.uri, { preview: false });
      const at = nameValuePosition(editor.document.getText());
      if (!at) {
        void vscode.window.showWarningMessage(`Skill LSP: ${vscode.workspace.asRelativePath(node.uri)} has no name in its frontmatter to rename.`);
        return undefined;
      }
      const position = new vscode.Position(at.line, at.character);
      editor.selection = new vscode.Selection(position, position);
      editor.revealRange(new vscode.Range(position, position));
      // The rename command settles only once the user has typed the new name: not awaited.
      void vscode.commands.executeCommand('editor.action.rename');
      return position;
    }),
  ];
}
