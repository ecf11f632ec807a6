import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as vscode from 'vscode';
import { describe, extensionApi, open, skillDiagnostics, waitFor } from './helpers';

suite('editing', () => {
  test('completion on an empty frontmatter line offers the missing keys', async () => {
    const editor = await open('skills/pdf-tools/SKILL.md');
    const { document } = editor;
    try {
      // The frontmatter is lines 0-3; make an empty line 3 before the closing ---.
      assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(3, 0), '\n')));
      const list = await vscode.commands.executeCommand<vscode.CompletionList>(
        'vscode.executeCompletionItemProvider',
        document.uri,
        new vscode.Position(3, 0),
      );
      const labels = list.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
      for (const key of ['license', 'allowed-tools', 'compatibility', 'metadata']) {
        assert.ok(labels.includes(key), `${key} is not offered: ${JSON.stringify(labels)}`);
      }
      for (const present of ['name', 'description']) {
        assert.ok(!labels.includes(present), `${present} is already there but offered again`);
      }
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    assert.strictEqual(document.isDirty, false);
  });

  test('hover on a field shows its meaning and length', async () => {
    const { document } = await open('skills/pdf-tools/SKILL.md');
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, new vscode.Position(2, 3));
    const text = hovers
      .flatMap((hover) => hover.contents)
      .map((content) => (typeof content === 'string' ? content : content.value))
      .join('\n');
    assert.match(text, /1024/, text);
  });

  test('hover on name says what each client does, as skill-lsp explain says', async () => {
    const { document } = await open('skills/pdf-tools/SKILL.md');
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, new vscode.Position(1, 2));
    const markdown = hovers
      .flatMap((hover) => hover.contents)
      .map((content) => (typeof content === 'string' ? content : content.value))
      .join('\n');
    const state = await (await extensionApi()).whenIdle();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath as string;
    const explained = execFileSync(state.serverPath as string, ['explain', 'pdf-tools', '--root', folder], { encoding: 'utf8' });
    // The same words: the hover's Markdown without its marks ends with the command's answer.
    const answer = explained.replace(/^[^\n]*\n\n/, '').trimEnd();
    const plain = markdown
      .replace(/\*\*/g, '')
      .replace(/`/g, '')
      .replace(/ {2}\n/g, '\n');
    assert.ok(plain.endsWith(answer), `hover:\n${plain}\nexplain:\n${answer}`);
    assert.match(answer, /^Claude Code: /, answer);
  });

  test('document symbols list the frontmatter keys and headings', async () => {
    const { document } = await open('skills/pdf-tools/SKILL.md');
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', document.uri);
    const names = (symbols ?? []).flatMap((symbol) => [symbol.name, ...symbol.children.map((child) => child.name)]);
    for (const name of ['name', 'description', 'PDF tools']) {
      assert.ok(names.includes(name), `${name} missing from ${JSON.stringify(names)}`);
    }
  });

  test('Fix All applies every safe fix of the active SKILL.md', async () => {
    const { document } = await open('skills/fixme/SKILL.md');
    await waitFor('unquoted-colon on fixme/SKILL.md', () => describe(skillDiagnostics(document.uri)).includes('unquoted-colon@2:25-2:26'));
    const changed = await vscode.commands.executeCommand<boolean>('skillLsp.fixAll');
    assert.strictEqual(changed, true);
    // Quoting the description lets YAML parse, which uncovers the name mismatch. Its rename would
    // change the name clients list the skill under, so Fix All leaves it to the quick fix.
    assert.strictEqual(document.lineAt(1).text, 'name: fix-me');
    assert.strictEqual(document.lineAt(2).text, 'description: "Tidies notes: headings and lists. Use when the user wants notes cleaned up."');
    await waitFor(
      'only the name mismatch left on fixme/SKILL.md',
      () => describe(skillDiagnostics(document.uri)).join() === 'name-mismatch@1:6-1:12',
    );
    assert.ok(await document.save());
    assert.strictEqual(await vscode.commands.executeCommand<boolean>('skillLsp.fixAll'), false, 'a clean file has nothing to fix');
  });
});
