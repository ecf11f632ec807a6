import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as vscode from 'vscode';
import type { CatalogResult } from '../../protocol';
import { extensionApi, screenshot, waitFor, workspaceUri } from './helpers';

/** Errors and warnings of a file as the Problems panel counts them, from VS Code's own store. */
function problems(uri: vscode.Uri): { errors: number; warnings: number; others: number } {
  const all = vscode.languages.getDiagnostics(uri);
  const errors = all.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length;
  const warnings = all.filter((d) => d.severity === vscode.DiagnosticSeverity.Warning).length;
  return { errors, warnings, others: all.length - errors - warnings };
}

/** The counts a node's description shows: `2 errors, 1 warning · …`. */
function shownCounts(description: string | boolean | undefined): { errors: number; warnings: number } {
  const text = typeof description === 'string' ? description : '';
  const errors = /(\d+) errors? ·|(\d+) errors?, /.exec(text);
  const warnings = /(\d+) warnings? ·/.exec(text);
  return { errors: errors ? Number(errors[1] ?? errors[2]) : 0, warnings: warnings ? Number(warnings[1]) : 0 };
}

suite('skills view', () => {
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(workspaceUri('skills/hinted'), { recursive: true }).then(undefined, () => undefined);
  });

  test('lists every skill of skill/catalog, in its order, with descriptions as tooltips', async () => {
    const api = await extensionApi();
    await api.skills.refresh();
    const catalog = await vscode.commands.executeCommand<CatalogResult>('skill/catalog');
    const nodes = api.skills.nodes();
    assert.deepStrictEqual(
      nodes.map((node) => node.name),
      catalog.skills.map((skill) => skill.name),
    );
    for (const name of ['broken-skill', 'pdf-tools', 'closed', 'colon']) {
      assert.ok(
        nodes.some((node) => node.name === name),
        `no node for ${name}`,
      );
    }
    for (const node of nodes) {
      const skill = catalog.skills.find((candidate) => candidate.name === node.name);
      assert.ok(skill);
      assert.strictEqual(node.item.label, skill.name);
      const raw = node.item.tooltip instanceof vscode.MarkdownString ? node.item.tooltip.value : String(node.item.tooltip);
      // appendText escapes Markdown: spaces become &nbsp; and punctuation gets backslashes.
      const tooltip = raw.replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1');
      assert.ok(tooltip.includes(skill.description.slice(0, 30)), `tooltip of ${node.name}: ${tooltip}`);
      // The evals action shows only where the skill folder has evals/triggers.json.
      assert.strictEqual(node.item.contextValue, node.name === 'pdf-tools' ? 'skill.evals' : 'skill', node.name);
    }
  });

  test('a new skill appears by itself; the counts of each node are the errors and warnings VS Code holds for its SKILL.md, hints excluded', async () => {
    const api = await extensionApi();
    // A description without "Use when": description-trigger, a hint, which the Problems panel does not count.
    const hinted = workspaceUri('skills/hinted/SKILL.md');
    await vscode.workspace.fs.writeFile(
      hinted,
      Buffer.from('---\nname: hinted\ndescription: Formats dates in reports.\n---\n# Hinted\n\nFormats dates.\n'),
    );
    // Opened at once: the server indexes an open file from its buffer, whenever the file watcher
    // gets round to the new file.
    await vscode.window.showTextDocument(hinted, { preview: false });
    await waitFor('the Skills view to list the new skill', () => api.skills.nodes().some((node) => node.name === 'hinted'), 20_000);
    await waitFor('the description-trigger hint of hinted/SKILL.md', () =>
      vscode.languages
        .getDiagnostics(hinted)
        .some(
          (d) =>
            d.severity === vscode.DiagnosticSeverity.Hint && String(typeof d.code === 'object' ? d.code.value : d.code) === 'description-trigger',
        ),
    );
    let withHint = 0;
    let withProblems = 0;
    for (const node of api.skills.nodes()) {
      const uri = vscode.Uri.parse(node.uri);
      const expected = problems(uri);
      assert.deepStrictEqual(node.counts, { errors: expected.errors, warnings: expected.warnings }, node.name);
      assert.deepStrictEqual(
        shownCounts(node.item.description),
        { errors: expected.errors, warnings: expected.warnings },
        `${node.name}: ${String(node.item.description)}`,
      );
      if (expected.others > 0) {
        withHint += 1;
      }
      if (expected.errors + expected.warnings > 0) {
        withProblems += 1;
      }
    }
    assert.ok(withHint > 0, 'no skill has a hint or information finding, so the test proves nothing about them');
    assert.ok(withProblems > 0, 'no skill has an error or warning');
    const node = api.skills.nodes().find((candidate) => candidate.name === 'hinted');
    assert.ok(node);
    assert.deepStrictEqual(node.counts, { errors: 0, warnings: 0 });
    assert.ok(!/error|warning/.test(String(node.item.description)), String(node.item.description));

    // An edit that adds a warning (an unknown field) shows in the node as the Problems panel has it.
    const editor = vscode.window.activeTextEditor;
    assert.strictEqual(editor?.document.uri.toString(), hinted.toString());
    await editor.edit((edit) => edit.insert(new vscode.Position(3, 0), 'colour: blue\n'));
    await waitFor('the new finding in the node', () => {
      const now = api.skills.nodes().find((candidate) => candidate.name === 'hinted');
      const expected = problems(hinted);
      return (
        now &&
        expected.errors + expected.warnings > 0 &&
        now.counts.errors === expected.errors &&
        now.counts.warnings === expected.warnings &&
        shownCounts(now.item.description).errors === expected.errors &&
        shownCounts(now.item.description).warnings === expected.warnings
      );
    });
  });

  test('clicking a node opens its SKILL.md', async () => {
    const api = await extensionApi();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const node = api.skills.nodes().find((candidate) => candidate.name === 'pdf-tools');
    assert.ok(node?.item.command, 'the pdf-tools node has no command');
    await vscode.commands.executeCommand(node.item.command.command, ...(node.item.command.arguments ?? []));
    const expected = workspaceUri('skills/pdf-tools/SKILL.md').toString();
    await waitFor('the SKILL.md to be the active editor', () => vscode.window.activeTextEditor?.document.uri.toString() === expected);
  });

  test('Load into Chat opens the agent panel with a prompt naming the skill, not sent', async () => {
    const api = await extensionApi();
    const before = api.agent.transcript().length;
    const catalog = await vscode.commands.executeCommand<CatalogResult>('skill/catalog');
    const skill = catalog.skills.find((candidate) => candidate.name === 'pdf-tools');
    assert.ok(skill);
    await vscode.commands.executeCommand('skillLsp.skills.loadIntoChat', { skill, uri: vscode.Uri.parse(skill.uri), hasEvals: true });
    const draft = await waitFor('the panel to report its prefilled prompt', () => api.agent.draft());
    assert.match(draft, /'pdf-tools'/);
    assert.strictEqual(api.agent.transcript().length, before, 'Load into Chat sent a prompt');
  });

  test('Rename puts the cursor on the name value and starts the rename there', async () => {
    const catalog = await vscode.commands.executeCommand<CatalogResult>('skill/catalog');
    const skill = catalog.skills.find((candidate) => candidate.name === 'pdf-tools');
    assert.ok(skill);
    const position = await vscode.commands.executeCommand<vscode.Position>('skillLsp.skills.rename', {
      skill,
      uri: vscode.Uri.parse(skill.uri),
      hasEvals: true,
    });
    assert.ok(position, 'no position');
    assert.deepStrictEqual([position.line, position.character], [1, 'name: '.length]);
    const editor = vscode.window.activeTextEditor;
    assert.strictEqual(editor?.document.uri.toString(), vscode.Uri.parse(skill.uri).toString());
    assert.ok(editor.selection.active.isEqual(position));
    // The server agrees there is a name to rename at that position.
    const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit>(
      'vscode.executeDocumentRenameProvider',
      editor.document.uri,
      position,
      'pdf-kit',
    );
    assert.ok(edit && edit.size > 0, 'the server offers no rename at the name value');
    await vscode.commands.executeCommand('cancelRenameInput');
  });

  test('the language status item shows the version with its commit and the number of skills', async () => {
    const api = await extensionApi();
    const server = vscode.workspace.getConfiguration('skillLsp').get<string>('server.path') as string;
    const build = execFileSync(server, ['--version'], { encoding: 'utf8' }).split('\n')[0].trim();
    assert.match(build, /^skill-lsp \S+ \([0-9a-f]{7,}\)/, `--version printed ${build}`);
    let count = 0;
    const status = await waitFor('the status item to show the skill count', async () => {
      count = (await vscode.commands.executeCommand<CatalogResult>('skill/catalog')).skills.length;
      const now = api.status();
      return now.text.includes(`${count} skill`) ? now : undefined;
    });
    assert.ok(status.text.startsWith(build), `status text: ${status.text}`);
    assert.ok(status.text.includes(`${count} skills`), `status text: ${status.text}`);
    assert.ok(status.detail?.includes(`${count} skills indexed`), `status detail: ${status.detail}`);
  });

  test('Open Settings opens skillLsp.server.path in the scope where the server runs', async () => {
    const api = await extensionApi();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const command = await api.openServerPathSetting();
    console.log(`Open Settings: remoteName ${JSON.stringify(vscode.env.remoteName)}, command ${command}`);
    const available = await vscode.commands.getCommands(true);
    assert.ok(available.includes(command), `${command} does not exist`);
    // code-server is a remote window: the Remote tab, where the CI sets the path.
    if (vscode.env.remoteName) {
      assert.strictEqual(command, 'workbench.action.openRemoteSettings', `remoteName ${vscode.env.remoteName}`);
    } else {
      assert.strictEqual(command, 'workbench.action.openSettings');
    }
    await waitFor('the Settings editor to open', () => /settings/i.test(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? ''));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a skill only a Claude Code plugin provides is listed under its Claude Code name, and the hover on its name says so', async () => {
    const api = await extensionApi();
    await api.skills.refresh();
    const catalog = await vscode.commands.executeCommand<CatalogResult>('skill/catalog');
    assert.deepStrictEqual(
      (catalog.plugins ?? []).map((plugin) => [plugin.name, plugin.skills.map((skill) => skill.claudeCodeName)]),
      [['notes', ['notes:tidy-notes']]],
    );
    // Not one of the agent's skills: after them, under the name Claude Code lists it by.
    assert.ok(!api.skills.nodes().some((node) => node.name.includes('tidy-notes')));
    const [node] = api.skills.pluginNodes();
    assert.ok(node, 'no node for the plugin skill');
    assert.strictEqual(node.item.label, 'notes:tidy-notes');
    assert.strictEqual(node.uri, workspaceUri('plugins/notes/skills/tidy-notes/SKILL.md').toString());
    // Open only: no agent loads it, so neither Load into Chat nor evals nor Rename.
    assert.strictEqual(node.item.contextValue, 'pluginSkill');
    const raw = node.item.tooltip instanceof vscode.MarkdownString ? node.item.tooltip.value : String(node.item.tooltip);
    const tooltip = raw.replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1');
    assert.ok(
      tooltip.includes('Claude Code lists it as notes:tidy-notes once the plugin notes is installed (claude plugin install notes@fixture-market)'),
      tooltip,
    );
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(node.uri));
    await vscode.window.showTextDocument(document);
    const hovers = await waitFor("a hover on the plugin skill's name", async () => {
      const found = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, new vscode.Position(1, 2));
      return found.length > 0 ? found : undefined;
    });
    const markdown = hovers
      .flatMap((hover) => hover.contents)
      .map((content) => (typeof content === 'string' ? content : content.value))
      .join('\n');
    assert.ok(
      markdown.includes('listed as `notes:tidy-notes`, once the plugin `notes` from the marketplace `fixture-market` is installed'),
      markdown,
    );
    // The view beside the editor, the hover open on `name`.
    await vscode.commands.executeCommand('skillLsp.skills.focus');
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(new vscode.Position(1, 2), new vscode.Position(1, 2));
    await vscode.commands.executeCommand('editor.action.showHover');
    await screenshot('plugin-skill-in-skills-view-and-hover');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('beside the Problems panel, every node counts what the panel lists for its SKILL.md', async () => {
    const api = await extensionApi();
    await vscode.commands.executeCommand('workbench.files.action.collapseExplorerFolders');
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    await vscode.commands.executeCommand('skillLsp.skills.focus');
    await api.skills.refresh();
    for (const node of api.skills.nodes()) {
      const expected = problems(vscode.Uri.parse(node.uri));
      assert.deepStrictEqual(shownCounts(node.item.description), { errors: expected.errors, warnings: expected.warnings }, node.name);
    }
    // Let the side bar settle on the view's size before the photo.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await screenshot('skills-view-and-problems');
  });
});
