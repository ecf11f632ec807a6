// Trigger evals in the editor: the server's code lens (shown because the extension declares
// experimental.skillLsp.runTriggerEvals), the Run Trigger Evals command with Cancel, the
// results panel, the errors, the diagnostics of a broken evals/triggers.json, and the "Improve
// the description" code action with its diff.
//
// Runs after the agent suite against the same scripted model (test/fixtures/scripted-model.json):
// its entries 5 to 7 hang (the cancelled run: one run of each of the three queries), entries 8
// to 16 all load `fix-me` (the real run: three runs of each query), entry 17 is the rewritten
// description and 18 to 20 load `pdf-tools` (the improvement's one run of each query), and 21 to
// 23 answer in text (a run under `skillLsp.evals.target`). The runs go out four at a time, so
// which reply answers which query is not fixed; identical replies keep the outcome so.

import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { EvalOutcome } from '../../evals';
import type { ImproveOutcome } from '../../improve';
import { env, extensionApi, open, ruleOf, screenshot, waitFor, workspaceUri } from './helpers';

const SKILL = 'skills/pdf-tools/SKILL.md';
const EVAL_SET = 'skills/pdf-tools/evals/triggers.json';
const QUERIES = ['Summarise the attached report.pdf for me', 'Pull the tables out of invoice.pdf', 'Tidy up the headings in my meeting notes'];

function recordedCount(): number {
  const file = env('SKILL_LSP_E2E_RECORD');
  if (!fs.existsSync(file)) {
    return 0;
  }
  return fs.readFileSync(file, 'utf8').split('\n').length - 1;
}

function runEvals(argument?: unknown, options?: { runs?: number; noCache?: boolean }): Thenable<EvalOutcome> {
  return vscode.commands.executeCommand<EvalOutcome>('skillLsp.runTriggerEvals', argument, options);
}

async function lenses(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  const all = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
  return all.filter((lens) => lens.command?.command === 'skillLsp.runTriggerEvals');
}

suite('trigger evals', () => {
  let key: string;

  suiteSetup(async () => {
    const api = await extensionApi();
    // The agent suite stored its planted key; alone (SKILL_LSP_E2E_GREP), this suite plants one.
    const keyFile = path.join(env('SKILL_LSP_E2E_OUT'), 'planted-key.txt');
    if (fs.existsSync(keyFile)) {
      key = fs.readFileSync(keyFile, 'utf8');
    } else {
      key = `planted-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;
      fs.writeFileSync(keyFile, key);
      assert.strictEqual(await vscode.commands.executeCommand('skillLsp.setApiKey', key), true);
    }
    assert.strictEqual((await api.whenIdle()).status, 'running');
  });

  test('a SKILL.md with evals/triggers.json gets the "Run trigger evals" lens on description', async () => {
    const { document } = await open(SKILL);
    const [lens] = await waitFor('the trigger-evals code lens', async () => {
      const found = await lenses(document.uri);
      return found.length ? found : undefined;
    });
    assert.strictEqual(lens.command?.title, 'Run trigger evals');
    assert.strictEqual(lens.range.start.line, 2, 'on the description: line');
    assert.deepStrictEqual(lens.command?.arguments, [{ skill: 'pdf-tools', uri: document.uri.toString() }]);
    // A skill without an eval set has none.
    const other = await open('skills/colon/SKILL.md');
    assert.deepStrictEqual(await lenses(other.document.uri), []);
  });

  test('Cancel Trigger Evals stops a run whose model never answers, promptly', async () => {
    const api = await extensionApi();
    const before = recordedCount();
    const run = runEvals({ skill: 'pdf-tools', uri: workspaceUri(SKILL).toString() }, { runs: 1, noCache: true });
    // All three hanging calls must be in before the cancel, or a later run would get one.
    await waitFor('the three runs to reach the model', () => recordedCount() >= before + 3);
    assert.strictEqual(api.evals.running(), true);
    const started = Date.now();
    await vscode.commands.executeCommand('skillLsp.cancelTriggerEvals');
    const outcome = await run;
    const elapsed = Date.now() - started;
    assert.strictEqual(outcome.state, 'cancelled', JSON.stringify(outcome));
    assert.ok(elapsed < 2500, `cancelling took ${elapsed} ms`);
    await waitFor('the panel to show the cancellation', () => api.evals.rendered()?.includes('Cancelled.'));
  });

  test('the lens runs the evals: results arrive one by one and the panel shows each query', async () => {
    const api = await extensionApi();
    const { document } = await open(SKILL);
    const [lens] = await lenses(document.uri);
    const before = recordedCount();
    // Exactly what clicking the lens does.
    const outcome = await runEvals(...(lens.command?.arguments ?? []));
    assert.strictEqual(outcome.state, 'done', JSON.stringify(outcome));
    assert.strictEqual(outcome.live.length, 3, 'one skill/evalResult per query while it ran');
    const report = outcome.report;
    assert.ok(report);
    assert.strictEqual(report.skill_name, 'pdf-tools');
    assert.deepStrictEqual(
      report.results.map((result) => [result.query, result.should_trigger, result.triggers, result.runs, result.pass, result.loaded_instead]),
      [
        [QUERIES[0], true, 0, 3, false, { 'fix-me': 3 }],
        [QUERIES[1], true, 0, 3, false, { 'fix-me': 3 }],
        // Not this skill, so a pass; the panel still says which skill the model chose.
        [QUERIES[2], false, 0, 3, true, { 'fix-me': 3 }],
      ],
    );
    assert.deepStrictEqual([report.summary.passed, report.summary.total], [1, 3]);
    await waitFor('the nine runs to be recorded', () => recordedCount() >= before + 9);
    assert.strictEqual(recordedCount(), before + 9);

    // What the user sees: the summary line and, per query, expected, rate, verdict, loaded instead.
    const rendered = await waitFor('the panel to draw the report', () => {
      const text = api.evals.rendered();
      return text?.includes('1/3 passed — 2 missed, 0 wrongly loaded · 3 undecided: run more') ? text : undefined;
    });
    assert.match(rendered, /Trigger evals: pdf-tools/);
    assert.match(rendered, /Extract text and tables from PDF files/);
    const lines = rendered.split('\n');
    const row = (query: string) => lines.find((line) => line.includes(query)) ?? '';
    // Three runs cannot tell 0/3 from a rate near one half (the 95 % interval reaches 0.56):
    // each verdict is the server's, undecided.
    assert.match(row(QUERIES[0]), /should trigger\s+0\/3\s+fail\?: missed\s+fix-me \(3\/3\)/, rendered);
    assert.match(row(QUERIES[1]), /should trigger\s+0\/3\s+fail\?: missed\s+fix-me \(3\/3\)/, rendered);
    assert.match(row(QUERIES[2]), /should not trigger\s+0\/3\s+pass\?\s+fix-me \(3\/3\)/, rendered);
    assert.match(rendered, /model scripted-model/);

    // The server re-titles the lens and puts the summary on the description.
    await waitFor('the re-titled lens', async () => (await lenses(document.uri))[0]?.command?.title === 'Trigger evals: 1/3 — 2 missed, 3 undecided');
    const diagnostic = await waitFor('the trigger-evals diagnostic', () =>
      vscode.languages.getDiagnostics(document.uri).find((d) => ruleOf(d) === 'trigger-evals'),
    );
    assert.strictEqual(diagnostic.severity, vscode.DiagnosticSeverity.Information);
    assert.match(diagnostic.message, /^Trigger evals: 1\/3 passed/);
  });

  test('from the palette on the active SKILL.md, a second run comes from the cache', async () => {
    await open(SKILL);
    const before = recordedCount();
    const outcome = await runEvals();
    assert.strictEqual(outcome.state, 'done', JSON.stringify(outcome));
    assert.deepStrictEqual(
      outcome.report?.results.map((result) => result.cached_runs),
      [3, 3, 3],
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.strictEqual(recordedCount(), before, 'no model call');
  });

  test('a run that may send more requests than skillLsp.evals.confirmAboveRequests asks first; Cancel sends nothing', async () => {
    await open(SKILL);
    const config = vscode.workspace.getConfiguration('skillLsp');
    await config.update('evals.confirmAboveRequests', 1, vscode.ConfigurationTarget.Workspace);
    try {
      const before = recordedCount();
      let outcome: EvalOutcome | undefined;
      const pending = runEvals(undefined, { noCache: true }).then((value) => (outcome = value));
      // The question is a quick pick whose first item is Cancel: take it as a hasty Enter would,
      // once the pick is up (accepting before it opens does nothing).
      await waitFor('the question to be answered', async () => {
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        await new Promise((resolve) => setTimeout(resolve, 100));
        return outcome;
      });
      await pending;
      assert.strictEqual(outcome?.state, 'cancelled', JSON.stringify(outcome));
      assert.match(
        outcome?.error ?? '',
        /^Not run: up to 27 model requests \(9 runs, 0 cached\), about [\d,]+ to [\d,]+ input tokens, above skillLsp\.evals\.confirmAboveRequests \(1\)\.$/,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.strictEqual(recordedCount(), before, 'no model call');
    } finally {
      await config.update('evals.confirmAboveRequests', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  test('a skill without an eval set gets a clear error, in the panel too, without the key', async () => {
    const api = await extensionApi();
    const outcome = await runEvals({ uri: workspaceUri('skills/closed/SKILL.md').toString() });
    assert.strictEqual(outcome.state, 'error', JSON.stringify(outcome));
    assert.match(
      outcome.error ?? '',
      /skill 'closed' has no eval set \(trigger evals: looked for evals\/triggers\.json, evals\/eval_queries\.json, /,
    );
    const rendered = await waitFor('the panel to show the error', () => {
      const text = api.evals.rendered();
      return text?.includes('has no eval set') ? text : undefined;
    });
    assert.ok(!rendered.includes(key) && !(outcome.error ?? '').includes(key));
  });

  test('a broken evals/triggers.json gets an eval-set diagnostic while open', async () => {
    const editor = await open(EVAL_SET);
    const { document } = editor;
    assert.strictEqual(document.languageId, 'json');
    const evalSet = () => vscode.languages.getDiagnostics(document.uri).filter((d) => ruleOf(d) === 'eval-set');
    try {
      const at = document.getText().indexOf('"should_trigger": false');
      assert.ok(at > 0);
      const start = document.positionAt(at + '"should_trigger": '.length);
      assert.ok(await editor.edit((edit) => edit.replace(new vscode.Range(start, start.translate(0, 5)), '"no"')));
      const [diagnostic] = await waitFor('the eval-set diagnostic', () => {
        const found = evalSet();
        return found.length ? found : undefined;
      });
      assert.strictEqual(diagnostic.severity, vscode.DiagnosticSeverity.Error);
      assert.strictEqual(diagnostic.range.start.line, start.line);
      assert.match(diagnostic.message, /expected a boolean/);
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    assert.strictEqual(document.isDirty, false);
    await waitFor('the diagnostic to go once the file is whole again', () => evalSet().length === 0);
  });

  test('the improve code action on description runs the loop, shows a diff and applies the new description', async () => {
    const editor = await open(SKILL);
    const { document } = editor;
    const original = document.getText();
    const line = original.split('\n').findIndex((text) => text.startsWith('description:'));
    const at = new vscode.Range(line, 14, line, 14);
    const action = await waitFor('the improve code action', async () => {
      const all = (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', document.uri, at)) ?? [];
      return all.find((found) => found.title === 'Improve the description with the trigger evals…');
    });
    assert.strictEqual(action.kind?.value, 'refactor.rewrite');
    assert.strictEqual(action.command?.command, 'skillLsp.improveDescription');
    const before = recordedCount();
    let outcome: ImproveOutcome | undefined;
    // One run per query (the file's description is measured from the cache) and one rewrite.
    const pending = Promise.resolve(
      vscode.commands.executeCommand<ImproveOutcome>(action.command.command, ...(action.command.arguments ?? []), { runs: 1, iterations: 1 }),
    ).then((value) => (outcome = value));
    try {
      const diff = await waitFor(
        'the diff of the improved description',
        () =>
          vscode.window.tabGroups.all
            .flatMap((group) => group.tabs)
            .find((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === 'skill-lsp-proposal'),
        30_000,
      );
      const input = diff.input as vscode.TabInputTextDiff;
      assert.strictEqual(input.original.toString(), document.uri.toString());
      const proposed = await vscode.workspace.openTextDocument(input.modified);
      const better = 'Extract text and tables from PDF files and summarise them. Use when the user mentions a PDF, a report or an invoice.';
      assert.strictEqual(proposed.getText(), original.replace(/^description: .*$/m, `description: ${better}`));
      await screenshot('improve-description-diff');
      // The question is a quick pick whose first item applies: take it once it is up.
      await waitFor('the question to be answered', async () => {
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        await new Promise((resolve) => setTimeout(resolve, 100));
        return outcome;
      });
      await pending;
      assert.strictEqual(outcome?.state, 'applied', JSON.stringify(outcome));
      assert.match(outcome?.result?.summary ?? '', /^rewrite 1 passes 1\/1 test and 1\/2 train queries \(the file's description: 0\/1 and 1\/2\)$/);
      assert.strictEqual(document.getText(), proposed.getText());
      assert.ok(document.isDirty, 'applied to the buffer, not saved');
      // The rewrite and one run of each query; the file's own runs came from the cache.
      assert.strictEqual(recordedCount() - before, 4);
      assert.ok(
        !vscode.window.tabGroups.all.flatMap((group) => group.tabs).some((tab) => tab.input instanceof vscode.TabInputTextDiff),
        'the diff closes once answered',
      );
    } finally {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    assert.strictEqual(document.getText(), original);
  });

  test("with skillLsp.evals.target the model is sent that client's listing, and the panel says what it did", async () => {
    const api = await extensionApi();
    await open(SKILL);
    const config = vscode.workspace.getConfiguration('skillLsp');
    await config.update('evals.target', 'claude-code', vscode.ConfigurationTarget.Workspace);
    await config.update('evals.contextWindow', 200000, vscode.ConfigurationTarget.Workspace);
    try {
      const before = recordedCount();
      const outcome = await runEvals({ skill: 'pdf-tools', uri: workspaceUri(SKILL).toString() }, { runs: 1, noCache: true });
      assert.strictEqual(outcome.state, 'done', JSON.stringify(outcome));
      // Claude Code reads .claude/skills only: this skill under skills/ is never listed to its model.
      const target = outcome.report?.target;
      assert.strictEqual(target?.client, 'claude-code', JSON.stringify(outcome.report));
      assert.strictEqual(target?.presence, 'not-read');
      assert.match(target?.note ?? '', /^Claude Code does not read this skill's root \(it reads \.claude\/skills\): the model cannot load it$/);
      await waitFor('the three runs to be recorded', () => recordedCount() >= before + 3);
      const lines = fs.readFileSync(env('SKILL_LSP_E2E_RECORD'), 'utf8').split('\n').filter(Boolean);
      for (const line of lines.slice(before)) {
        const system = String((JSON.parse(line) as { body: { system?: string } }).body.system);
        assert.ok(!system.includes('Extract text and tables from PDF files'), `the agent's own catalog was sent: ${system}`);
      }
      await waitFor('the panel to say what Claude Code did', () => api.evals.rendered()?.includes("Claude Code does not read this skill's root"));
    } finally {
      await config.update('evals.target', undefined, vscode.ConfigurationTarget.Workspace);
      await config.update('evals.contextWindow', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });
});
