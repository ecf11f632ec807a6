-- `:checkhealth skill_lsp`. Reports whether secrets are set, never their values.
local config = require('skill_lsp.config')

local M = {}

local health = vim.health

-- The server sees the editor's environment plus the client's cmd_env (which wins).
local function server_env(name, cmd_env)
  local value = cmd_env[name]
  if value == nil then
    value = vim.env[name]
  end
  return value ~= nil and vim.trim(value) ~= '' and value or nil
end

local function check_neovim()
  local version = vim.version()
  local text = ('Neovim %d.%d.%d'):format(version.major, version.minor, version.patch)
  if vim.fn.has('nvim-0.11') == 1 then
    health.ok(text .. ': vim.lsp.config / vim.lsp.enable')
  elseif vim.fn.has('nvim-0.10') == 1 then
    health.ok(text .. ': setup() starts the client from a FileType autocmd')
  else
    health.error(text .. ' is too old', { 'skill_lsp needs Neovim 0.10 or newer' })
  end
end

local function check_binary(cmd)
  if type(cmd) ~= 'table' or not cmd[1] then
    health.info('cmd is a function: the binary cannot be checked')
    return
  end
  local path = vim.fn.exepath(cmd[1])
  if path == '' then
    health.error(('binary `%s` not found'):format(cmd[1]), {
      'Install it (`cargo install --path .` in the skill-lsp repository) or put it on $PATH',
      "Or pass its path: require('skill_lsp').setup({ cmd = { '/path/to/skill-lsp' } })",
    })
    return
  end
  health.ok('binary: ' .. path)
  local ok, result = pcall(function()
    return vim.system({ path, '--version' }, { text = true }):wait(5000)
  end)
  if ok and result.code == 0 then
    health.ok('version: ' .. vim.trim(result.stdout))
    return
  end
  local reason = tostring(result)
  if ok then
    local stderr = vim.trim(result.stderr or '')
    reason = stderr ~= '' and stderr or ('exit code ' .. result.code)
  end
  health.error(('`%s --version` failed: %s'):format(path, reason))
end

local function check_clients()
  local clients = vim.lsp.get_clients({ name = config.name })
  if #clients == 0 then
    health.info('no skill-lsp client is running (open a SKILL.md file to start one)')
    return
  end
  for _, client in ipairs(clients) do
    local folders = vim.tbl_map(function(folder)
      return folder.name
    end, client.workspace_folders or {})
    if #folders == 0 and client.root_dir then
      folders = { client.root_dir }
    end
    local buffers = vim.tbl_count(client.attached_buffers or {})
    health.ok(
      ('client %d: workspace %s, %d buffer(s), position encoding %s'):format(
        client.id,
        #folders > 0 and table.concat(folders, ', ') or '(none)',
        buffers,
        client.offset_encoding
      )
    )
  end
end

local function check_agent(cmd_env)
  local model = server_env('MODEL_ID', cmd_env)
  if server_env('ANTHROPIC_API_KEY', cmd_env) then
    local base = server_env('ANTHROPIC_BASE_URL', cmd_env) and 'custom ANTHROPIC_BASE_URL' or 'public endpoint'
    health.ok(('ANTHROPIC_API_KEY is set: the agent uses Anthropic (%s)'):format(base))
  elseif server_env('OPENAI_BASE_URL', cmd_env) or server_env('OPENAI_API_KEY', cmd_env) then
    health.ok(
      ('OpenAI-compatible provider: OPENAI_BASE_URL %s, OPENAI_API_KEY %s'):format(
        server_env('OPENAI_BASE_URL', cmd_env) and 'is set' or 'is not set (public endpoint)',
        server_env('OPENAI_API_KEY', cmd_env) and 'is set' or 'is not set'
      )
    )
  else
    health.warn('no model provider: ANTHROPIC_API_KEY is not set, nor OPENAI_BASE_URL / OPENAI_API_KEY', {
      'Export ANTHROPIC_API_KEY (or OPENAI_BASE_URL for a local server) before starting Neovim',
      'Keys are read from the environment only; never put them in your config',
      'Linting, completion and the other LSP features work without a key',
    })
  end
  if model then
    health.ok('model: ' .. model)
  else
    health.warn('MODEL_ID is not set', { "Set agent = { model = '...' } in setup(), or export MODEL_ID" })
  end
  local max_tokens = server_env('SKILL_LSP_MAX_TOKENS', cmd_env)
  if max_tokens then
    health.ok(('max tokens per model reply: %s (SKILL_LSP_MAX_TOKENS)'):format(max_tokens))
  else
    health.info(
      'max tokens per model reply: SKILL_LSP_MAX_TOKENS is not set, so `[agent] max-tokens` of skill-lsp.toml'
        .. ' applies, else 8192'
    )
  end
end

local function check_evals()
  local limit = config.confirm_above_requests
  if limit > 0 then
    health.ok(
      ('trigger evals and :SkillImproveDescription ask before sending more than %d model requests'
        .. ' (evals.confirm_above_requests)'):format(limit)
    )
  else
    health.info('trigger evals and :SkillImproveDescription never ask first (evals.confirm_above_requests = 0)')
  end
  local params = config.improve
  local keys = vim.tbl_keys(params)
  table.sort(keys)
  local set = vim.tbl_map(function(key)
    return ('%s = %s'):format(key, params[key])
  end, keys)
  health.ok(
    (':SkillImproveDescription and the "Improve the description…" code action send %s'):format(
      #set > 0 and table.concat(set, ', ') .. ' (evals.improve)'
        or "the server's defaults (5 rewrites, 3 runs per query)"
    )
  )
  for _, client in ipairs(vim.lsp.get_clients({ name = config.name })) do
    local declared = vim.tbl_get(client.config, 'capabilities', 'experimental', 'skillLsp', 'improveDescription')
    if declared then
      health.ok(('client %d declares skillLsp.improveDescription: the server offers the code action'):format(client.id))
    else
      health.warn(('client %d does not declare skillLsp.improveDescription'):format(client.id), {
        'The server does not offer the "Improve the description…" code action to it:'
          .. ' check the `capabilities` of your client configuration',
      })
    end
  end
end

function M.check()
  health.start('skill-lsp: editor')
  check_neovim()
  local resolved = config.resolved()
  health.start('skill-lsp: server')
  check_binary(resolved.cmd)
  check_clients()
  health.start('skill-lsp: agent')
  check_agent(resolved.cmd_env or {})
  health.start('skill-lsp: evals')
  check_evals()
end

return M
