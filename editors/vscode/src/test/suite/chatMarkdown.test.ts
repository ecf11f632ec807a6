import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { AgentChat, ChatOutcome, Entry, SAVED_CHAT_KEY, SavedChat, savedChat } from '../../agent';
import type { ServerManager } from '../../client';
import type { ContrastReport } from '../../agentPanel';
import type { SkillLspApi } from '../../extension';
import { extensionApi, screenshot, waitFor, workspaceUri } from './helpers';

function ask(prompt: string, options?: { newChat?: boolean }): Thenable<ChatOutcome> {
  return vscode.commands.executeCommand<ChatOutcome>('skillLsp.askAgent', prompt, options);
}

const THEMES = { 'Default Light Modern': 'vscode-light', 'Default Dark Modern': 'vscode-dark' };

/**
 * The panel's contrast audit under Light Modern and Dark Modern; the user's theme is restored.
 * With `shot`, the window is photographed in each theme (`shot-vscode-light.png`, …).
 */
async function auditThemes(api: SkillLspApi, shot?: string): Promise<ContrastReport[]> {
  const settings = vscode.workspace.getConfiguration('workbench');
  const before = settings.inspect<string>('colorTheme')?.globalValue;
  const reports: ContrastReport[] = [];
  try {
    for (const [theme, bodyClass] of Object.entries(THEMES)) {
      await settings.update('colorTheme', theme, vscode.ConfigurationTarget.Global);
      // The page learns the theme a moment after the setting changes.
      reports.push(
        await waitFor(`the panel to draw in ${theme}`, async () => {
          const report = await api.agent.contrast();
          return report?.theme.split(' ').includes(bodyClass) ? report : undefined;
        }),
      );
      if (shot) {
        await screenshot(`${shot}-${bodyClass}`);
      }
    }
  } finally {
    await settings.update('colorTheme', before, vscode.ConfigurationTarget.Global);
  }
  return reports;
}

/** The agent panel's tab. */
function agentTab(): vscode.Tab | undefined {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .find((candidate) => candidate.input instanceof vscode.TabInputWebview && candidate.label === 'Skill Agent');
}

/** Every text of each report at 4.5:1 or more; `least` texts checked at all, so the page was drawn. */
function assertReadable(reports: ContrastReport[], least = 20): void {
  for (const report of reports) {
    assert.ok(report.checked >= least, `only ${report.checked} texts checked in ${report.theme}`);
    const lowest = report.worst[0];
    console.log(`contrast in ${report.theme}: ${report.checked} texts, lowest ${lowest?.ratio}:1 (${lowest?.element} "${lowest?.text}")`);
    const low = report.worst.filter((result) => result.ratio < 4.5);
    assert.deepStrictEqual(low, [], `texts under 4.5:1 in ${report.theme}: ${JSON.stringify(report.worst)}`);
  }
}

// The scripted model's replies from the 28th on (test/fixtures/scripted-model.json): a reply with
// a heading, a table, a numbered list, a highlighted code block, raw HTML and a javascript: link
// that must stay inert, and a very long path; one naming files; a command to approve and the
// reply after it is denied; a model that never answers.
suite('chat Markdown', () => {
  test('New chat empties the panel and the saved conversation; the empty panel reads at 4.5:1', async function () {
    this.timeout(60_000);
    const api = await extensionApi();
    await vscode.commands.executeCommand('skillLsp.openAgent');
    assert.ok(await api.agent.sendToPanel('new-chat'), 'the panel is closed');
    await waitFor('the empty panel', () => api.agent.rendered()?.startsWith('Ask anything about this workspace.'));
    assert.deepStrictEqual(api.agent.transcript(), []);
    assert.strictEqual(await api.agent.saved(), undefined);
    assertReadable(await auditThemes(api), 5);
  });

  test('a reply with a table and a numbered list is drawn as <table> and <ol>, sanitised, with highlighted code and a Copy button', async () => {
    const api = await extensionApi();
    const outcome = await ask('Which tools read a PDF?', { newChat: true });
    assert.strictEqual(outcome?.state, 'done', JSON.stringify(outcome));
    assert.match(outcome.reply ?? '', /\| Tool \| Use \|/);

    const html = await waitFor('the panel to draw the table', () => {
      const now = api.agent.renderedHtml();
      return now?.includes('pdfimages') && now.includes('<table') ? now : undefined;
    });
    assert.match(html, /<table>\s*<thead>\s*<tr>\s*<th>Tool<\/th>\s*<th>Use<\/th>/);
    assert.match(html, /<td>pdftotext<\/td>\s*<td>text of each page<\/td>/);
    assert.match(html, /<ol>\s*<li>Run <code>pdftotext -layout<\/code>\.<\/li>\s*<li>Read the output\.<\/li>\s*<\/ol>/);
    assert.match(html, /<h2>Tools<\/h2>/);
    // highlight.js tokens, with nothing but their hljs classes.
    assert.match(
      html,
      /<pre><code class="language-sh"><span class="hljs-comment"># keep the columns<\/span>\npdftotext -layout report\.pdf out\.txt\n<\/code><\/pre>/,
    );
    assert.doesNotMatch(html, /<span(?! class="hljs[\w -]*">)/);
    // Raw HTML is shown as text, never as elements; the javascript: link is no link.
    assert.doesNotMatch(html, /<img|<script/i);
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.doesNotMatch(html, /href="javascript/i);
    assert.doesNotMatch(html, /onerror="/i);

    // The closing line is just "Done"; the token count is in the footer; no session id anywhere.
    const text = await waitFor('the footer', () => {
      const now = api.agent.rendered();
      return now?.includes('Session total:') ? now : undefined;
    });
    assert.match(text, /^Done$/m);
    assert.match(text, /Session total: [\d,]+ input \/ [\d,]+ output tokens/);
    assert.doesNotMatch(text, /end_turn|session total/);
    assert.ok(outcome.sessionId && !text.includes(outcome.sessionId), 'the session id is shown');
    await screenshot('chat-markdown');

    // The Copy button hands the extension the code, without the fence's last newline.
    assert.ok(await api.agent.sendToPanel('copy'), 'the panel is closed');
    await waitFor('the Copy button to reach the extension', () => api.agent.copied() === '# keep the columns\npdftotext -layout report.pdf out.txt');
  });

  test('Insert puts a code block at the cursor of the editor used last, replacing its selection', async () => {
    const api = await extensionApi();
    const document = await vscode.workspace.openTextDocument({ content: 'before SELECTED after', language: 'plaintext' });
    // Beside the panel: a webview hidden behind another tab is unloaded and drawn again.
    const panelColumn = agentTab()?.group.viewColumn;
    const column = panelColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
    const editor = await vscode.window.showTextDocument(document, { viewColumn: column });
    editor.selection = new vscode.Selection(0, 7, 0, 15);
    // The panel's group takes focus, as it does when the user clicks in the panel.
    const focusGroup = panelColumn === vscode.ViewColumn.One ? 'workbench.action.focusFirstEditorGroup' : 'workbench.action.focusSecondEditorGroup';
    await vscode.commands.executeCommand(focusGroup);
    await waitFor('the panel to have focus', () => vscode.window.activeTextEditor === undefined);
    assert.ok(await api.agent.sendToPanel('insert'), 'the panel is closed');
    const expected = 'before # keep the columns\npdftotext -layout report.pdf out.txt after';
    await waitFor('the code in the editor', () => document.getText() === expected).catch((error: unknown) => {
      const editors = vscode.window.visibleTextEditors.map((visible) => visible.document.uri.toString());
      assert.fail(`${String(error)}; the document holds ${JSON.stringify(document.getText())}; visible editors: ${editors.join(', ')}`);
    });
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('paths of workspace files in a reply become links that open the file; missing ones and ones outside stay text', async () => {
    const api = await extensionApi();
    // Exists, but outside the workspace folder: the reply's ../outside.txt must not reach it.
    fs.writeFileSync(workspaceUri('../outside.txt').fsPath, 'not in the workspace\n');
    const outcome = await ask('Where is the PDF skill?');
    assert.strictEqual(outcome.state, 'done', JSON.stringify(outcome));
    const html = await waitFor('the panel to link the paths', () => {
      const now = api.agent.renderedHtml();
      return now?.includes('extract.py') && now.includes('data-path="skills/pdf-tools/evals/triggers.json"') ? now : undefined;
    });
    const links = [...html.matchAll(/<a class="file-link" href="#" title="[^"]*" data-path="([^"]+)">/g)].map((match) => match[1]);
    assert.deepStrictEqual(links, ['skills/pdf-tools/SKILL.md', 'skills/pdf-tools/evals/triggers.json', 'skills/pdf-tools/SKILL.md:7']);
    assert.match(html, /data-path="skills\/pdf-tools\/SKILL\.md"><code>skills\/pdf-tools\/SKILL\.md<\/code><\/a>/);
    assert.match(html, /<code>skills\/pdf-tools\/scripts\/extract\.py<\/code>/);

    assert.ok(await api.agent.sendToPanel('open:skills/pdf-tools/SKILL.md'), 'the panel is closed');
    await waitFor('SKILL.md to open', () => vscode.window.activeTextEditor?.document.uri.path.endsWith('/skills/pdf-tools/SKILL.md'));
    // path:line puts the cursor on that line.
    assert.ok(await api.agent.sendToPanel('open:skills/pdf-tools/SKILL.md:7'), 'the panel is closed');
    await waitFor('the cursor on line 7', () => vscode.window.activeTextEditor?.selection.active.line === 6);
  });

  test('every text of the panel, with an approval waiting, reads at 4.5:1 or more in Light Modern and Dark Modern', async function () {
    this.timeout(60_000);
    const api = await extensionApi();
    const chat = ask('Run a command');
    await waitFor('the approval card', () => api.agent.pendingApproval());
    // The approval card, the progress line, a tool card, links, code and the footer.
    assertReadable(await auditThemes(api, 'chat-approval'));
    assert.ok(await api.agent.sendToPanel('click:Deny'));
    assert.strictEqual((await chat).state, 'done');
    await waitFor('the reply after the denial', () => api.agent.rendered()?.includes('I did not run it.'));
  });

  test('a prompt sent while scrolled up is scrolled into view, and the log stays pinned to the bottom as the chat goes on', async () => {
    const api = await extensionApi();
    await vscode.commands.executeCommand('skillLsp.openAgent');
    assert.ok(await api.agent.sendToPanel('scroll:top'));
    await waitFor('the log to be scrolled up', () => api.agent.scroll()?.top === 0);
    const hung = ask('Wait for a model that never answers');
    const sent = await waitFor('the prompt to be drawn', () => {
      const scroll = api.agent.scroll();
      return api.agent.rendered()?.includes('Wait for a model that never answers') && scroll?.promptTop !== undefined ? scroll : undefined;
    });
    assert.ok(sent.height > sent.client, `the log does not scroll: ${JSON.stringify(sent)}`);
    // At the top, or as high as the log scrolls when little follows it.
    const promptTop = sent.promptTop ?? -1;
    assert.ok(sent.top > 0 && promptTop >= -1 && promptTop < sent.client - 20, `the new prompt is not in view: ${JSON.stringify(sent)}`);

    assert.ok(await api.agent.sendToPanel('scroll:bottom'));
    await vscode.commands.executeCommand('skillLsp.cancelAgent');
    assert.strictEqual((await hung).state, 'cancelled');
    const after = await waitFor('the cancellation to be drawn', () => {
      const scroll = api.agent.scroll();
      return api.agent.rendered()?.includes('Cancelled.') ? scroll : undefined;
    });
    assert.ok(after.height - after.top - after.client < 40, `the log left the bottom: ${JSON.stringify(after)}`);
  });

  test('the conversation survives closing and reopening the panel, is saved for the workspace, and still reads at 4.5:1', async function () {
    this.timeout(60_000);
    const api = await extensionApi();
    const tab = agentTab();
    assert.ok(tab, 'no Skill Agent tab');
    await vscode.window.tabGroups.close(tab);
    await waitFor('the panel to close', () => api.agent.rendered() === undefined);

    await vscode.commands.executeCommand('skillLsp.openAgent');
    await waitFor('the reopened panel to draw the conversation', () => {
      const text = api.agent.rendered();
      return text?.includes('Where is the PDF skill?') && text.includes('Cancelled.');
    });

    const saved = await api.agent.saved();
    // As workspaceState will hand it to the next window: through JSON.
    assert.deepStrictEqual(JSON.parse(JSON.stringify(saved?.entries)), JSON.parse(JSON.stringify(api.agent.transcript())));
    assert.ok(saved?.usage, 'the token count is not saved');
    const session = api.agent.session();
    assert.ok(session && !JSON.stringify(saved).includes(session), 'the session id is saved');

    // The answered approval's line, "Cancelled.", the tool card, links, code and the footer.
    assertReadable(await auditThemes(api, 'chat-reopened'));
  });

  test('a saved conversation comes back into a new chat: capped, a waiting approval denied; New chat clears it', async () => {
    const values = new Map<string, unknown>();
    const store: vscode.Memento = {
      keys: () => [...values.keys()],
      get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
      update: async (key: string, value: unknown) => void (value === undefined ? values.delete(key) : values.set(key, value)),
    };
    // Only what the constructor subscribes to: no server is asked anything here.
    const server = { onAgentEvent: () => new vscode.Disposable(() => undefined), onApproval: () => new vscode.Disposable(() => undefined) };
    const entries: Entry[] = Array.from({ length: 250 }, (_, index) => ({ kind: 'user', text: `prompt ${index}` }));
    entries.push({ kind: 'approval', id: 'approval-1', pending: true, message: 'Run ls?', answer: '' });
    await store.update(SAVED_CHAT_KEY, savedChat(entries, { inputTokens: 10, outputTokens: 2 }));

    const chat = new AgentChat(server as unknown as ServerManager, store);
    try {
      const restored = chat.transcript();
      assert.strictEqual(restored.length, 200);
      assert.deepStrictEqual(restored[0], { kind: 'user', text: 'prompt 51' });
      assert.deepStrictEqual(restored[199], {
        kind: 'approval',
        id: 'approval-1',
        pending: false,
        message: 'Run ls?',
        answer: 'Deny (the window closed)',
      });
      assert.deepStrictEqual(chat.usage, { inputTokens: 10, outputTokens: 2 });
      chat.newChat();
      await chat.save();
      assert.strictEqual(store.get<SavedChat>(SAVED_CHAT_KEY), undefined);
    } finally {
      chat.dispose();
    }

    // About 1 MB at most: the oldest entries go first.
    const big: Entry[] = Array.from({ length: 30 }, (_, index) => ({ kind: 'assistant', text: `${index} ${'x'.repeat(100_000)}` }));
    const kept = savedChat(big, undefined).entries;
    assert.ok(JSON.stringify(kept).length <= 1_000_000 && kept.length >= 9, `${kept.length} entries kept`);
    assert.deepStrictEqual(kept[kept.length - 1], big[big.length - 1]);
  });
});
