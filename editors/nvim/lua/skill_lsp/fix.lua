-- `:SkillFixAll`: the server's `source.fixAll.skill-lsp` action, which is the same code as
-- `skill-lsp check --fix`, applied to one buffer.
local config = require('skill_lsp.config')
local lsp_client = require('skill_lsp.client')

local M = {}

local function apply(client, action, bufnr)
  if action.edit then
    vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
  end
  local command = action.command
  if type(command) == 'table' then
    local params = { command = command.command, arguments = command.arguments }
    lsp_client.request(client, 'workspace/executeCommand', params, function(err)
      if err then
        lsp_client.report(command.command, err)
      end
    end, bufnr)
  end
end

--- @param bufnr? integer
function M.fix_all(bufnr)
  if not bufnr or bufnr == 0 then
    bufnr = vim.api.nvim_get_current_buf()
  end
  local client = vim.lsp.get_clients({ name = config.name, bufnr = bufnr })[1]
  if not client then
    vim.notify('skill-lsp is not attached to this buffer (is it a SKILL.md?)', vim.log.levels.ERROR)
    return
  end
  local last = vim.api.nvim_buf_line_count(bufnr)
  local last_line = vim.api.nvim_buf_get_lines(bufnr, last - 1, last, false)[1] or ''
  local params = vim.lsp.util.make_given_range_params({ 1, 0 }, { last, #last_line }, bufnr, client.offset_encoding)
  params.context = { only = { config.fix_all_kind }, diagnostics = {}, triggerKind = 1 }
  local changedtick = vim.b[bufnr].changedtick
  lsp_client.request(client, 'textDocument/codeAction', params, function(err, actions)
    if err then
      return lsp_client.report('source.fixAll', err)
    end
    -- The buffer moved on while the server worked: its whole-file edit would undo the typing.
    if vim.b[bufnr].changedtick ~= changedtick then
      vim.notify('skill-lsp: the buffer changed meanwhile; run :SkillFixAll again', vim.log.levels.WARN)
      return
    end
    for _, action in ipairs(actions or {}) do
      if action.kind == config.fix_all_kind then
        apply(client, action, bufnr)
        vim.notify('skill-lsp: ' .. action.title, vim.log.levels.INFO)
        return
      end
    end
    vim.notify('skill-lsp: nothing to fix automatically', vim.log.levels.INFO)
  end, bufnr)
end

return M
