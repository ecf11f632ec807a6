// The server's `skill/*` extensions as the extension sees them on the wire: src/lsp/ext.rs declares
// them, docs/protocol.md describes them, and src/test/suite/protocol.test.ts checks this file and
// the agent glue against the examples in docs/protocol/messages.json.

import { ProgressToken, RequestType } from 'vscode-languageclient/node';

export interface CatalogSkill {
  name: string;
  description: string;
  /** `file://` URI of the SKILL.md. */
  uri: string;
  /** The skills root folder that holds the skill. */
  root: string;
  /** How many findings the skill has right now. */
  diagnostics: number;
}

export interface CatalogResult {
  skills: CatalogSkill[];
  /** The catalog exactly as the agent's system prompt carries it. */
  prompt: string;
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

/** One `skill/agentEvent` notification. */
export type AgentEvent =
  | { sessionId: string; kind: 'text'; text: string }
  | { sessionId: string; kind: 'toolCall'; id: string; name: string; input: unknown }
  | { sessionId: string; kind: 'toolResult'; id: string; name: string; isError: boolean; content: string }
  | { sessionId: string; kind: 'done'; stopReason: string }
  | { sessionId: string; kind: 'error'; message: string };

export const CatalogRequest = new RequestType<Record<string, never>, CatalogResult, void>('skill/catalog');
export const AgentChatRequest = new RequestType<AgentChatParams, AgentChatResult, void>('skill/agentChat');
export const AGENT_EVENT = 'skill/agentEvent';

/** The code action kind of "apply every safe fix in the file". */
export const FIX_ALL_KIND = 'source.fixAll.skill-lsp';

/** The titles the server offers in its approval `window/showMessageRequest`. */
export const APPROVAL_ACTIONS = ['Allow once', 'Allow for this chat', 'Deny'] as const;
