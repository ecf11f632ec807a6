// The glue against the protocol snapshot (docs/protocol/messages.json, written by the server's
// tests/it/protocol.rs): every method name and button title this extension matches on is there,
// and every `skill/agentEvent` example folds into the transcript with its fields read. A change
// on either side that the other does not follow fails here.

import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { EventFold, foldAgentEvent, stopText, withHint } from '../../agent';
import {
  AGENT_EVENT,
  APPROVAL_ACTIONS,
  AgentChatParams,
  AgentChatRequest,
  AgentChatResult,
  AgentEvent,
  CatalogPlugin,
  CatalogPluginSkill,
  CatalogRequest,
  CatalogResult,
  CatalogSkill,
  EVAL_RESULT,
  EvalQueryResult,
  EvalResultParams,
  EvalSummary,
  FIX_ALL_KIND,
  ImproveDescriptionRequest,
  ImproveDescriptionResult,
  ImproveIteration,
  RUN_TRIGGER_EVALS_COMMAND,
  RunEvalsParams,
  RunEvalsRequest,
  RunEvalsResult,
  RunTriggerEvalsArgument,
  UnsetData,
} from '../../protocol';

// out/test/suite -> the repository root.
const SNAPSHOT = path.resolve(__dirname, '../../../../../docs/protocol/messages.json');

/** The fields `AgentEvent` (protocol.ts) declares for each kind, besides sessionId and kind. */
const EVENT_FIELDS: Record<AgentEvent['kind'], Record<string, string>> = {
  text: { text: 'string' },
  toolCall: { id: 'string', name: 'string', input: 'object', argument: 'string?', approval: 'object?' },
  toolResult: { id: 'string', name: 'string', isError: 'boolean', content: 'string' },
  notice: { text: 'string' },
  done: { stopReason: 'string' },
  error: { message: 'string' },
};

/** The fields of each request type in protocol.ts; `satisfies` keeps the lists complete. */
const CATALOG_RESULT = { skills: true, prompt: true, plugins: true } satisfies Record<keyof CatalogResult, true>;
const CATALOG_SKILL = {
  name: true,
  description: true,
  uri: true,
  root: true,
  diagnostics: true,
  capabilities: true,
  securityErrors: true,
  claudeCodeName: true,
} satisfies Record<keyof CatalogSkill, true>;
const CATALOG_PLUGIN = { name: true, marketplace: true, install: true, root: true, skills: true } satisfies Record<keyof CatalogPlugin, true>;
const CATALOG_PLUGIN_SKILL = { claudeCodeName: true, description: true, uri: true } satisfies Record<keyof CatalogPluginSkill, true>;
const CHAT_PARAMS = { prompt: true, sessionId: true, workDoneToken: true } satisfies Record<keyof AgentChatParams, true>;
const CHAT_RESULT = {
  sessionId: true,
  reply: true,
  stopReason: true,
  loadedSkills: true,
  transcript: true,
  usage: true,
} satisfies Record<keyof AgentChatResult, true>;
const USAGE = { inputTokens: true, outputTokens: true } satisfies Record<keyof AgentChatResult['usage'], true>;
const EVALS_PARAMS = {
  skill: true,
  uri: true,
  description: true,
  runs: true,
  noCache: true,
  maxRequests: true,
  autoRuns: true,
  target: true,
  contextWindow: true,
  dryRun: true,
  workDoneToken: true,
} satisfies Record<keyof RunEvalsParams, true>;
const EVALS_RESULT = {
  skill_name: true,
  description: true,
  candidate: true,
  eval_set: true,
  results: true,
  confusions: true,
  summary: true,
  target: true,
  run: true,
} satisfies Record<keyof RunEvalsResult, true>;
const EVAL_QUERY = {
  query: true,
  should_trigger: true,
  trigger_rate: true,
  trigger_interval: true,
  triggers: true,
  runs: true,
  pass: true,
  verdict: true,
  loaded_instead: true,
  other_tools: true,
  cached_runs: true,
  input_tokens: true,
  output_tokens: true,
} satisfies Record<keyof EvalQueryResult, true>;
const EVAL_SUMMARY = {
  passed: true,
  failed: true,
  total: true,
  runs: true,
  cached_runs: true,
  input_tokens: true,
  output_tokens: true,
  precision: true,
  recall: true,
  undecided: true,
  precision_interval: true,
  recall_interval: true,
  false_trigger_rate: true,
  false_trigger_interval: true,
} satisfies Record<keyof EvalSummary, true>;
const EVAL_RESULT_PARAMS = { skill: true, uri: true, result: true } satisfies Record<keyof EvalResultParams, true>;
const LENS_ARGUMENT = { skill: true, uri: true } satisfies Record<keyof RunTriggerEvalsArgument, true>;
const IMPROVE_RESULT = {
  improve: true,
  best_description: true,
  improved: true,
  summary: true,
  uri: true,
  current: true,
  proposed: true,
  edit: true,
  warning: true,
} satisfies Record<keyof ImproveDescriptionResult, true>;
const IMPROVE_ITERATION = {
  description: true,
  train_passed: true,
  train_total: true,
  test_passed: true,
  test_total: true,
  target_note: true,
} satisfies Record<keyof ImproveIteration, true>;

function keys(value: unknown): string[] {
  return Object.keys(value as object).sort();
}

interface Message {
  params?: unknown;
  result?: unknown;
}

suite('protocol snapshot', () => {
  const messages = JSON.parse(fs.readFileSync(SNAPSHOT, 'utf8')) as Record<string, Message[]>;

  test('every method the extension uses is in the snapshot', () => {
    for (const method of [
      CatalogRequest.method,
      AgentChatRequest.method,
      AGENT_EVENT,
      RunEvalsRequest.method,
      EVAL_RESULT,
      ImproveDescriptionRequest.method,
    ]) {
      assert.ok(messages[method]?.length, `${method} is not in ${SNAPSHOT}`);
    }
    const capabilities = (messages.initialize[0].result as { capabilities: { codeActionProvider: { codeActionKinds: string[] } } }).capabilities;
    assert.ok(capabilities.codeActionProvider.codeActionKinds.includes(FIX_ALL_KIND));
  });

  test("the request types have the server's fields", () => {
    const catalog = messages[CatalogRequest.method][0].result as CatalogResult;
    assert.deepStrictEqual(keys(catalog), keys(CATALOG_RESULT));
    assert.deepStrictEqual(keys(catalog.skills[0]), keys(CATALOG_SKILL));
    const [plugin] = catalog.plugins ?? [];
    assert.ok(plugin, 'the example has a plugin');
    assert.deepStrictEqual(keys(plugin), keys(CATALOG_PLUGIN));
    assert.deepStrictEqual(keys(plugin.skills[0]), keys(CATALOG_PLUGIN_SKILL));
    const chat = messages[AgentChatRequest.method][0];
    assert.deepStrictEqual(keys(chat.params), keys(CHAT_PARAMS));
    assert.deepStrictEqual(keys(chat.result), keys(CHAT_RESULT));
    assert.deepStrictEqual(keys((chat.result as AgentChatResult).usage), keys(USAGE));
  });

  test('skill/runEvals, skill/evalResult and the code lens have the fields and command the extension reads', () => {
    const run = messages[RunEvalsRequest.method][0];
    // The example's params leave out the optional description and noCache.
    for (const name of Object.keys(run.params as object)) {
      assert.ok(name in EVALS_PARAMS, `the server's example sends ${name}, which RunEvalsParams lacks`);
    }
    const result = run.result as RunEvalsResult;
    assert.deepStrictEqual(keys(result), keys(EVALS_RESULT));
    assert.deepStrictEqual(keys(result.results[0]), keys(EVAL_QUERY));
    assert.deepStrictEqual(keys(result.summary), keys(EVAL_SUMMARY));
    const notification = messages[EVAL_RESULT][0].params as EvalResultParams;
    assert.deepStrictEqual(keys(notification), keys(EVAL_RESULT_PARAMS));
    assert.deepStrictEqual(keys(notification.result), keys(EVAL_QUERY));
    const lens = (messages['textDocument/codeLens'][0].result as { command: { command: string; arguments: unknown[] } }[])[0];
    assert.strictEqual(lens.command.command, RUN_TRIGGER_EVALS_COMMAND);
    assert.deepStrictEqual(keys(lens.command.arguments[0]), keys(LENS_ARGUMENT));
  });

  test('skill/improveDescription has the fields the extension reads', () => {
    const [exchange] = messages[ImproveDescriptionRequest.method];
    const result = exchange.result as ImproveDescriptionResult;
    // `warning` comes only when an edit could not be made.
    assert.deepStrictEqual(
      keys(result),
      keys(IMPROVE_RESULT).filter((name) => name !== 'warning'),
    );
    assert.deepStrictEqual(keys(result.improve), ['best', 'iterations', 'skill', 'split', 'warnings']);
    // `target_note` comes only under a target, when the client did not list a try whole.
    assert.deepStrictEqual(
      keys(result.improve.iterations[0]),
      keys(IMPROVE_ITERATION).filter((name) => name !== 'target_note'),
    );
    for (const name of Object.keys(exchange.params as object)) {
      assert.ok(
        name in EVALS_PARAMS || name === 'iterations' || name === 'seed',
        `the server's example sends ${name}, which ImproveDescriptionParams lacks`,
      );
    }
  });

  test("the approval buttons are the server's", () => {
    const params = messages['window/showMessageRequest'][0].params as { actions: { title: string }[] };
    assert.deepStrictEqual(
      params.actions.map((action) => action.title),
      [...APPROVAL_ACTIONS],
    );
  });

  test('every skill/agentEvent kind is understood and its fields read', () => {
    const events = messages[AGENT_EVENT].map((message) => message.params as AgentEvent);
    assert.deepStrictEqual([...new Set(events.map((event) => event.kind))].sort(), ['done', 'error', 'text', 'toolCall', 'toolResult']);
    const fold: EventFold = { entries: [], openText: undefined, sawFinalEvent: false };
    for (const event of events) {
      // Exactly the fields protocol.ts declares, with their types.
      const fields = EVENT_FIELDS[event.kind];
      assert.ok(fields, `unknown kind ${event.kind}`);
      // A type ending in `?` is an optional field.
      const required = Object.keys(fields).filter((name) => !fields[name].endsWith('?'));
      const known = new Set(['kind', 'sessionId', ...Object.keys(fields)]);
      for (const name of ['kind', 'sessionId', ...required]) {
        assert.ok(name in event, `${event.kind} lacks ${name}: ${JSON.stringify(event)}`);
      }
      for (const name of Object.keys(event)) {
        assert.ok(known.has(name), `${event.kind}.${name} is not in protocol.ts: ${JSON.stringify(event)}`);
      }
      assert.strictEqual(typeof event.sessionId, 'string');
      for (const [name, type] of Object.entries(fields)) {
        const value = (event as unknown as Record<string, unknown>)[name];
        if (value !== undefined || !type.endsWith('?')) {
          assert.strictEqual(typeof value, type.replace(/\?$/, ''), `${event.kind}.${name}`);
        }
      }
      const changed = foldAgentEvent(fold, event);
      // Only the closing event of a cancelled chat leaves the transcript as it is.
      assert.strictEqual(changed, !(event.kind === 'done' && event.stopReason === 'cancelled'), JSON.stringify(event));
    }
    for (const event of events) {
      switch (event.kind) {
        case 'text':
          assert.ok(
            fold.entries.some((entry) => entry.kind === 'assistant' && entry.text.includes(event.text)),
            event.text,
          );
          break;
        case 'toolCall': {
          const entry = fold.entries.find((candidate) => candidate.kind === 'tool' && candidate.id === event.id);
          assert.ok(entry && entry.kind === 'tool', event.id);
          assert.strictEqual(entry.name, event.name);
          assert.deepStrictEqual(entry.input, event.input);
          assert.deepStrictEqual(entry.approval, event.approval);
          break;
        }
        case 'toolResult': {
          const entry = fold.entries.find((candidate) => candidate.kind === 'tool' && candidate.id === event.id);
          assert.ok(entry && entry.kind === 'tool', event.id);
          assert.deepStrictEqual(entry.result, { content: event.content, isError: event.isError });
          break;
        }
        case 'done':
          if (event.stopReason !== 'cancelled') {
            assert.ok(
              fold.entries.some((entry) => entry.kind === 'status' && entry.text === stopText(event.stopReason)),
              event.stopReason,
            );
          }
          break;
        case 'error':
          assert.ok(
            fold.entries.some((entry) => entry.kind === 'status' && entry.state === 'error' && entry.text.includes(event.message)),
            event.message,
          );
          break;
      }
    }
    assert.ok(fold.sawFinalEvent);
    const asked = events.find((event) => event.kind === 'toolCall' && event.approval);
    assert.ok(asked && asked.kind === 'toolCall' && asked.approval, 'no toolCall with an approval in the snapshot');
    assert.deepStrictEqual(keys(asked.approval), ['detail', 'kind', 'scope']);
  });

  test("the errors' data the extension reads", () => {
    const unset = messages[AgentChatRequest.method].find((message) => (message as { error?: unknown }).error) as
      { error: { code: number; data: UnsetData } } | undefined;
    assert.ok(unset, 'no agentChat error example');
    assert.ok(['model', 'provider'].includes(unset.error.data.unset), JSON.stringify(unset));
    assert.match(withHint('no model is set', unset.error.data), /In VS Code: /);
  });
});
