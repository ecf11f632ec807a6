// Shared by the e2e suites: the extension's API, the workspace's files, and polling.

import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { SkillLspApi } from '../../extension';

export const EXTENSION_ID = 'skill-lsp.skill-lsp';

export async function extensionApi(): Promise<SkillLspApi> {
  const extension = vscode.extensions.getExtension<SkillLspApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not installed`);
  return extension.isActive ? extension.exports : extension.activate();
}

export function workspaceUri(relative: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test window has no workspace folder');
  return vscode.Uri.joinPath(folder.uri, relative);
}

export async function open(relative: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(workspaceUri(relative));
  return vscode.window.showTextDocument(document, { preview: false });
}

/** Polls until `probe` returns something truthy; fails with `what` and the last value on timeout. */
export async function waitFor<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 15_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last) {
      return last as NonNullable<T>;
    }
    if (Date.now() > deadline) {
      assert.fail(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function ruleOf(diagnostic: vscode.Diagnostic): string {
  const code = diagnostic.code;
  return typeof code === 'object' && code !== null ? String(code.value) : String(code);
}

export function skillDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.source === 'skill-lsp');
}

/** `rule@l:c-l:c` (0-based, as VS Code holds them), sorted: compact to assert and to read. */
export function describe(diagnostics: vscode.Diagnostic[]): string[] {
  return diagnostics.map((d) => `${ruleOf(d)}@${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`).sort();
}

export function env(name: string): string {
  const value = process.env[name];
  assert.ok(value, `the runner did not set ${name}`);
  return value;
}

/**
 * Has the harness photograph the whole window (run-e2e.js watches the log for the marker) and
 * waits until SKILL_LSP_E2E_SCREENSHOTS/NAME.png is there. Without that variable (a local run
 * that wants none) it does nothing.
 */
export async function screenshot(name: string): Promise<void> {
  const dir = process.env.SKILL_LSP_E2E_SCREENSHOTS;
  if (!dir) {
    return;
  }
  const file = path.join(dir, `${name}.png`);
  fs.rmSync(file, { force: true });
  // Let the workbench paint what the test just did (a hover, a list, a card).
  await new Promise((resolve) => setTimeout(resolve, 400));
  console.log(`SKILL_LSP_E2E_SCREENSHOT ${name}`);
  await waitFor(`the screenshot ${file}`, () => fs.existsSync(file), 20_000);
}
