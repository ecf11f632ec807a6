-- Finding the skill-lsp client and talking to it on Neovim 0.10 and 0.11 alike: 0.11 made the
-- client methods take `self` (`client:request`), 0.10 only has the closures (`client.request`).
local config = require('skill_lsp.config')

local M = {}

local has_011 = vim.fn.has('nvim-0.11') == 1

--- The client attached to `bufnr`, else any running skill-lsp client (commands may run from a
--- scratch buffer such as the agent chat).
--- @param bufnr? integer
--- @return vim.lsp.Client?
function M.get(bufnr)
  local attached = vim.lsp.get_clients({ name = config.name, bufnr = bufnr or 0 })
  if attached[1] then
    return attached[1]
  end
  return vim.lsp.get_clients({ name = config.name })[1]
end

--- Like get(), but tells the user what to do when there is none.
--- @param bufnr? integer
--- @return vim.lsp.Client?
function M.require(bufnr)
  local client = M.get(bufnr)
  if not client then
    vim.notify(
      'skill-lsp is not running: open a SKILL.md file first (and call setup() or vim.lsp.enable("skill_lsp"))',
      vim.log.levels.ERROR
    )
  end
  return client
end

--- @return boolean ok, integer? request_id
function M.request(client, method, params, handler, bufnr)
  if has_011 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

function M.request_sync(client, method, params, timeout_ms, bufnr)
  if has_011 then
    return client:request_sync(method, params, timeout_ms, bufnr)
  end
  return client.request_sync(method, params, timeout_ms, bufnr)
end

--- Whether the request `state.request_id` of client `state.client_id` still runs; forgets it
--- when its client went away.
--- @param state { request_id?: integer, client_id?: integer }
--- @return boolean
function M.still_running(state)
  if not state.request_id then
    return false
  end
  local running = vim.lsp.get_client_by_id(state.client_id)
  if running and running.requests[state.request_id] then
    return true
  end
  state.request_id = nil
  return false
end

function M.cancel(client, request_id)
  if has_011 then
    return client:cancel_request(request_id)
  end
  return client.cancel_request(request_id)
end

--- Reports an LSP error the way the other commands do.
--- @param what string
--- @param err table|string
function M.report(what, err)
  local message = type(err) == 'table' and err.message or tostring(err)
  vim.notify(('skill-lsp: %s failed: %s'):format(what, message), vim.log.levels.ERROR)
end

return M
