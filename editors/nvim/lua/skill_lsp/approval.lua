-- `window/showMessageRequest` for the skill-lsp client only: the agent asks before it runs
-- `bash`, `write_file` or `edit_file` (Allow once / Allow for this chat / Deny). The choice goes
-- through vim.ui.select so picker plugins (and tests) can take over.
local M = {}

--- The actions in the order they are offered: `Deny` first, so the first entry (what a hasty
--- <CR> or `1` picks in most pickers) never runs anything; the others keep the server's order.
--- @param actions lsp.MessageActionItem[]
--- @return lsp.MessageActionItem[]
function M.order(actions)
  local ordered = {}
  for _, action in ipairs(actions) do
    if action.title == 'Deny' then
      table.insert(ordered, 1, action)
    else
      table.insert(ordered, action)
    end
  end
  return ordered
end

-- How long the 0.10 fallback blocks for an answer before it denies.
local LEGACY_WAIT_MS = 5 * 60 * 1000

--- @param params lsp.ShowMessageRequestParams
--- @return lsp.MessageActionItem|vim.NIL
function M.handler(_, params)
  local actions = params.actions or {}
  if #actions == 0 then
    -- Nothing to choose from: just show the message. The reply must still be non-nil.
    vim.notify(params.message, vim.log.levels.INFO)
    return vim.NIL
  end
  actions = M.order(actions)
  -- The whole message, never shortened: it names the command or file the tool would touch (the
  -- server itself says so when a very long command is cut).
  local opts = {
    prompt = 'skill-lsp: ' .. params.message,
    kind = 'skill_lsp_approval',
    format_item = function(action)
      return action.title
    end,
  }
  -- The reply to the server is this function's return value; vim.NIL (JSON null) is read as
  -- "no choice", which the server treats as Deny.
  local co, is_main = coroutine.running()
  if co and not is_main then
    -- Neovim 0.11 runs server requests in a coroutine and answers once it returns, so a
    -- picker that answers later (asynchronously) is fine: yield until it does.
    vim.ui.select(actions, opts, function(choice)
      -- Resume from the event loop: the default vim.ui.select answers before we yield.
      vim.schedule(function()
        coroutine.resume(co, choice or vim.NIL)
      end)
    end)
    return coroutine.yield()
  end
  -- Older Neovim wants the answer synchronously. The default vim.ui.select (inputlist) answers
  -- before returning; for an asynchronous picker, wait on the event loop.
  local answer
  vim.ui.select(actions, opts, function(choice)
    answer = choice or vim.NIL
  end)
  if answer == nil then
    vim.wait(LEGACY_WAIT_MS, function()
      return answer ~= nil
    end, 50)
  end
  return answer or vim.NIL
end

return M
