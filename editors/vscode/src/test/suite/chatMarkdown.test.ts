import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ChatOutcome } from '../../agent';
import { extensionApi, waitFor } from './helpers';

// The scripted model's last reply (test/fixtures/scripted-model.json): a heading, a table, a
// numbered list, a code block, raw HTML and a javascript: link that must stay inert, and a very
// long path.
suite('chat Markdown', () => {
  test('a reply with a table and a numbered list is drawn as <table> and <ol>, sanitised, with a Copy button on code', async () => {
    const api = await extensionApi();
    const outcome = await vscode.commands.executeCommand<ChatOutcome>('skillLsp.askAgent', 'Which tools read a PDF?', { newChat: true });
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
    assert.match(html, /<pre><code class="language-sh">pdftotext -layout report\.pdf out\.txt\n<\/code><\/pre>/);
    // Raw HTML is shown as text, never as elements; the javascript: link is no link.
    assert.doesNotMatch(html, /<img|<script/i);
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.doesNotMatch(html, /href="javascript/i);
    assert.doesNotMatch(html, /onerror="/i);

    const text = api.agent.rendered() ?? '';
    assert.match(text, /Done · session total/);
    assert.doesNotMatch(text, /end_turn/);

    // The Copy button hands the extension the code, without the fence's last newline.
    assert.ok(await api.agent.sendToPanel('copy'), 'the panel is closed');
    await waitFor('the Copy button to reach the extension', () => api.agent.copied() === 'pdftotext -layout report.pdf out.txt');
  });
});
