-- `:SkillAgent`: runs the server's catalog-first agent (`skill/agentChat`) and renders its
-- `skill/agentEvent` notifications live in a scratch buffer. The server owns the conversation;
-- the plugin only remembers the session id so that the next prompt continues it.
local lsp_client = require('skill_lsp.client')
local scratch = require('skill_lsp.scratch')

local M = {}

local BUF_NAME = 'skill-lsp://agent'

local chat = {
  client_id = nil, --- @type integer?
  session_id = nil, --- @type string?
  request_id = nil, --- @type integer? the running skill/agentChat request
  finished = false, -- a done/error event (or a cancel) has already closed this reply
  text_open = false, -- the last line is streamed text that the next chunk continues
  cancelled = nil, --- @type { client_id: integer, id: integer }? waiting for the server's ack
}

local tokens = 0

--- The chat buffer, if one was created.
--- @return integer?
function M.buffer()
  return scratch.find(BUF_NAME)
end

local function ensure_buffer()
  return scratch.get(BUF_NAME, function(buf)
    vim.keymap.set('n', '<C-c>', M.cancel, { buffer = buf, desc = 'skill-lsp: cancel the agent chat' })
  end)
end

-- The buffer is read-only for the user; only the renderer writes to it. Windows whose cursor sat
-- on the last line keep following the stream; the others stay where the user scrolled.
local function edit(fn)
  local buf = M.buffer()
  if not buf then
    return
  end
  local before = vim.api.nvim_buf_line_count(buf)
  local following = vim.tbl_filter(function(win)
    return vim.api.nvim_win_get_cursor(win)[1] >= before
  end, vim.fn.win_findbuf(buf))
  scratch.write(buf, fn)
  local last = vim.api.nvim_buf_line_count(buf)
  for _, win in ipairs(following) do
    vim.api.nvim_win_set_cursor(win, { last, 0 })
  end
end

local function append_lines(lines)
  edit(function(buf)
    local count = vim.api.nvim_buf_line_count(buf)
    local empty = count == 1 and vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1] == ''
    vim.api.nvim_buf_set_lines(buf, empty and 0 or count, count, false, lines)
  end)
  chat.text_open = false
end

-- Text arrives in chunks that may split lines anywhere.
local function append_text(text)
  local parts = vim.split(text, '\n', { plain = true })
  if not chat.text_open then
    append_lines(parts)
  else
    edit(function(buf)
      local count = vim.api.nvim_buf_line_count(buf)
      local last = vim.api.nvim_buf_get_lines(buf, count - 1, count, false)[1]
      parts[1] = last .. parts[1]
      vim.api.nvim_buf_set_lines(buf, count - 1, count, false, parts)
    end)
  end
  chat.text_open = true
end

local function one_line(text, max)
  text = (text or ''):gsub('%s+', ' ')
  if #text > max then
    return text:sub(1, max - 1) .. '…'
  end
  return text
end

-- The server names the argument a reader looks for (`argument`: the skill, the path, the
-- pattern, the command's first line); a call without one shows its JSON input.
local function describe_call(event)
  local argument = event.argument
  if type(argument) ~= 'string' then
    argument = vim.json.encode(event.input or vim.empty_dict())
  end
  return ('→ %s %s'):format(event.name, one_line(argument, 120))
end

local function describe_result(event)
  local content = event.content or ''
  local lines = vim.split(content, '\n', { plain = true, trimempty = true })
  if event.isError then
    return ('  ✗ %s: %s'):format(event.name, one_line(lines[1], 160))
  end
  if #lines <= 1 then
    return ('  ← %s'):format(one_line(lines[1], 160))
  end
  return ('  ← %s: %d lines'):format(event.name, #lines)
end

local function close_reply(line)
  chat.finished = true
  local buf = M.buffer()
  local blank = buf and vim.api.nvim_buf_get_lines(buf, -2, -1, false)[1] == ''
  append_lines(blank and { line, '' } or { '', line, '' })
end

--- What one `skill/agentEvent` (docs/protocol.md) adds to the chat buffer: streamed text, a
--- line, or the line that closes the reply; nil for a kind this plugin does not know.
--- @param event table the notification's params
--- @return 'text'|'line'|'close'|nil action
--- @return string? text
function M.render(event)
  local kind = event.kind
  if kind == 'text' then
    return 'text', event.text or ''
  elseif kind == 'toolCall' then
    return 'line', describe_call(event)
  elseif kind == 'toolResult' then
    return 'line', describe_result(event)
  elseif kind == 'notice' then
    return 'line', '(' .. (event.text or '') .. ')'
  elseif kind == 'done' then
    return 'close', ('— done (%s)'):format(event.stopReason or '?')
  elseif kind == 'error' then
    return 'close', '— error: ' .. (event.message or '?')
  end
  return nil
end

--- Handler of the `skill/agentEvent` notification (installed in the client's `handlers`).
function M.on_event(_, event, ctx)
  -- Events of a chat some other code started.
  if not chat.request_id or ctx.client_id ~= chat.client_id or type(event) ~= 'table' then
    return
  end
  -- A fresh chat learns its session id from its first event; a chat cancelled before any
  -- output learns it from the closing `done` (stop reason `cancelled`) the server still sends.
  chat.session_id = chat.session_id or event.sessionId
  -- Stragglers of a cancelled or finished reply, or of another session.
  if chat.finished or event.sessionId ~= chat.session_id then
    return
  end
  local action, text = M.render(event)
  if action == 'text' then
    append_text(text)
  elseif action == 'line' then
    append_lines({ text })
  elseif action == 'close' then
    close_reply(text)
  end
end

local function on_response(request_id, err, result)
  if chat.request_id ~= request_id then
    return
  end
  chat.request_id = nil
  if result and result.sessionId then
    chat.session_id = result.sessionId
  end
  -- Errors before the loop starts (no provider configured, unknown session) come without events.
  if not chat.finished then
    if err then
      close_reply('— error: ' .. (err.message or tostring(err)))
    else
      close_reply(('— done (%s)'):format(result and result.stopReason or '?'))
    end
  end
end

-- The server hands the session back when it drops the cancelled request; a follow-up sent
-- before that would find the session busy. The acknowledgement usually takes milliseconds.
local function await_cancel_ack()
  local pending = chat.cancelled
  chat.cancelled = nil
  local client = pending and vim.lsp.get_client_by_id(pending.client_id)
  if client then
    vim.wait(2000, function()
      return client.requests[pending.id] == nil
    end, 10)
  end
end

--- Sends a prompt: continues the current conversation unless `opts.fresh`.
--- @param prompt string
--- @param opts? { fresh?: boolean }
function M.send(prompt, opts)
  opts = opts or {}
  prompt = vim.trim(prompt or '')
  if prompt == '' then
    vim.ui.input({ prompt = 'Skill agent: ' }, function(input)
      if input and vim.trim(input) ~= '' then
        M.send(input, opts)
      end
    end)
    return
  end
  if chat.request_id and chat.finished then
    -- The done event came; its response (with the session id) is a moment behind.
    vim.wait(2000, function()
      return chat.request_id == nil
    end, 10)
  end
  if lsp_client.still_running(chat) then
    vim.notify(
      'skill-lsp: the agent is still working; :SkillAgentCancel (or <C-c> in its buffer) stops it',
      vim.log.levels.WARN
    )
    return
  end
  local origin = vim.api.nvim_get_current_buf()
  local client = not opts.fresh and chat.client_id and vim.lsp.get_client_by_id(chat.client_id)
    or lsp_client.require(origin)
  if not client then
    return
  end
  if opts.fresh or client.id ~= chat.client_id then
    chat.session_id = nil
  end
  await_cancel_ack()

  local buf = ensure_buffer()
  scratch.show(buf)
  local header = {}
  if vim.api.nvim_buf_line_count(buf) > 1 then
    -- A rule marks where a fresh conversation starts; a follow-up just continues below.
    vim.list_extend(header, opts.fresh and { '---', '' } or {})
  end
  vim.list_extend(header, { '## You', '' })
  vim.list_extend(header, vim.split(prompt, '\n', { plain = true }))
  vim.list_extend(header, { '', '## Agent', '' })
  append_lines(header)

  tokens = tokens + 1
  local params = {
    prompt = prompt,
    sessionId = chat.session_id,
    workDoneToken = ('skill-lsp/agent/%d'):format(tokens),
  }
  chat.client_id, chat.finished = client.id, false
  local request_id
  local ok, id = lsp_client.request(client, 'skill/agentChat', params, function(err, result)
    on_response(request_id, err, result)
  end, vim.api.nvim_buf_is_valid(origin) and origin or nil)
  if not ok then
    close_reply('— error: the request could not be sent (is the server still running?)')
    return
  end
  request_id = id
  chat.request_id = id
end

--- Stops the running chat: `$/cancelRequest` makes the server drop the loop and its HTTP call.
function M.cancel()
  local id = chat.request_id
  if not id then
    vim.notify('skill-lsp: no agent chat is running', vim.log.levels.INFO)
    return
  end
  chat.request_id = nil
  local client = vim.lsp.get_client_by_id(chat.client_id)
  if client then
    lsp_client.cancel(client, id)
    chat.cancelled = { client_id = client.id, id = id }
  end
  close_reply('— cancelled')
end

return M
