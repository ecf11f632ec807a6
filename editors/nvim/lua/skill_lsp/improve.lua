-- `:SkillImproveDescription` and the "Improve the description with the trigger evals…" code
-- action: the server's `skill/improveDescription` request (docs/protocol.md), its `$/progress`
-- shown as it arrives, then the best description as a diff in a scratch buffer and, if the user
-- accepts it, the server's edit applied to the SKILL.md buffer (never written to disk here). One
-- run at a time; `$/cancelRequest` stops it.
local config = require('skill_lsp.config')
local lsp_client = require('skill_lsp.client')
local progress = require('skill_lsp.progress')
local skill_run = require('skill_lsp.skill_run')
local scratch = require('skill_lsp.scratch')

local M = {}

local BUF_NAME = 'skill-lsp://improve'

local CANCELLED = -32800

--- The answers to the question after a run, Apply first (as VS Code asks): applying only
--- changes the buffer, which `u` takes back and nothing saves.
M.APPLY = 'Apply the new description'
M.DISCARD = 'Discard'

local run = {
  client_id = nil, --- @type integer?
  request_id = nil, --- @type integer? the running skill/improveDescription request
  token = nil, --- @type string? its work-done token
  label = nil, --- @type string? the skill's name, or its folder until the server names it
  message = nil, --- @type string? the last progress message
  last = nil, --- @type table? the target of the last run, for :SkillImproveDescription in the buffer
}

local tokens = 0

local notes = progress.new()

--- The improve buffer, if one was created.
--- @return integer?
function M.buffer()
  return scratch.find(BUF_NAME)
end

local function ensure_buffer()
  return scratch.cancellable(BUF_NAME, 'skill-lsp: cancel improving the description', function()
    M.cancel()
  end)
end

local function set_lines(lines)
  scratch.set_lines(BUF_NAME, lines)
end

local function append_lines(lines)
  scratch.append_lines(BUF_NAME, lines)
end

local one_line = scratch.one_line

local function header()
  return ('# Improve the description: %s'):format(run.label or '?')
end

--- The unified diff of two texts, `---`/`+++` lines first (vim.text.diff on 0.12, vim.diff before).
--- @param current string
--- @param proposed string
--- @param name string the file's name in the header
--- @return string[]
function M.diff(current, proposed, name)
  local diff = (vim.text and vim.text.diff) or vim.diff
  local hunks = diff(current, proposed, { result_type = 'unified', ctxlen = 3 }) or ''
  local lines = { '--- ' .. name, '+++ ' .. name .. ' (proposed)' }
  for _, line in ipairs(vim.split(hunks, '\n', { plain = true })) do
    table.insert(lines, line)
  end
  if lines[#lines] == '' then
    table.remove(lines)
  end
  return lines
end

--- One line per description tried: its index (`*` marks the best), train and test scores, the
--- description; the first is the file's. Under a target, a line below says what the client did
--- with a description it did not list whole.
--- @param improve table the result's `improve`
--- @return string[]
function M.format_iterations(improve)
  local lines = { '       train  test  description' }
  for index, it in ipairs(type(improve.iterations) == 'table' and improve.iterations or {}) do
    local number = index - 1
    local mark = number == improve.best and '*' or ' '
    local label = number == 0 and "the file's: " or ''
    table.insert(
      lines,
      ('%s %3d  %-5s  %-4s  %s%s'):format(
        mark,
        number,
        ('%d/%d'):format(it.train_passed or 0, it.train_total or 0),
        ('%d/%d'):format(it.test_passed or 0, it.test_total or 0),
        label,
        one_line(it.description)
      )
    )
    if type(it.target_note) == 'string' then
      table.insert(lines, '                    ' .. one_line(it.target_note))
    end
  end
  return lines
end

--- The buffer's lines for a `skill/improveDescription` result: the summary, the table of
--- descriptions tried, warnings, and the diff when there is a change to offer.
--- @param result table
--- @return string[]
function M.format_result(result)
  local improve = type(result.improve) == 'table' and result.improve or {}
  local lines = { header(), '', one_line(result.summary) }
  for _, warning in ipairs(type(improve.warnings) == 'table' and improve.warnings or {}) do
    table.insert(lines, 'Warning: ' .. one_line(warning))
  end
  if type(result.warning) == 'string' then
    table.insert(lines, 'Warning: ' .. one_line(result.warning))
  end
  table.insert(lines, '')
  vim.list_extend(lines, M.format_iterations(improve))
  if type(result.proposed) == 'string' and type(result.current) == 'string' then
    local name = type(result.uri) == 'string' and vim.fn.fnamemodify(vim.uri_to_fname(result.uri), ':~:.')
      or 'SKILL.md'
    vim.list_extend(lines, { '', '```diff' })
    vim.list_extend(lines, M.diff(result.current, result.proposed, name))
    table.insert(lines, '```')
  end
  return lines
end

-- The buffer's last line is the progress while the request runs.
local function show_progress(message)
  local buf = M.buffer()
  if not buf then
    return
  end
  local count = vim.api.nvim_buf_line_count(buf)
  scratch.write(buf, function()
    vim.api.nvim_buf_set_lines(buf, count - 1, count, false, { 'Progress: ' .. message })
  end)
end

--- The `$/progress` of the running request (from the LspProgress autocommand): shown in the
--- buffer's last line and noted (throttled); the `end` is left to the response.
--- @param data { client_id: integer, params: { token: any, value: table } }
function M.on_progress(data)
  if not run.request_id or type(data) ~= 'table' or data.client_id ~= run.client_id then
    return
  end
  local params = data.params or {}
  local value = type(params.value) == 'table' and params.value or {}
  if params.token ~= run.token or value.kind == 'end' or type(value.message) ~= 'string' then
    return
  end
  run.message = value.message
  show_progress(value.message)
  notes:note(('skill-lsp: improving the description of %s: %s'):format(run.label, value.message))
end

vim.api.nvim_create_autocmd('LspProgress', {
  group = vim.api.nvim_create_augroup('skill_lsp_improve', { clear = true }),
  callback = function(args)
    M.on_progress(args.data)
  end,
})

--- The status of the current (or last) run: whether it runs, its skill, its last progress message.
--- @return { running: boolean, skill: string?, message: string? }
function M.status()
  return { running = run.request_id ~= nil, skill = run.label, message = run.message }
end

local function buffer_text(bufnr)
  local text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
  return vim.bo[bufnr].eol and text .. '\n' or text
end

--- Why `result.edit` cannot be applied to the buffer as it stands, or nil: the buffer changed
--- since the server made the edit (a newer version than the edit's, or another text).
--- @param result table
--- @return string? reason
--- @return integer? bufnr
function M.stale(result)
  local bufnr = vim.uri_to_bufnr(result.uri)
  if not vim.api.nvim_buf_is_loaded(bufnr) then
    vim.fn.bufload(bufnr)
  end
  local name = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':~:.')
  local changed = ('%s changed while the description was being improved'):format(name)
  for _, change in ipairs(type(result.edit.documentChanges) == 'table' and result.edit.documentChanges or {}) do
    local version = type(change.textDocument) == 'table' and change.textDocument.version or nil
    if type(version) == 'number' and vim.lsp.util.buf_versions[bufnr] ~= version then
      return changed, bufnr
    end
  end
  -- Without a version (a file that was not open), the text says it; a missing last newline is
  -- no change.
  local now, before = buffer_text(bufnr), result.current
  if now ~= before and now:gsub('\n$', '') ~= before:gsub('\n$', '') then
    return changed, bufnr
  end
  return nil, bufnr
end

--- Applies the server's edit after checking it still fits the buffer; the buffer is left
--- modified (the user saves it).
--- @param client vim.lsp.Client
--- @param result table
--- @return boolean applied
function M.apply(client, result)
  local reason, bufnr = M.stale(result)
  if reason then
    local message = reason .. ': the new description was not applied. Run it again (the measured runs are cached).'
    append_lines({ '', '— not applied: ' .. message })
    vim.notify('skill-lsp: ' .. message, vim.log.levels.ERROR)
    return false
  end
  vim.lsp.util.apply_workspace_edit(result.edit, client.offset_encoding)
  local name = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':~:.')
  append_lines({ '', ('— applied to %s (not saved: :write keeps it, u takes it back)'):format(name) })
  vim.notify(('skill-lsp: the new description of %s is in %s (not saved)'):format(run.label, name), vim.log.levels.INFO)
  return true
end

local function finish(request_id, err, result)
  if run.request_id ~= request_id then
    return -- cancelled from here, or superseded
  end
  run.request_id = nil
  notes:stop()
  if err then
    if err.code == CANCELLED then
      append_lines({ '', '— cancelled' })
      return
    end
    local message = err.message or tostring(err)
    append_lines({ '', 'Error: ' .. message })
    vim.notify(
      ('skill-lsp: improving the description of %s failed: %s'):format(run.label, message),
      vim.log.levels.ERROR
    )
    return
  end
  if type(result) ~= 'table' then
    append_lines({ '', 'Error: the server sent no result' })
    return
  end
  if type(result.improve) == 'table' and type(result.improve.skill) == 'string' then
    run.label = result.improve.skill
  end
  set_lines(M.format_result(result))
  local summary = one_line(result.summary)
  if type(result.edit) ~= 'table' or type(result.proposed) ~= 'string' then
    local text = type(result.warning) == 'string' and ('%s; %s'):format(summary, result.warning) or summary
    append_lines({ '', '— nothing to apply' })
    vim.notify(('skill-lsp: %s: %s'):format(run.label, text), vim.log.levels.INFO)
    return
  end
  local client = vim.lsp.get_client_by_id(run.client_id)
  -- The question is about the diff: show it (a hidden buffer gets a window again).
  local buf = M.buffer()
  if buf then
    scratch.show(buf)
  end
  local items = { M.APPLY, M.DISCARD }
  vim.ui.select(items, {
    prompt = ('skill-lsp: %s: %s. Apply the new description (the diff is in %s)?'):format(run.label, summary, BUF_NAME),
    kind = 'skill_lsp_improve_apply',
  }, function(choice)
    if choice == M.APPLY and client then
      M.apply(client, result)
    else
      append_lines({ '', '— discarded: the file is unchanged' })
    end
  end)
end

--- Starts a run. `target.uri` (a SKILL.md) or `target.skill` (a name) says which skill.
--- @param target { uri?: string, skill?: string, client_id?: integer }
function M.start(target)
  if lsp_client.still_running(run) then
    vim.notify(
      'skill-lsp: a description is being improved already;'
        .. ' :SkillImproveDescriptionCancel (or <C-c> in its buffer) stops it',
      vim.log.levels.WARN
    )
    return
  end
  local origin = vim.api.nvim_get_current_buf()
  local client = skill_run.client_of(target, origin)
  if not client then
    return
  end
  -- The SKILL.md's buffer, if open: its pending changes reach the server before the request.
  local skill_buf
  if target.uri then
    local bufnr = vim.uri_to_bufnr(target.uri)
    if vim.api.nvim_buf_is_loaded(bufnr) and lsp_client.get(bufnr) == client then
      skill_buf = bufnr
    end
  end
  local request_buf = skill_buf
    or (vim.api.nvim_buf_is_valid(origin) and lsp_client.get(origin) == client and origin or nil)
  tokens = tokens + 1
  local params = vim.tbl_extend('force', config.improve_params(), { skill = target.skill, uri = target.uri })
  run.last = { skill = target.skill, uri = target.uri, client_id = client.id }
  run.client_id, run.message = client.id, nil
  run.label = skill_run.label(target)

  local buf = ensure_buffer()
  scratch.show(buf)
  set_lines({ header(), '', 'Estimating… (nothing is sent to the model yet)' })
  local function send(estimate)
    local token = ('skill-lsp/improve/%d'):format(tokens)
    set_lines({
      header(),
      '',
      'Running… (<C-c> here or :SkillImproveDescriptionCancel stops it)',
      estimate and ('Estimate: %s'):format(estimate) or '',
      '',
      'Progress: starting',
    })
    local request_id
    local ok, id = lsp_client.request(
      client,
      'skill/improveDescription',
      vim.tbl_extend('force', params, { workDoneToken = token }),
      function(err, result)
        finish(request_id, err, result)
      end,
      request_buf
    )
    if not ok then
      append_lines({ 'Error: the request could not be sent (is the server still running?)' })
      return
    end
    request_id = id
    run.request_id, run.token = id, token
  end
  -- What the whole loop may send, before anything is (the server's dry run), asked about when
  -- it may send more requests than config.confirm_above_requests, as the trigger evals do.
  local dry = vim.tbl_extend('force', params, { dryRun = true })
  skill_run.estimate_then(client, 'skill/improveDescription', dry, request_buf, {
    go = 'Improve the description',
    prompt = function(text)
      return ('skill-lsp: improving the description of %s may send %s. Go on?'):format(run.label, text)
    end,
    kind = 'skill_lsp_improve_estimate',
    refused = function(text, limit)
      set_lines({ header(), '', ('Not run: %s, above confirm_above_requests (%d).'):format(text, limit) })
    end,
  }, send)
end

--- `:SkillImproveDescription [skill]`: the named skill, else the skill of the current SKILL.md
--- (or eval file), else (in the improve buffer) the last one again.
--- @param name? string
function M.run(name)
  local target = skill_run.command_target(
    name,
    M.buffer(),
    run.last,
    ':SkillImproveDescription needs a skill name, or a SKILL.md buffer'
  )
  if target then
    M.start(target)
  end
end

--- The client-side command `skillLsp.improveDescription` of the code action; its argument is
--- `{ skill, uri }`.
--- @param command lsp.Command
--- @param ctx table
function M.run_action(command, ctx)
  M.start(skill_run.argument_target(command, ctx))
end

--- Stops the running request: `$/cancelRequest`; finished runs stay in the server's cache.
function M.cancel()
  if skill_run.cancel(run, notes, 'no description is being improved') then
    append_lines({ '', '— cancelled: the file is unchanged' })
  end
end

return M
