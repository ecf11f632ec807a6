// The server's `skill/*` extensions as the extension sees them on the wire: src/lsp/ext.rs declares
// them, docs/protocol.md describes them, and src/test/suite/protocol.test.ts checks this file and
// the agent glue against the examples in docs/protocol/messages.json.

import { ProgressToken, RequestType, WorkspaceEdit } from 'vscode-languageclient/node';

export interface CatalogSkill {
  name: string;
  description: string;
  /** `file://` URI of the SKILL.md. */
  uri: string;
  /** The skills root folder that holds the skill. */
  root: string;
  /** How many findings the skill has right now: its SKILL.md's and those of the files it ships. */
  diagnostics: number;
  /** What its files can do: `network`, `shell`, `reads-outside`, `writes-outside`, `secrets`, `persistence`. */
  capabilities: string[];
  /** Security errors among its findings: the agent asks before it loads the skill. */
  securityErrors: number;
  /** For a skill a Claude Code plugin of the workspace provides: `plugin:skill`, the name Claude Code lists it under once the plugin is installed. */
  claudeCodeName?: string;
}

/** A skill of a Claude Code plugin of the workspace. */
export interface CatalogPluginSkill {
  claudeCodeName: string;
  description: string;
  uri: string;
}

/** A Claude Code plugin of the workspace: its skills are listed once it is installed. */
export interface CatalogPlugin {
  name: string;
  /** The marketplace that lists it, if one does. */
  marketplace?: string;
  /** The command that installs it. */
  install: string;
  root: string;
  skills: CatalogPluginSkill[];
}

export interface CatalogResult {
  skills: CatalogSkill[];
  /** The catalog exactly as the agent's system prompt carries it. */
  prompt: string;
  /** The workspace's Claude Code plugins; absent when there are none. */
  plugins?: CatalogPlugin[];
}

export interface AgentChatParams {
  prompt: string;
  sessionId?: string;
  workDoneToken?: ProgressToken;
}

export interface AgentChatResult {
  sessionId: string;
  reply: string;
  stopReason: string;
  loadedSkills: string[];
  transcript: unknown[];
  usage: { inputTokens: number; outputTokens: number };
}

/**
 * What the user is asked about a tool call, sent on its `toolCall` event before the question:
 * the server owns which calls ask and what they mean (docs/protocol.md, the approval request).
 */
export interface ToolApproval {
  /** `bash`, `write` or `unsafe-skill`. */
  kind: string;
  /** The call in full: the command, the file and its new text, or a skill's security errors. */
  detail: string;
  /** What "Allow for this chat" would allow. */
  scope: string;
}

/** The `data` of an error the server answers when no model or no provider is set. */
export interface UnsetData {
  unset: 'model' | 'provider';
}

/** One `skill/agentEvent` notification. */
export type AgentEvent =
  | { sessionId: string; kind: 'text'; text: string }
  | { sessionId: string; kind: 'toolCall'; id: string; name: string; input: unknown; argument?: string; approval?: ToolApproval }
  | { sessionId: string; kind: 'toolResult'; id: string; name: string; isError: boolean; content: string }
  | { sessionId: string; kind: 'notice'; text: string }
  | { sessionId: string; kind: 'done'; stopReason: string }
  | { sessionId: string; kind: 'error'; message: string };

/** Params of `skill/runEvals`: `skill` (a name) or `uri` (its SKILL.md) names the skill. */
export interface RunEvalsParams {
  skill?: string;
  uri?: string;
  /** A candidate description evaluated instead of the file's. */
  description?: string;
  /** Runs per query (the server's default is 3). */
  runs?: number;
  noCache?: boolean;
  /** A hard cap on the model requests of the run. */
  maxRequests?: number;
  /** After `runs`, one more run at a time for each query still undecided, up to 10 (`--runs auto`). */
  autoRuns?: boolean;
  /** Route with the catalog as this client lists it (`claude-code`, `codex`, …; `--target`). */
  target?: string;
  /** With `target`: the model's context window in tokens, for that client's listing budget (`--context-window`). */
  contextWindow?: number;
  /** Send nothing: answer an `EvalEstimate` instead of a report. */
  dryRun?: boolean;
  workDoneToken?: ProgressToken;
}

/** What `skill/runEvals` with `dryRun` answers (as `skill-lsp eval --dry-run --format json`). */
export interface EvalEstimate {
  dry_run: {
    runs: number;
    cached_runs: number;
    requests: number;
    requests_at_most: number;
    input_tokens: number;
    input_tokens_at_most: number;
    output_tokens: number;
    output_tokens_at_most: number;
    max_turns: number;
  };
  model: string;
  /** The estimate in one line, as the server words it for an editor's question. */
  summary: string;
  cost?: { least: number; most: number; currency: string };
}

/** One query's results (snake_case, as `skill-lsp eval --format json` prints them). */
export interface EvalQueryResult {
  query: string;
  should_trigger: boolean;
  /** Share of runs that loaded the skill, 0 to 1. */
  trigger_rate: number;
  /** The 95 % Wilson interval of the trigger rate, [low, high]. */
  trigger_interval: [number, number];
  triggers: number;
  runs: number;
  /** The trigger rate is on the right side of the threshold. */
  pass: boolean;
  /** What the interval says for sure: `undecided` when it straddles the threshold. */
  verdict: 'pass' | 'fail' | 'undecided';
  /** Other skills the model loaded instead, with how many runs each. */
  loaded_instead: Record<string, number>;
  other_tools: Record<string, number>;
  cached_runs: number;
  input_tokens: number;
  output_tokens: number;
}

export interface EvalSummary {
  passed: number;
  failed: number;
  total: number;
  runs: number;
  cached_runs: number;
  input_tokens: number;
  output_tokens: number;
  precision: number | null;
  recall: number | null;
  /** Queries whose interval straddles the threshold. */
  undecided: number;
  precision_interval: [number, number] | null;
  recall_interval: [number, number] | null;
  false_trigger_rate: number | null;
  false_trigger_interval: [number, number] | null;
}

/** The result of `skill/runEvals`: the JSON `skill-lsp eval --format json` prints for one skill. */
export interface RunEvalsResult {
  skill_name: string;
  description: string;
  candidate: boolean;
  eval_set: string;
  results: EvalQueryResult[];
  confusions: { query: string; skill: string; runs: number }[];
  summary: EvalSummary;
  /** With `target`: what that client did with the skill; `note` says it in a sentence when it cut or dropped it. */
  target?: { client: string; presence: string; fate: string | null; seen: string | null; note: string | null; [key: string]: unknown };
  run: { model?: string; provider?: string; warnings?: string[]; [key: string]: unknown };
}

/** One `skill/evalResult` notification: a query whose runs are all done. */
export interface EvalResultParams {
  skill: string;
  uri: string;
  result: EvalQueryResult;
}

/** Params of `skill/improveDescription`: those of `skill/runEvals` without a candidate, the most rewrites and the split's seed. */
export interface ImproveDescriptionParams extends Omit<RunEvalsParams, 'description'> {
  iterations?: number;
  seed?: number;
}

/** One description `skill/improveDescription` measured (the first is the file's). */
export interface ImproveIteration {
  description: string;
  train_passed: number;
  train_total: number;
  test_passed: number;
  test_total: number;
  /** Under a target: what the client did with this description when it did not list it whole. */
  target_note?: string;
}

/** The result of `skill/improveDescription` (`skill-lsp eval --improve --format json`, plus what an editor applies). */
export interface ImproveDescriptionResult {
  improve: {
    skill: string;
    split: { seed: number; train: number[]; test: number[] };
    iterations: ImproveIteration[];
    best: number;
    warnings: string[];
  };
  best_description: string;
  /** Whether a rewrite beat the file's description. */
  improved: boolean;
  /** The outcome in one sentence, as the server words it. */
  summary: string;
  uri: string;
  /** The SKILL.md's text the edit was made on, and that text with the best description. */
  current: string;
  proposed: string | null;
  /** The edit of the description alone; null when nothing beat the file's or it could not be made safely. */
  edit: WorkspaceEdit | null;
  warning?: string;
}

/** The argument of the client-side command `skillLsp.runTriggerEvals` the server's code lens carries. */
export interface RunTriggerEvalsArgument {
  skill?: string;
  uri?: string;
}

export const CatalogRequest = new RequestType<Record<string, never>, CatalogResult, void>('skill/catalog');
export const AgentChatRequest = new RequestType<AgentChatParams, AgentChatResult, void>('skill/agentChat');
export const AGENT_EVENT = 'skill/agentEvent';
export const RunEvalsRequest = new RequestType<RunEvalsParams, RunEvalsResult, void>('skill/runEvals');
/** The same method with `dryRun: true`: the estimate, nothing sent to the model. */
export const EstimateEvalsRequest = new RequestType<RunEvalsParams & { dryRun: true }, EvalEstimate, void>('skill/runEvals');
export const EVAL_RESULT = 'skill/evalResult';
export const ImproveDescriptionRequest = new RequestType<ImproveDescriptionParams, ImproveDescriptionResult, void>('skill/improveDescription');
/** The same method with `dryRun: true`: the estimate of the whole loop, nothing sent. */
export const EstimateImproveRequest = new RequestType<ImproveDescriptionParams & { dryRun: true }, EvalEstimate, void>('skill/improveDescription');
/** The client-side command of the server's "Improve the description with the trigger evals…" code action. */
export const IMPROVE_DESCRIPTION_COMMAND = 'skillLsp.improveDescription';
/** The client-side command of the server's "Run trigger evals" code lens. */
export const RUN_TRIGGER_EVALS_COMMAND = 'skillLsp.runTriggerEvals';
/** The diagnostic code of a broken `evals/triggers.json` and of the last run's summary on a description. */
export const EVAL_SET_CODE = 'eval-set';
export const TRIGGER_EVALS_CODE = 'trigger-evals';

/** The code action kind of "apply every safe fix in the file". */
export const FIX_ALL_KIND = 'source.fixAll.skill-lsp';

/** The titles the server offers in its approval `window/showMessageRequest`. */
export const APPROVAL_ACTIONS = ['Allow once', 'Allow for this chat', 'Deny'] as const;
