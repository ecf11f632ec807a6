import * as assert from 'assert';
import * as vscode from 'vscode';
import { describe, open, ruleOf, skillDiagnostics, waitFor, workspaceUri } from './helpers';

const BROKEN = 'skills/broken/SKILL.md';
const BROKEN_FINDINGS = ['name-mismatch@1:6-1:18', 'unknown-field@3:0-3:6'];

suite('diagnostics', () => {
  test('a broken SKILL.md gets each finding with its rule id and exact range', async () => {
    const { document } = await open(BROKEN);
    const found = await waitFor('skill-lsp diagnostics on broken/SKILL.md', () => {
      const described = describe(skillDiagnostics(document.uri));
      return described.length >= BROKEN_FINDINGS.length ? described : undefined;
    });
    assert.deepStrictEqual(found, BROKEN_FINDINGS);
    const byRule = new Map(skillDiagnostics(document.uri).map((d) => [ruleOf(d), d]));
    const mismatch = byRule.get('name-mismatch');
    assert.ok(mismatch);
    // A collection's skill: only skills-ref, which nobody chose, objects to the name.
    assert.strictEqual(mismatch.severity, vscode.DiagnosticSeverity.Warning);
    assert.match(mismatch.message, /broken/);
    assert.match(mismatch.message, /only a validator objects/);
    assert.strictEqual(document.getText(mismatch.range), 'broken-skill');
    assert.strictEqual(document.getText(byRule.get('unknown-field')?.range), 'colour');
    const code = mismatch.code;
    assert.ok(typeof code === 'object' && code !== null && /rules\.md/.test(code.target.toString()), 'the rule id links to its documentation');
  });

  test('a SKILL.md that was never opened gets findings from the workspace pull, and follows disk changes', async () => {
    const uri = workspaceUri('skills/closed/SKILL.md');
    assert.ok(!vscode.workspace.textDocuments.some((document) => document.uri.toString() === uri.toString()));
    await waitFor('workspace diagnostics for closed/SKILL.md', () => describe(skillDiagnostics(uri)).join() === 'unknown-field@4:0-4:10');
    // Through the file watcher (didChangeWatchedFiles), not through an editor.
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text.replace('unknownkey: 1\n', '')));
    await waitFor('the findings of closed/SKILL.md to clear after the disk change', () => skillDiagnostics(uri).length === 0);
  });

  test("Codex's agents/openai.yaml gets its findings and the quick fix", async () => {
    const uri = workspaceUri('skills/pdf-tools/agents/openai.yaml');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode('policy:\n  allow_implicit_invocation: no\n'));
    try {
      const document = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(document, { preview: false });
      const [finding] = await waitFor('openai-yaml-invalid on agents/openai.yaml', () => {
        const diagnostics = skillDiagnostics(uri);
        return diagnostics.length > 0 ? diagnostics : undefined;
      });
      assert.deepStrictEqual(describe([finding]), ['openai-yaml-invalid@1:29-1:31']);
      assert.match(finding.message, /Codex ignores the whole agents\/openai\.yaml/);
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, finding.range);
      const fix = actions.find((action) => action.title === "Write 'false'");
      assert.ok(fix?.edit, `no fix among ${JSON.stringify(actions.map((a) => a.title))}`);
      assert.ok(await vscode.workspace.applyEdit(fix.edit));
      assert.strictEqual(document.lineAt(1).text, '  allow_implicit_invocation: false');
      await waitFor(
        'the explicit-only information after the fix',
        () => describe(skillDiagnostics(uri)).join() === 'openai-yaml-explicit-only@1:29-1:34',
      );
      await vscode.commands.executeCommand('workbench.action.files.revert');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(uri, '..'), { recursive: true });
    }
  });

  test('a .claude-plugin/plugin.json gets the findings claude plugin validate would give', async () => {
    const { document } = await open('plugin/.claude-plugin/plugin.json');
    assert.strictEqual(document.languageId, 'json');
    const found = await waitFor('skill-lsp diagnostics on plugin.json', () => {
      const described = describe(skillDiagnostics(document.uri));
      return described.length >= 2 ? described : undefined;
    });
    // `"version": 1` is not a string; `./skills/missing` is not in the plugin.
    assert.deepStrictEqual(found, ['manifest-path@3:12-3:30', 'manifest-schema@2:13-2:14']);
  });

  test('a good SKILL.md gets none', async () => {
    const { document } = await open('skills/pdf-tools/SKILL.md');
    // The broken file proved the server answers; give this one's pull time to land too.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.deepStrictEqual(describe(skillDiagnostics(document.uri)), []);
  });

  test('a quick fix from the code action provider quotes the value and the finding goes away', async () => {
    const { document } = await open('skills/colon/SKILL.md');
    const [finding] = await waitFor('unquoted-colon on colon/SKILL.md', () => {
      const diagnostics = skillDiagnostics(document.uri);
      return diagnostics.length > 0 ? diagnostics : undefined;
    });
    assert.deepStrictEqual(describe([finding]), ['unquoted-colon@2:26-2:27']);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      document.uri,
      finding.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const fix = actions.find((action) => /^Quote/.test(action.title));
    assert.ok(fix, `no quick fix among ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.strictEqual(fix.kind?.value, vscode.CodeActionKind.QuickFix.value);
    assert.ok(fix.edit, JSON.stringify(fix));
    assert.ok(await vscode.workspace.applyEdit(fix.edit as vscode.WorkspaceEdit));
    assert.strictEqual(document.lineAt(2).text, 'description: "Converts data: CSV to JSON. Use when the user has a CSV file."');
    await waitFor('the finding to go away', () => skillDiagnostics(document.uri).length === 0);
    assert.ok(await document.save());
  });

  test('turning a rule off in settings reaches the running server', async () => {
    const config = vscode.workspace.getConfiguration('skillLsp');
    const uri = workspaceUri(BROKEN);
    await open(BROKEN);
    try {
      await config.update('rules', { 'unknown-field': 'off' }, vscode.ConfigurationTarget.Global);
      await waitFor('unknown-field to be switched off', () => {
        const described = describe(skillDiagnostics(uri));
        return described.length === 1 && described[0] === BROKEN_FINDINGS[0];
      });
    } finally {
      await config.update('rules', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor('unknown-field to come back', () => describe(skillDiagnostics(uri)).length === 2);
  });

  test('a rule set in the workspace settings re-grades a SKILL.md that was never opened, both ways', async () => {
    const config = vscode.workspace.getConfiguration('skillLsp');
    const uri = workspaceUri('skills/fixme/SKILL.md');
    assert.ok(!vscode.workspace.textDocuments.some((document) => document.uri.toString() === uri.toString()));
    const severity = () => skillDiagnostics(uri).find((d) => ruleOf(d) === 'unquoted-colon')?.severity;
    await waitFor('unquoted-colon on fixme/SKILL.md from the workspace pull', () => severity() === vscode.DiagnosticSeverity.Error);
    try {
      await config.update('rules', { 'unquoted-colon': 'warning' }, vscode.ConfigurationTarget.Workspace);
      await waitFor('unquoted-colon to become a warning', () => severity() === vscode.DiagnosticSeverity.Warning, 10_000);
    } finally {
      await config.update('rules', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await waitFor('unquoted-colon to be an error again', () => severity() === vscode.DiagnosticSeverity.Error, 10_000);
  });
});
