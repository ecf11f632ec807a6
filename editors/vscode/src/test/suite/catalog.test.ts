import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as vscode from 'vscode';
import type { CatalogResult } from '../../protocol';
import { waitFor, workspaceUri } from './helpers';

suite('catalog', () => {
  test('Show Skill Catalog opens a read-only plain-text document whose text is exactly the prompt the model sees', async () => {
    const document = await vscode.commands.executeCommand<vscode.TextDocument>('skillLsp.showCatalog');
    assert.ok(document, 'the command returned no document');
    assert.strictEqual(document.uri.scheme, 'skill-lsp');
    assert.strictEqual(document.languageId, 'plaintext');
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.toString(), document.uri.toString());
    const text = document.getText();
    // Byte for byte what the server's skill/catalog returns as the prompt.
    const catalog = await vscode.commands.executeCommand<CatalogResult>('skill/catalog');
    assert.strictEqual(text, catalog.prompt);
    // The CLI prints the same catalog from the saved files (the earlier suites saved their fixes).
    const folder = workspaceUri('.').fsPath;
    const server = vscode.workspace.getConfiguration('skillLsp').get<string>('server.path') as string;
    const cli = execFileSync(server, ['catalog', folder], { encoding: 'utf8' }).replace(/\n$/, '');
    assert.strictEqual(text.replace(/\n$/, ''), cli);
    for (const line of [
      '- broken-skill: Converts CSV files to JSON. Use when the user has a CSV file.',
      '- pdf-tools: Extract text and tables from PDF files. Use when the user asks to read or summarise a PDF.',
      // Fix All quoted fixme's description and left its name: renaming it would change the
      // name clients list the skill under.
      '- fix-me: Tidies notes: headings and lists. Use when the user wants notes cleaned up.',
    ]) {
      assert.ok(text.split('\n').includes(line), `missing catalog line ${line}`);
    }
    // Read-only: typing into its editor changes nothing.
    await vscode.commands.executeCommand('type', { text: 'typed' });
    assert.strictEqual(document.getText(), catalog.prompt);
    assert.strictEqual(document.isDirty, false);
  });

  test('Open Skill… with a name opens that SKILL.md', async () => {
    const uri = await vscode.commands.executeCommand<vscode.Uri>('skillLsp.openSkill', 'pdf-tools');
    const expected = workspaceUri('skills/pdf-tools/SKILL.md').toString();
    assert.strictEqual(uri?.toString(), expected);
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.toString(), expected);
  });

  test('Open Skill… through its quick pick opens the picked skill', async () => {
    const catalog = await vscode.commands.executeCommand<CatalogResult>('skill/catalog');
    const first = catalog.skills[0];
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    let settled = false;
    const opening = vscode.commands.executeCommand<vscode.Uri>('skillLsp.openSkill');
    void opening.then(() => (settled = true));
    // The quick pick takes a moment to show; accepting before that does nothing, so keep trying.
    await waitFor('the quick pick to accept its first item', async () => {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await new Promise((resolve) => setTimeout(resolve, 150));
      return settled;
    });
    const uri = await opening;
    assert.strictEqual(uri?.toString(), vscode.Uri.parse(first.uri).toString());
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.toString(), vscode.Uri.parse(first.uri).toString());
  });
});
