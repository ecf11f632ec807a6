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

local function open_skill(skill)
  vim.cmd.edit(vim.fn.fnameescape(vim.uri_to_fname(skill.uri)))
end

local ns = vim.api.nvim_create_namespace('skill_lsp_catalog')

-- Catalog line (1-based) -> skill, for <CR>.
local line_skills = {} --- @type table<integer, table>

--- The problems of one skill: errors and warnings of vim.diagnostic when its SKILL.md is loaded
--- (what the editor shows, unsaved edits included; hints and information not counted), else the
--- server's count of findings for the file on disk.
--- @param skill { uri: string, diagnostics?: integer }
--- @return string text, string highlight
function M.problems(skill)
  local bufnr = vim.fn.bufnr(vim.uri_to_fname(skill.uri))
  if bufnr ~= -1 and vim.api.nvim_buf_is_loaded(bufnr) then
    local severity = vim.diagnostic.severity
    local errors = #vim.diagnostic.get(bufnr, { severity = severity.ERROR })
    local warnings = #vim.diagnostic.get(bufnr, { severity = severity.WARN })
    if errors + warnings == 0 then
      return 'no problems', 'DiagnosticOk'
    end
    local parts = {}
    if errors > 0 then
      table.insert(parts, ('%d error%s'):format(errors, errors == 1 and '' or 's'))
    end
    if warnings > 0 then
      table.insert(parts, ('%d warning%s'):format(warnings, warnings == 1 and '' or 's'))
    end
    return table.concat(parts, ', '), errors > 0 and 'DiagnosticError' or 'DiagnosticWarn'
  end
  local findings = skill.diagnostics or 0
  if findings == 0 then
    return 'no findings (not open)', 'DiagnosticOk'
  end
  return ('%d finding%s (not open)'):format(findings, findings == 1 and '' or 's'), 'DiagnosticWarn'
end

--- What the skill's files can do, as the server names it (`network`, `shell`, …), and its
--- security errors; nil when there is nothing to say.
--- @param skill { capabilities?: string[], securityErrors?: integer }
--- @return string? text, string highlight
function M.capabilities(skill)
  local errors = skill.securityErrors or 0
  if errors > 0 then
    return ('%d security error%s: the agent asks before loading it'):format(errors, errors == 1 and '' or 's'),
      'DiagnosticError'
  end
  local can = skill.capabilities or {}
  if #can == 0 then
    return nil, 'Comment'
  end
  return 'can: ' .. table.concat(can, ', '), 'Comment'
end

--- The skill whose catalog entry is on `line` (1-based) of the catalog buffer.
--- @param line integer
--- @return table?
function M.skill_at(line)
  return line_skills[line]
end

local function jump()
  local skill = M.skill_at(vim.api.nvim_win_get_cursor(0)[1])
  if not skill then
    return
  end
  -- Open it where the user came from, as the quickfix list does; in place if alone.
  local previous = vim.fn.win_getid(vim.fn.winnr('#'))
  if previous ~= 0 and previous ~= vim.api.nvim_get_current_win() then
    vim.api.nvim_set_current_win(previous)
  end
  open_skill(skill)
end

--- Shows the catalog text exactly as the agent's system prompt gets it, with each skill's
--- problem counts and what its files can do as virtual text; <CR> on an entry opens its SKILL.md.
function M.show()
  fetch(function(result)
    local text = vim.split(result.prompt, '\n', { plain = true })
    local buf = scratch.get(BUF_NAME, function(buf)
      vim.keymap.set('n', '<CR>', jump, { buffer = buf, desc = "skill-lsp: open this skill's SKILL.md" })
    end)
    scratch.write(buf, function()
      vim.api.nvim_buf_set_lines(buf, 0, -1, false, text)
    end)
    -- Entries are `- name: description` lines in catalog order; a line that starts no entry
    -- belongs to the one above.
    vim.api.nvim_buf_clear_namespace(buf, ns, 0, -1)
    line_skills = {}
    local line, current = 1, nil
    local skills = result.skills or {}
    local next_skill = 1
    while line <= #text do
      local skill = skills[next_skill]
      if skill and vim.startswith(text[line], ('- %s:'):format(skill.name)) then
        current, next_skill = skill, next_skill + 1
        local label, highlight = M.problems(skill)
        local virt_text = { { '  [' .. label .. ']', highlight } }
        local can, can_highlight = M.capabilities(skill)
        if can then
          table.insert(virt_text, { '  ' .. can, can_highlight })
        end
        vim.api.nvim_buf_set_extmark(buf, ns, line - 1, 0, {
          virt_text = virt_text,
          virt_text_pos = 'eol',
        })
      end
      line_skills[line] = current
      line = line + 1
    end
    M.show_plugins(buf, result, #text)
    scratch.show(buf)
  end)
end

--- After the catalog, the skills only Claude Code plugins of the workspace provide (not the
--- agent's), under the names Claude Code lists them by once the plugin is installed, each with
--- the command that installs its plugin; an agent skill that a plugin provides too gets its
--- Claude Code name as virtual text. <CR> opens these too.
--- @param buf integer
--- @param result { skills?: table[], plugins?: table[] }
--- @param last integer the catalog's last line
function M.show_plugins(buf, result, last)
  local agents = {}
  for _, skill in ipairs(result.skills or {}) do
    agents[skill.uri] = true
  end
  for line = 1, last do
    local skill = line_skills[line]
    if skill and skill.claudeCodeName and (line == 1 or line_skills[line - 1] ~= skill) then
      vim.api.nvim_buf_set_extmark(buf, ns, line - 1, 0, {
        virt_text = { { '  Claude Code: ' .. skill.claudeCodeName, 'Comment' } },
        virt_text_pos = 'eol',
      })
    end
  end
  local added, entries = {}, {}
  for _, plugin in ipairs(result.plugins or {}) do
    for _, skill in ipairs(plugin.skills or {}) do
      if not agents[skill.uri] then
        if #added == 0 then
          added = { '', 'Claude Code plugins (listed once installed):' }
        end
        local description = skill.description:gsub('%s+', ' ')
        table.insert(added, ('- %s: %s'):format(skill.claudeCodeName, description))
        entries[last + #added] = { skill = { uri = skill.uri, name = skill.claudeCodeName }, install = plugin.install }
      end
    end
  end
  if #added == 0 then
    return
  end
  scratch.write(buf, function()
    vim.api.nvim_buf_set_lines(buf, last, last, false, added)
  end)
  for line, entry in pairs(entries) do
    line_skills[line] = entry.skill
    vim.api.nvim_buf_set_extmark(buf, ns, line - 1, 0, {
      virt_text = { { '  ' .. entry.install, 'Comment' } },
      virt_text_pos = 'eol',
    })
  end
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
