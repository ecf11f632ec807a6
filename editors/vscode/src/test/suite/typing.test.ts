// A new skill typed from an empty file, one key press at a time through VS Code's own `type`
// command, as a person writes it: top down, so the closing `---` comes last and the YAML is
// broken most of the time. Hover, completion and the field diagnostics must stay alive all along.

import * as assert from 'assert';
import * as vscode from 'vscode';
import type { CatalogResult } from '../../protocol';
import { describe, ruleOf, screenshot, skillDiagnostics, waitFor, workspaceUri } from './helpers';

const FOLDER = 'skills/typed-notes';
const TYPED = [
  '---',
  'name: typed-notes',
  'description: Types notes: fast. Use when the user dictates notes.',
  'license: MIT',
  '---',
  '# Typed notes',
  '',
  'Write the notes down.',
  '',
].join('\n');

async function hoverText(uri: vscode.Uri, position: vscode.Position): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position);
  return hovers
    .flatMap((hover) => hover.contents)
    .map((content) => (typeof content === 'string' ? content : content.value))
    .join('\n');
}

function rules(uri: vscode.Uri): string[] {
  return skillDiagnostics(uri).map(ruleOf).sort();
}

suite('typing a new skill', () => {
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(workspaceUri(FOLDER), { recursive: true }).then(undefined, () => undefined);
  });

  test('from an empty file, key by key: hover, completion and field diagnostics at every step, YAML errors on the typed line', async function () {
    // About 170 key presses, each with a hover request, and three screenshots.
    this.timeout(120_000);
    const uri = workspaceUri(`${FOLDER}/SKILL.md`);
    await vscode.workspace.fs.writeFile(uri, new Uint8Array());
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
    const { document } = editor;
    await waitFor('missing-frontmatter on the empty file', () => rules(uri).includes('missing-frontmatter'));

    for (const ch of TYPED) {
      await vscode.commands.executeCommand('type', { text: ch });
      const soFar = document.getText();
      assert.ok(TYPED.startsWith(soFar), `the editor changed what was typed: ${JSON.stringify(soFar)}`);
      const line = editor.selection.active.line;
      if (soFar.includes('name: typed-notes\n')) {
        // Hover on `name` answers at every key press, whatever the YAML below it looks like.
        const hover = await hoverText(uri, new vscode.Position(1, 1));
        assert.match(hover, /64/, `after ${JSON.stringify(soFar)}: hover on name: ${hover}`);
      }
      if (soFar.endsWith('\nli')) {
        const list = await vscode.commands.executeCommand<vscode.CompletionList>(
          'vscode.executeCompletionItemProvider',
          uri,
          editor.selection.active,
        );
        const labels = list.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
        assert.ok(labels.includes('license'), `after ${JSON.stringify(soFar)}: ${JSON.stringify(labels)}`);
        await vscode.commands.executeCommand('editor.action.triggerSuggest');
        await new Promise((resolve) => setTimeout(resolve, 800));
        await screenshot('typing-completion');
        await vscode.commands.executeCommand('hideSuggestWidget');
      }
      if (soFar.endsWith('\nlicen')) {
        // The half-typed key: the error is on its line, in words; the fields above keep theirs.
        const diagnostic = await waitFor('yaml-syntax on the line being typed', () => skillDiagnostics(uri).find((d) => ruleOf(d) === 'yaml-syntax'));
        assert.strictEqual(diagnostic.range.start.line, line);
        assert.match(diagnostic.message, /'licen' has no ':' after it/);
        assert.ok(rules(uri).includes('unquoted-colon'), JSON.stringify(rules(uri)));
        await vscode.commands.executeCommand('workbench.actions.view.problems');
        await screenshot('typing-problems');
        await vscode.commands.executeCommand('workbench.action.closePanel');
        await vscode.window.showTextDocument(document, { preview: false });
        const end = editor.selection.active;
        editor.selection = new vscode.Selection(1, 2, 1, 2);
        await vscode.commands.executeCommand('editor.action.showHover');
        await new Promise((resolve) => setTimeout(resolve, 800));
        await screenshot('typing-hover');
        editor.selection = new vscode.Selection(end, end);
      }
      if (ch !== '\n') {
        continue;
      }
      // At each line's end the diagnostics have caught up: what they say then.
      if (soFar.endsWith('name: typed-notes\n')) {
        await waitFor('missing-description before the description is typed', () => {
          const now = rules(uri);
          return now.includes('missing-description') && now.includes('unterminated-frontmatter');
        });
      }
      if (soFar.endsWith('dictates notes.\n')) {
        await waitFor('unquoted-colon, and the description no longer missing', () => {
          const now = rules(uri);
          return now.includes('unquoted-colon') && !now.includes('missing-description') ? now : undefined;
        });
      }
      for (const d of skillDiagnostics(uri).filter((d) => ruleOf(d) === 'yaml-syntax')) {
        assert.ok(d.range.start.line >= line - 1, `a YAML error away from the typed line: ${describe([d])}`);
      }
    }
    assert.strictEqual(document.getText(), TYPED);
    await waitFor('only the unquoted colon left', () => JSON.stringify(rules(uri)) === '["unquoted-colon"]', 15_000);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    // Deleted, its problems leave the Problems panel and the skill leaves the catalog.
    // As the explorer's Delete does it: a workspace edit, which the server hears of at once.
    const removal = new vscode.WorkspaceEdit();
    removal.deleteFile(workspaceUri(FOLDER), { recursive: true });
    assert.ok(await vscode.workspace.applyEdit(removal));
    await waitFor('no problems left for the deleted skill', () => vscode.languages.getDiagnostics(uri).length === 0, 10_000);
    const catalog = await vscode.commands.executeCommand<CatalogResult>('skill/catalog');
    assert.ok(!catalog.skills.some((skill) => skill.name === 'typed-notes'), JSON.stringify(catalog.skills.map((skill) => skill.name)));
  });
});
