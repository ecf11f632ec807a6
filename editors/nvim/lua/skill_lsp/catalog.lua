-- `:SkillCatalog` and `:SkillOpen`: both read `skill/catalog`, the live registry the server keeps
-- from disk and unsaved buffers, so they show what the agent would see right now.
local lsp_client = require('skill_lsp.client')
local scratch = require('skill_lsp.scratch')

local M = {}

local BUF_NAME = 'skill-lsp://catalog'

--- Asks the server for its catalog.
--- @param callback fun(result: { skills: table[], prompt: string })
local function fetch(callback)
  local client = lsp_client.require()
  if not client then
    return
  end
  lsp_client.request(client, 'skill/catalog', vim.empty_dict(), function(err, result)
    if err or not result then
      lsp_client.report('skill/catalog', err or 'empty result')
      return
    end
    callback(result)
  end)
end

--- Shows the catalog text exactly as the agent's system prompt gets it.
function M.show()
  fetch(function(result)
    local buf = scratch.get(BUF_NAME)
    scratch.write(buf, function()
      vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(result.prompt, '\n', { plain = true }))
    end)
    scratch.show(buf)
  end)
end

local function open_skill(skill)
  vim.cmd.edit(vim.fn.fnameescape(vim.uri_to_fname(skill.uri)))
end

--- Opens the SKILL.md of the named skill, or lets the user pick one.
--- @param name? string
function M.open(name)
  fetch(function(result)
    local skills = result.skills or {}
    if name and name ~= '' then
      for _, skill in ipairs(skills) do
        if skill.name == name then
          return open_skill(skill)
        end
      end
      local names = vim.tbl_map(function(skill)
        return skill.name
      end, skills)
      vim.notify(
        ('skill-lsp: no skill named %q (available: %s)'):format(
          name,
          #names > 0 and table.concat(names, ', ') or 'none'
        ),
        vim.log.levels.ERROR
      )
      return
    end
    if #skills == 0 then
      vim.notify('skill-lsp: no skills found in the workspace', vim.log.levels.WARN)
      return
    end
    vim.ui.select(skills, {
      prompt = 'Open skill',
      kind = 'skill_lsp_skill',
      format_item = function(skill)
        local problems = (skill.diagnostics or 0) > 0 and (' [%d]'):format(skill.diagnostics) or ''
        return ('%s%s — %s'):format(skill.name, problems, skill.description)
      end,
    }, function(skill)
      if skill then
        open_skill(skill)
      end
    end)
  end)
end

--- Skill names for command-line completion; a short synchronous request, nothing when it fails.
--- @param lead string
--- @return string[]
function M.complete(lead)
  local client = lsp_client.get()
  if not client then
    return {}
  end
  local response = lsp_client.request_sync(client, 'skill/catalog', vim.empty_dict(), 500)
  local skills = response and response.result and response.result.skills or {}
  return vim.tbl_filter(
    function(name)
      return vim.startswith(name, lead)
    end,
    vim.tbl_map(function(skill)
      return skill.name
    end, skills)
  )
end

return M
