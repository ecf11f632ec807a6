-- What the commands that run the trigger evals on one skill share (`:SkillEval` in eval.lua,
-- `:SkillImproveDescription` in improve.lua): which skill a command, a code lens or a code action
-- names, the server's estimate asked about before anything is sent, and cancelling the request.
-- Each run's state is a table `{ client_id, request_id, last, ... }` owned by its module.
local config = require('skill_lsp.config')
local lsp_client = require('skill_lsp.client')

local M = {}

--- The skill a command names: `name` when given, else the skill of the current SKILL.md (or eval
--- file), else, in the command's own scratch buffer `own_buf`, the last run's target `last`.
--- nil after telling the user what the command needs (`needs`).
--- @param name? string
--- @param own_buf? integer
--- @param last? table
--- @param needs string
--- @return { uri?: string, skill?: string, client_id?: integer }?
function M.command_target(name, own_buf, last, needs)
  name = vim.trim(name or '')
  if name ~= '' then
    return { skill = name }
  end
  local bufnr = vim.api.nvim_get_current_buf()
  local file = config.skill_file(bufnr)
  if file then
    local attached = vim.lsp.get_clients({ name = config.name, bufnr = bufnr })[1]
    return { uri = vim.uri_from_fname(file), client_id = attached and attached.id }
  end
  if bufnr == own_buf and last then
    return last
  end
  vim.notify('skill-lsp: ' .. needs, vim.log.levels.ERROR)
  return nil
end

--- The skill of a client-side command sent by the server (a code lens or a code action): its
--- argument is `{ skill, uri }`, the URI first.
--- @param command lsp.Command
--- @param ctx table
--- @return { uri?: string, skill?: string, client_id?: integer }
function M.argument_target(command, ctx)
  local argument = command.arguments and command.arguments[1] or {}
  return { uri = argument.uri, skill = argument.uri == nil and argument.skill or nil, client_id = ctx.client_id }
end

--- What a run is called until the server names the skill: the name asked for, else the
--- SKILL.md's folder.
--- @param target { uri?: string, skill?: string }
--- @return string
function M.label(target)
  return target.skill or (target.uri and vim.fs.basename(vim.fs.dirname(vim.uri_to_fname(target.uri)))) or '?'
end

--- The client to run `target` on: the one it names, else the one of buffer `origin` (or says
--- that none runs).
--- @param target { client_id?: integer }
--- @param origin integer
--- @return vim.lsp.Client?
function M.client_of(target, origin)
  return target.client_id and vim.lsp.get_client_by_id(target.client_id) or lsp_client.require(origin)
end

--- Asks the server what a run would send before anything is (its dry run: `dry`, the run's
--- params with `dryRun`), then calls `send(summary)` when it may send at most
--- config.confirm_above_requests requests or the user says go on; `ask.refused(summary, limit)`
--- when the user says no; `send(nil)` when there is no usable estimate, as the real request
--- reports the same trouble in its own words.
--- @param client vim.lsp.Client
--- @param method string
--- @param dry table
--- @param bufnr? integer
--- @param ask { go: string, prompt: fun(summary: string): string, kind: string, refused: fun(summary: string, limit: integer) }
--- @param send fun(summary: string?)
function M.estimate_then(client, method, dry, bufnr, ask, send)
  local sent = lsp_client.request(client, method, dry, function(err, estimate)
    local usable = not err and type(estimate) == 'table' and type(estimate.dry_run) == 'table'
    if not usable or type(estimate.summary) ~= 'string' then
      return send(nil)
    end
    -- The server words it, as the CLI's --dry-run.
    local text = estimate.summary
    local limit = config.confirm_above_requests
    if limit <= 0 or (estimate.dry_run.requests_at_most or 0) <= limit then
      return send(text)
    end
    local items = { 'Cancel', ask.go }
    vim.ui.select(items, { prompt = ask.prompt(text), kind = ask.kind }, function(choice)
      if choice == items[2] then
        return send(text)
      end
      ask.refused(text, limit)
    end)
  end, bufnr)
  if not sent then
    send(nil)
  end
end

--- Cancels the running request of `run` (`$/cancelRequest`; finished runs stay in the server's
--- cache) and stops its progress `notes`. Returns false after saying `idle` when none runs.
--- @param run { request_id?: integer, client_id?: integer }
--- @param notes table
--- @param idle string
--- @return boolean
function M.cancel(run, notes, idle)
  local id = run.request_id
  if not id then
    vim.notify('skill-lsp: ' .. idle, vim.log.levels.INFO)
    return false
  end
  run.request_id = nil
  notes:stop()
  local client = vim.lsp.get_client_by_id(run.client_id)
  if client then
    lsp_client.cancel(client, id)
  end
  return true
end

return M
