-- `:SkillEval` and the "Run trigger evals" code lens: the server's `skill/runEvals` request
-- (docs/protocol.md), its `skill/evalResult` notifications shown as they arrive, and the report
-- in a scratch buffer. One run at a time; `$/cancelRequest` stops it.
local config = require('skill_lsp.config')
local lsp_client = require('skill_lsp.client')
local progress = require('skill_lsp.progress')
local skill_run = require('skill_lsp.skill_run')
local scratch = require('skill_lsp.scratch')

local M = {}

local BUF_NAME = 'skill-lsp://evals'

local CANCELLED = -32800

local run = {
  client_id = nil, --- @type integer?
  request_id = nil, --- @type integer? the running skill/runEvals request
  label = nil, --- @type string? the skill's name, or its SKILL.md path until the server names it
  done = 0, -- queries finished so far
  last = nil, --- @type table? params of the last run, for :SkillEval in the report buffer
}

local tokens = 0

--- The report buffer, if one was created.
--- @return integer?
function M.buffer()
  return scratch.find(BUF_NAME)
end

local function ensure_buffer()
  return scratch.cancellable(BUF_NAME, 'skill-lsp: cancel the trigger evals', function()
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

--- `loaded docx instead`, with the share of runs when not every run did (`loaded docx 1/3, pdf
--- 1/3 instead`); nil when the query never loaded another skill.
--- @param result table one object of `results`
--- @return string?
function M.loaded_instead(result)
  local counts = type(result.loaded_instead) == 'table' and result.loaded_instead or {}
  local names = vim.tbl_keys(counts)
  if #names == 0 then
    return nil
  end
  table.sort(names)
  local runs = result.runs or 0
  local parts = vim.tbl_map(function(name)
    local count = counts[name]
    if type(count) == 'number' and count < runs then
      return ('%s %d/%d'):format(name, count, runs)
    end
    return name
  end, names)
  return ('loaded %s instead'):format(table.concat(parts, ', '))
end

--- One line per query: verdict, expectation, how often the skill was loaded, the query. The
--- verdict is the server's: `PASS?`/`FAIL?` when the query's 95 % interval straddles the
--- threshold (undecided: more runs could turn it), as the CLI marks it.
--- @param result table one object of `results` (or a `skill/evalResult`'s `result`)
--- @return string
function M.format_result(result)
  local mark = result.verdict == 'undecided' and '?' or ' '
  local line = ('%s%s %-10s  %d/%d  %s'):format(
    result.pass and 'PASS' or 'FAIL',
    mark,
    result.should_trigger and 'trigger' or 'no trigger',
    result.triggers or 0,
    result.runs or 0,
    one_line(result.query)
  )
  local instead = M.loaded_instead(result)
  if instead then
    line = line .. '  — ' .. instead
  end
  return line
end

--- `2/3 passed — 1 missed, 0 wrongly loaded`. Missed: should-trigger queries that failed;
--- wrongly loaded: should-not-trigger queries that failed (the code lens's words); then how
--- many of them are undecided (`· 3 undecided: run more`).
--- @param results table[]
--- @return string
function M.summary(results)
  local passed, missed, wrongly, undecided = 0, 0, 0, 0
  for _, result in ipairs(results) do
    if result.verdict == 'undecided' then
      undecided = undecided + 1
    end
    if result.pass then
      passed = passed + 1
    elseif result.should_trigger then
      missed = missed + 1
    else
      wrongly = wrongly + 1
    end
  end
  local line = ('%d/%d passed — %d missed, %d wrongly loaded'):format(passed, #results, missed, wrongly)
  if undecided > 0 then
    line = ('%s · %d undecided: run more (evals.runs, evals.auto_runs)'):format(line, undecided)
  end
  return line
end

--- The report buffer's lines for a `skill/runEvals` result.
--- @param report table the JSON of `skill-lsp eval --format json` for one skill
--- @return string[]
function M.format_report(report)
  local results = type(report.results) == 'table' and report.results or {}
  local lines = {
    ('# Trigger evals: %s'):format(report.skill_name or '?'),
    '',
    M.summary(results),
  }
  local details = {}
  local info = type(report.run) == 'table' and report.run or {}
  if type(info.model) == 'string' and info.model ~= '' then
    table.insert(details, 'model ' .. info.model)
  end
  local runs = info.runs_per_query or (results[1] and results[1].runs)
  if type(runs) == 'number' then
    table.insert(details, ('%d run(s) per query'):format(runs))
  end
  if type(info.cached_runs) == 'number' and info.cached_runs > 0 then
    table.insert(details, ('%d of %d runs from the cache'):format(info.cached_runs, info.runs or info.cached_runs))
  end
  if report.candidate then
    table.insert(details, 'candidate description')
  end
  if #details > 0 then
    table.insert(lines, table.concat(details, ', '))
  end
  -- Under a target (`evals.target`): what the client did with the skill, or whose listing it was.
  local target = type(report.target) == 'table' and report.target or nil
  if target then
    table.insert(lines, type(target.note) == 'string' and one_line(target.note) or ('as %s lists it'):format(target.client))
  end
  table.insert(lines, '')
  for _, result in ipairs(results) do
    table.insert(lines, M.format_result(result))
  end
  return lines
end

--- After a run the server has a new lens title and a `trigger-evals` diagnostic for the skill:
--- refreshes the lenses of the client's SKILL.md buffers, and pulls their diagnostics again
--- (Neovim 0.11 pulls only on open and change). Called after a run, and when the server sends
--- workspace/codeLens/refresh.
--- @param client_id integer
function M.refresh_buffers(client_id)
  local client = vim.lsp.get_client_by_id(client_id)
  if not client then
    return
  end
  local pull = client.server_capabilities.diagnosticProvider ~= nil
  for bufnr in pairs(client.attached_buffers or {}) do
    if vim.api.nvim_buf_is_loaded(bufnr) and config.is_skill_file(bufnr) then
      if config.codelens then
        vim.lsp.codelens.refresh({ bufnr = bufnr })
      end
      if pull then
        -- No handler: Neovim's own textDocument/diagnostic handler stores the result.
        lsp_client.request(client, 'textDocument/diagnostic', {
          textDocument = vim.lsp.util.make_text_document_params(bufnr),
        }, nil, bufnr)
      end
    end
  end
end

local codelens_group = vim.api.nvim_create_augroup('skill_lsp_codelens', { clear = true })

--- Shows the server's lenses in a SKILL.md buffer and keeps them fresh (called on LspAttach).
--- @param client_id integer
--- @param bufnr integer
function M.on_attach(client_id, bufnr)
  if not config.codelens or not config.is_skill_file(bufnr) then
    return
  end
  local client = vim.lsp.get_client_by_id(client_id)
  if not client or not client.server_capabilities.codeLensProvider then
    return
  end
  vim.api.nvim_clear_autocmds({ group = codelens_group, buffer = bufnr })
  vim.api.nvim_create_autocmd({ 'BufEnter', 'BufWritePost', 'InsertLeave' }, {
    group = codelens_group,
    buffer = bufnr,
    callback = function(args)
      vim.lsp.codelens.refresh({ bufnr = args.buf })
    end,
  })
  vim.lsp.codelens.refresh({ bufnr = bufnr })
end

-- Progress notes are throttled (skill_lsp.progress); the buffer gets every line.
local notes = progress.new()

--- The state of the current (or last) run: whether it runs, its skill, queries finished.
--- @return { running: boolean, skill: string?, done: integer }
function M.status()
  return { running = run.request_id ~= nil, skill = run.label, done = run.done }
end

--- Handler of `skill/evalResult` (installed in the client's `handlers`): one finished query.
function M.on_result(_, params, ctx)
  if not run.request_id or ctx.client_id ~= run.client_id or type(params) ~= 'table' then
    return
  end
  local result = type(params.result) == 'table' and params.result or {}
  run.done = run.done + 1
  if type(params.skill) == 'string' then
    run.label = params.skill
  end
  local line = M.format_result(result)
  append_lines({ line })
  notes:note(('skill-lsp: trigger evals %s: %d done, last: %s'):format(run.label, run.done, line))
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
    vim.notify(('skill-lsp: trigger evals of %s failed: %s'):format(run.label, message), vim.log.levels.ERROR)
    return
  end
  if type(result) ~= 'table' then
    append_lines({ '', 'Error: the server sent no result' })
    return
  end
  set_lines(M.format_report(result))
  vim.notify(
    ('skill-lsp: trigger evals %s: %s'):format(result.skill_name or run.label, M.summary(result.results or {})),
    vim.log.levels.INFO
  )
  M.refresh_buffers(run.client_id)
end

--- Starts a run. `target.uri` (a SKILL.md) or `target.skill` (a name) says which skill.
--- @param target { uri?: string, skill?: string, client_id?: integer }
function M.start(target)
  if lsp_client.still_running(run) then
    vim.notify(
      'skill-lsp: trigger evals are still running; :SkillEvalCancel (or <C-c> in their buffer) stops them',
      vim.log.levels.WARN
    )
    return
  end
  local origin = vim.api.nvim_get_current_buf()
  local client = skill_run.client_of(target, origin)
  if not client then
    return
  end
  tokens = tokens + 1
  local params = vim.tbl_extend('force', config.listing_params(), {
    skill = target.skill,
    uri = target.uri,
    runs = config.runs,
    autoRuns = config.auto_runs or nil,
    workDoneToken = ('skill-lsp/evals/%d'):format(tokens),
  })
  run.last = { skill = target.skill, uri = target.uri, client_id = client.id }
  run.client_id, run.done = client.id, 0
  run.label = skill_run.label(target)

  local buf = ensure_buffer()
  scratch.show(buf)
  set_lines({
    ('# Trigger evals: %s'):format(run.label),
    '',
    'Estimating… (nothing is sent to the model yet)',
    '',
  })
  local function send(estimate)
    set_lines({
      ('# Trigger evals: %s'):format(run.label),
      '',
      'Running… (<C-c> here or :SkillEvalCancel stops it)',
      estimate and ('Estimate: %s'):format(estimate) or '',
    })
    local request_id
    local ok, id = lsp_client.request(client, 'skill/runEvals', params, function(err, result)
      finish(request_id, err, result)
    end, vim.api.nvim_buf_is_valid(origin) and lsp_client.get(origin) == client and origin or nil)
    if not ok then
      append_lines({ 'Error: the request could not be sent (is the server still running?)' })
      return
    end
    request_id = id
    run.request_id = id
  end
  -- What the run would send, before anything is (the server's dry run): shown above the
  -- results, and asked about when it may send more requests than config.confirm_above_requests.
  -- The run's own params (its target and window included), without its progress token.
  local dry = vim.tbl_extend('force', params, { dryRun = true })
  dry.workDoneToken = nil
  skill_run.estimate_then(client, 'skill/runEvals', dry, nil, {
    go = 'Run the trigger evals',
    prompt = function(text)
      return ('skill-lsp: trigger evals of %s may send %s. Run them?'):format(run.label, text)
    end,
    kind = 'skill_lsp_eval_estimate',
    refused = function(text, limit)
      set_lines({
        ('# Trigger evals: %s'):format(run.label),
        '',
        ('Not run: %s, above confirm_above_requests (%d).'):format(text, limit),
      })
    end,
  }, send)
end

--- `:SkillEval [skill]`: the named skill, else the skill of the current SKILL.md or
--- evals/triggers.json, else (in the report buffer) the last run again.
--- @param name? string
function M.run(name)
  local target = skill_run.command_target(
    name,
    M.buffer(),
    run.last,
    ':SkillEval needs a skill name, or a SKILL.md or evals/triggers.json buffer'
  )
  if target then
    M.start(target)
  end
end

--- The client-side command `skillLsp.runTriggerEvals` of the code lens; its argument is
--- `{ skill, uri }`.
--- @param command lsp.Command
--- @param ctx table
function M.run_lens(command, ctx)
  M.start(skill_run.argument_target(command, ctx))
end

--- Stops the running evals: `$/cancelRequest`; finished runs stay in the server's cache.
function M.cancel()
  if skill_run.cancel(run, notes, 'no trigger evals are running') then
    append_lines({ '', '— cancelled' })
  end
end

return M
