// The `skillLsp.*` commands. Each takes optional arguments so keybindings, tasks and tests can
// run it without its prompts; each returns what it did.

import * as vscode from 'vscode';
import { AgentChat, ChatOutcome } from './agent';
import { AgentPanel } from './agentPanel';
import { ApiKeys } from './apiKey';
import { CatalogDocuments, openSkill, showCatalog } from './catalog';
import { ServerManager, SKILL_SELECTOR } from './client';
import { EvalPanel } from './evalPanel';
import { EvalOutcome, RunOptions, TriggerEvals } from './evals';
import { DescriptionImprover, ImproveOptions } from './improve';
import { FIX_ALL_KIND, IMPROVE_DESCRIPTION_COMMAND, RUN_TRIGGER_EVALS_COMMAND, RunTriggerEvalsArgument } from './protocol';
import { Provider, agentSettings } from './settings';

export interface CommandContext {
  extensionUri: vscode.Uri;
  server: ServerManager;
  chat: AgentChat;
  evals: TriggerEvals;
  improver: DescriptionImprover;
  keys: ApiKeys;
  catalog: CatalogDocuments;
  log: vscode.LogOutputChannel;
}

export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
  const { server, chat, keys, catalog, log } = ctx;
  return [
    vscode.commands.registerCommand('skillLsp.askAgent', (prompt?: string, options?: { newChat?: boolean }) => askAgent(ctx, prompt, options)),
    vscode.commands.registerCommand('skillLsp.cancelAgent', () => chat.cancel()),
    vscode.commands.registerCommand('skillLsp.openAgent', () => {
      AgentPanel.show(ctx.extensionUri, chat, false);
    }),
    // From the server's code lens with `{skill, uri}`; from the palette with nothing (the active
    // SKILL.md); from tests and keybindings also with run options.
    vscode.commands.registerCommand(RUN_TRIGGER_EVALS_COMMAND, (argument?: RunTriggerEvalsArgument, options?: RunOptions) =>
      runTriggerEvals(ctx, argument, options),
    ),
    vscode.commands.registerCommand('skillLsp.cancelTriggerEvals', () => ctx.evals.cancel()),
    // From the server's code action on `description:` with `{skill, uri}`; from the palette with
    // nothing (the active SKILL.md); from tests also with options.
    vscode.commands.registerCommand(IMPROVE_DESCRIPTION_COMMAND, (argument?: RunTriggerEvalsArgument, options?: ImproveOptions) => {
      const target = argument instanceof vscode.Uri ? { uri: argument.toString() } : argument && typeof argument === 'object' ? argument : undefined;
      return ctx.improver.run(target, options ?? {});
    }),
    vscode.commands.registerCommand('skillLsp.showCatalog', () => showCatalog(server, catalog)),
    vscode.commands.registerCommand('skillLsp.openSkill', (name?: string) => openSkill(server, name)),
    vscode.commands.registerCommand('skillLsp.fixAll', (target?: vscode.Uri) => fixAll(server, target)),
    vscode.commands.registerCommand('skillLsp.restartServer', async () => {
      log.info('Restart requested');
      await server.restart();
      return server.current;
    }),
    vscode.commands.registerCommand('skillLsp.setApiKey', (key?: string) => setApiKey(server, keys, log, key)),
    vscode.commands.registerCommand('skillLsp.clearApiKey', () => clearApiKey(server, keys, log)),
    vscode.commands.registerCommand('skillLsp.showOutput', () => log.show()),
  ];
}

async function askAgent(ctx: CommandContext, prompt?: string, options?: { newChat?: boolean }): Promise<ChatOutcome | undefined> {
  let text = prompt;
  if (text === undefined) {
    text = await vscode.window.showInputBox({
      title: 'Ask the Skill Agent',
      prompt: ctx.chat.session ? 'Follow-up in the current conversation' : 'The agent sees the skill catalog and loads skills as needed',
      placeHolder: 'e.g. Summarise report.pdf',
      ignoreFocusOut: true,
    });
  }
  if (!text?.trim()) {
    return undefined;
  }
  AgentPanel.show(ctx.extensionUri, ctx.chat);
  return ctx.chat.ask(text.trim(), options);
}

async function runTriggerEvals(ctx: CommandContext, argument?: RunTriggerEvalsArgument, options?: RunOptions): Promise<EvalOutcome> {
  const validArgument = argument && typeof argument === 'object' && !(argument instanceof vscode.Uri) ? argument : undefined;
  // A URI argument, as from an explorer or editor-title menu, names the SKILL.md.
  const target = argument instanceof vscode.Uri ? { uri: argument.toString() } : validArgument;
  if (ctx.evals.running) {
    EvalPanel.show(ctx.extensionUri, ctx.evals);
  }
  const run = ctx.evals.run(target, options ?? {});
  // The panel opens once the run has a skill (a palette call without one only gets a message).
  if (ctx.evals.running) {
    EvalPanel.show(ctx.extensionUri, ctx.evals);
  }
  return run;
}

/** Applies `source.fixAll.skill-lsp` to a SKILL.md; returns whether anything changed. */
async function fixAll(server: ServerManager, target?: vscode.Uri): Promise<boolean> {
  const document = target ? await vscode.workspace.openTextDocument(target) : vscode.window.activeTextEditor?.document;
  if (!document || vscode.languages.match(SKILL_SELECTOR, document) === 0) {
    void vscode.window.showInformationMessage('Skill LSP: open a SKILL.md to fix.');
    return false;
  }
  if (!(await server.clientForCommand())) {
    return false;
  }
  const whole = new vscode.Range(0, 0, document.lineCount, 0);
  const actions =
    (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
      'vscode.executeCodeActionProvider',
      document.uri,
      whole,
      FIX_ALL_KIND,
    )) ?? [];
  const fix = actions.find((action): action is vscode.CodeAction => 'kind' in action && action.kind?.value === FIX_ALL_KIND);
  if (!fix) {
    void vscode.window.setStatusBarMessage('Skill LSP: nothing to fix automatically', 3000);
    return false;
  }
  if (fix.edit && !(await vscode.workspace.applyEdit(fix.edit))) {
    void vscode.window.showErrorMessage('Skill LSP: the fixes could not be applied (the file changed meanwhile?).');
    return false;
  }
  if (fix.command) {
    await vscode.commands.executeCommand(fix.command.command, ...(fix.command.arguments ?? []));
  }
  return true;
}

async function setApiKey(server: ServerManager, keys: ApiKeys, log: vscode.LogOutputChannel, key?: string): Promise<boolean> {
  const provider: Provider = agentSettings().provider;
  const value = key?.trim() || (await keys.prompt(provider));
  if (!value) {
    return false;
  }
  await keys.store(provider, value);
  log.info(`API key for ${provider} stored in secret storage; restarting the server`);
  await server.restart();
  return true;
}

async function clearApiKey(server: ServerManager, keys: ApiKeys, log: vscode.LogOutputChannel): Promise<void> {
  const provider: Provider = agentSettings().provider;
  await keys.delete(provider);
  log.info(`API key for ${provider} removed from secret storage; restarting the server`);
  await server.restart();
  void vscode.window.setStatusBarMessage(`Skill LSP: ${provider} API key cleared`, 3000);
}
