-- Progress notes of the long-running requests (trigger evals, improving a description), throttled:
-- at most one vim.notify per interval, the latest state, each cut to one screen line, so that a
-- burst of reports (runs answered from the cache come at once) does not stack messages into a
-- hit-enter prompt.
local M = {}

--- The least time between two notes.
M.INTERVAL_MS = 300

--- @class skill_lsp.Notes
--- @field note fun(self: skill_lsp.Notes, message: string) shows it now, or the latest at the next slot
--- @field stop fun(self: skill_lsp.Notes) drops a pending note

--- A throttled notifier.
--- @param interval_ms? integer default M.INTERVAL_MS
--- @return skill_lsp.Notes
function M.new(interval_ms)
  local interval = interval_ms or M.INTERVAL_MS
  local state = { timer = nil, last_ms = 0, pending = nil }

  local function flush()
    if state.pending then
      local message = state.pending
      state.pending = nil
      state.last_ms = vim.uv.now()
      vim.notify(message, vim.log.levels.INFO)
    end
  end

  local function stop_timer()
    if state.timer then
      state.timer:stop()
      state.timer:close()
      state.timer = nil
    end
  end

  local notes = {}

  function notes.note(_, message)
    -- One screen line: a wrapped message would ask for <CR>.
    local width = math.max(20, vim.o.columns - 12)
    if vim.fn.strdisplaywidth(message) > width then
      message = vim.fn.strcharpart(message, 0, width - 1) .. '…'
    end
    state.pending = message
    local wait = interval - (vim.uv.now() - state.last_ms)
    if wait <= 0 then
      flush()
    elseif not state.timer then
      state.timer = vim.uv.new_timer()
      state.timer:start(
        wait,
        0,
        vim.schedule_wrap(function()
          stop_timer()
          flush()
        end)
      )
    end
  end

  function notes.stop(_)
    stop_timer()
    state.pending = nil
  end

  return notes
end

return M
