-- The plugin's read-only Markdown scratch buffers (the agent chat, the catalog), one per name.
local M = {}

local buffers = {} --- @type table<string, integer>

local function prepare(buf)
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'hide'
  vim.bo[buf].swapfile = false
  vim.bo[buf].modifiable = false
  if vim.bo[buf].filetype ~= 'markdown' then
    vim.bo[buf].filetype = 'markdown'
  end
end

--- The buffer called `name`, created (and passed to `init`) the first time.
--- @param name string
--- @param init? fun(buf: integer)
--- @return integer
function M.get(name, init)
  local buf = buffers[name]
  if buf and vim.api.nvim_buf_is_valid(buf) then
    -- `:bdelete` unloads it but keeps the name taken: load it again, empty.
    if not vim.api.nvim_buf_is_loaded(buf) then
      vim.fn.bufload(buf)
      prepare(buf)
    end
    return buf
  end
  buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(buf, name)
  prepare(buf)
  if init then
    init(buf)
  end
  buffers[name] = buf
  return buf
end

--- The buffer called `name` if it exists and is loaded.
--- @param name string
--- @return integer?
function M.find(name)
  local buf = buffers[name]
  if buf and vim.api.nvim_buf_is_valid(buf) and vim.api.nvim_buf_is_loaded(buf) then
    return buf
  end
end

--- Runs `fn(buf)` with the buffer writable.
function M.write(buf, fn)
  vim.bo[buf].modifiable = true
  local ok, err = pcall(fn, buf)
  vim.bo[buf].modifiable = false
  if not ok then
    error(err, 0)
  end
end

--- Shows the buffer in a window (a new split at the bottom if none shows it) and focuses it.
--- @return integer window
function M.show(buf)
  local win = vim.fn.bufwinid(buf)
  if win == -1 then
    vim.cmd('botright split')
    win = vim.api.nvim_get_current_win()
    vim.api.nvim_win_set_buf(win, buf)
    vim.wo[win].wrap = true
    vim.wo[win].linebreak = true
  end
  vim.api.nvim_set_current_win(win)
  return win
end

--- Replaces the lines of the buffer called `name`, if it is there.
--- @param name string
--- @param lines string[]
function M.set_lines(name, lines)
  local buf = M.find(name)
  if buf then
    M.write(buf, function()
      vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
    end)
  end
end

--- Adds `lines` at the end of the buffer called `name`, if it is there.
--- @param name string
--- @param lines string[]
function M.append_lines(name, lines)
  local buf = M.find(name)
  if buf then
    M.write(buf, function()
      vim.api.nvim_buf_set_lines(buf, -1, -1, false, lines)
    end)
  end
end

--- The buffer called `name` with `<C-c>` bound to `cancel` (a long run's report).
--- @param name string
--- @param desc string the mapping's description
--- @param cancel fun()
--- @return integer
function M.cancellable(name, desc, cancel)
  return M.get(name, function(buf)
    vim.keymap.set('n', '<C-c>', cancel, { buffer = buf, desc = desc })
  end)
end

--- `text` on one line: every run of white space one space, trimmed.
--- @param text string?
--- @return string
function M.one_line(text)
  return vim.trim((text or ''):gsub('%s+', ' '))
end

return M
