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

return M
