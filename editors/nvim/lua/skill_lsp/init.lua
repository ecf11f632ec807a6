-- Entry point: `require('skill_lsp').setup(opts)`.
local config = require('skill_lsp.config')

local M = {}

--- @class skill_lsp.AgentOptions
--- @field model? string       MODEL_ID for the server's agent
--- @field base_url? string    ANTHROPIC_BASE_URL, or OPENAI_BASE_URL with provider = 'openai'
--- @field provider? 'anthropic'|'openai'
--- @field max_tokens? integer SKILL_LSP_MAX_TOKENS: most tokens one model reply may use

--- @class skill_lsp.Options
--- @field cmd? string[]                   default { 'skill-lsp' }
--- @field targets? string[]               e.g. { 'agentskills', 'codex' }
--- @field rules? table<string, string>    rule id -> 'error'|'warning'|'info'|'hint'|'off'
--- @field agent? skill_lsp.AgentOptions
--- @field on_attach? fun(client: vim.lsp.Client, bufnr: integer)
--- @field capabilities? table
--- @field filetypes? string[]             default { 'markdown', 'json', 'yaml' } (json: a skill's eval files and .claude-plugin manifests, yaml: agents/openai.yaml only)
--- @field codelens? boolean                default true: show and refresh code lenses in SKILL.md buffers
--- @field evals? { confirm_above_requests?: integer, improve?: { iterations?: integer, runs?: integer, jobs?: integer, seed?: integer, max_requests?: integer } } confirm_above_requests (default 100): evals and :SkillImproveDescription that may send more model requests ask first (0: never); improve: the params of skill/improveDescription
--- @field enable? boolean                 default true: start for SKILL.md buffers right away

-- Neovim 0.10 has no vim.lsp.config/enable: start the client from a FileType autocmd instead.
local function enable_legacy(cfg)
  local group = vim.api.nvim_create_augroup('skill_lsp', { clear = true })
  local function start(bufnr)
    if not config.is_served(bufnr) then
      return
    end
    if not vim.tbl_contains(cfg.filetypes, vim.bo[bufnr].filetype) then
      return
    end
    local start_cfg = vim.tbl_extend('force', cfg, {
      name = config.name,
      root_dir = config.find_root(bufnr),
    })
    start_cfg.filetypes, start_cfg.root_markers = nil, nil
    vim.lsp.start(start_cfg, { bufnr = bufnr })
  end
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = cfg.filetypes,
    callback = function(args)
      start(args.buf)
    end,
  })
  -- SKILL.md buffers opened before setup() ran get the client too.
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) then
      start(bufnr)
    end
  end
end

--- @param opts? skill_lsp.Options
function M.setup(opts)
  opts = opts or {}
  local overrides = config.from_options(opts)
  if vim.lsp.config then
    vim.lsp.config(config.name, overrides)
    if opts.enable ~= false then
      vim.lsp.enable(config.name)
    end
    return
  end
  config.current = config.merge(config.current or config.base(), overrides)
  if opts.enable ~= false then
    enable_legacy(config.current)
  end
end

return M
