-- The client configuration shared by `lsp/skill_lsp.lua` (Neovim 0.11+), `setup()` and the
-- Neovim 0.10 fallback, so every path attaches the same way.
local M = {}

M.name = 'skill_lsp'

--- The code action kind the server uses for "every safe fix of this file".
M.fix_all_kind = 'source.fixAll.skill-lsp'

--- Whether SKILL.md buffers show the server's code lenses (setup option `codelens`).
M.codelens = true

--- Trigger evals that may send more model requests than this ask first (setup option
--- `evals.confirm_above_requests`); 0 never asks.
M.confirm_above_requests = 100

--- Runs per query of `:SkillEval` and the code lens (setup option `evals.runs`); nil: the
--- server's 3. Three runs never decide a query for sure: its results show `PASS?`/`FAIL?`.
M.runs = nil

--- After those runs, one more at a time for each query still undecided, up to 10 (setup option
--- `evals.auto_runs`, `skill-lsp eval --runs auto`).
M.auto_runs = false

--- Whose listing the model is sent (setup option `evals.target`, `skill-lsp eval --target`),
--- and the context window that client's listing budget is figured from (`evals.context_window`);
--- nil: the agent's own catalog, the client's default window.
M.target = nil
M.context_window = nil

--- The clients `evals.target` takes: those that list skills to a model.
M.eval_targets = { 'claude-code', 'codex', 'copilot', 'opencode', 'gemini' }

--- What `:SkillImproveDescription` and the "Improve the description…" code action send besides
--- the skill (setup option `evals.improve`): `iterations`, `runs`, `jobs`, `seed`,
--- `max_requests`; an unset key takes the server's default (5 rewrites, 3 runs per query).
M.improve = {}

-- Tried in order, each group against every ancestor before the next group. Project-level markers
-- come first because `.claude/`, `.github/` and friends hold a `skills/` folder of their own: the
-- server must get the project as its workspace folder to tell those roots (and targets) apart.
M.root_markers = {
  'skill-lsp.toml',
  '.git',
  { '.agents', '.claude', '.codex', '.gemini', '.github', '.opencode' },
  'skills',
}

-- The file behind a buffer the server could read and watch, or nil (scratch and help buffers,
-- fugitive:// or oil:// names).
local function file_of(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= '' then
    return nil
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' or name:match('^%a[%w+.-]*://') then
    return nil
  end
  return vim.fs.normalize(name)
end

--- Whether the buffer is a file named SKILL.md (any case) that the server should see.
--- @param bufnr integer
--- @return boolean
function M.is_skill_file(bufnr)
  local file = file_of(bufnr)
  return file ~= nil and vim.fs.basename(file):lower() == 'skill.md'
end

--- The names of a skill's trigger eval set, relative to its folder, in the server's order (the
--- first that exists is measured), then its output evals, `evals/evals.json`.
M.eval_files = {
  'evals/triggers.json',
  'evals/eval_queries.json',
  'evals/trigger/eval_queries.json',
  'evals/trigger-eval.json',
  'evals/eval_set.json',
  'eval_set.json',
  'eval_queries.json',
  'evals/evals.json',
}

--- The skill folder of an eval-file path: the folder its name is relative to, when that folder
--- holds a SKILL.md (any other JSON of these names is some other project's).
--- @param file string
--- @return string?
local function eval_skill_dir(file)
  for _, name in ipairs(M.eval_files) do
    if file:sub(-(#name + 1)) == '/' .. name then
      local dir = file:sub(1, #file - #name - 1)
      for entry, kind in vim.fs.dir(dir) do
        if kind == 'file' and entry:lower() == 'skill.md' then
          return dir
        end
      end
    end
  end
  return nil
end

--- Whether the buffer is one of a skill's eval files: a trigger set (`evals/triggers.json` or
--- another name of `M.eval_files`) or `evals/evals.json`, beside a SKILL.md (the server lints
--- and completes them; no other JSON file).
--- @param bufnr integer
--- @return boolean
function M.is_eval_set(bufnr)
  local file = file_of(bufnr)
  return file ~= nil and eval_skill_dir(file) ~= nil
end

--- Whether the buffer is Codex's `<skill>/agents/openai.yaml` (the server lints it; no other YAML).
--- @param bufnr integer
--- @return boolean
function M.is_openai_yaml(bufnr)
  local file = file_of(bufnr)
  return file ~= nil and file:match('/agents/openai%.yaml$') ~= nil
end

--- Whether the buffer is a Claude Code plugin manifest, `.claude-plugin/plugin.json` or
--- `.claude-plugin/marketplace.json` (the server checks it as `claude plugin validate` does).
--- @param bufnr integer
--- @return boolean
function M.is_manifest(bufnr)
  local file = file_of(bufnr)
  return file ~= nil
    and (file:match('/%.claude%-plugin/plugin%.json$') ~= nil or file:match('/%.claude%-plugin/marketplace%.json$') ~= nil)
end

--- Whether the server attaches to the buffer: a SKILL.md, an eval set, an openai.yaml or a plugin
--- manifest.
--- @param bufnr integer
--- @return boolean
function M.is_served(bufnr)
  return M.is_skill_file(bufnr) or M.is_eval_set(bufnr) or M.is_openai_yaml(bufnr) or M.is_manifest(bufnr)
end

--- The SKILL.md that a SKILL.md or eval-set buffer belongs to, or nil.
--- @param bufnr integer
--- @return string?
function M.skill_file(bufnr)
  if M.is_skill_file(bufnr) then
    return file_of(bufnr)
  end
  if not M.is_eval_set(bufnr) then
    return nil
  end
  local skill_dir = eval_skill_dir(file_of(bufnr))
  for name, kind in vim.fs.dir(skill_dir) do
    if kind == 'file' and name:lower() == 'skill.md' then
      return skill_dir .. '/' .. name
    end
  end
  -- Not on disk yet: the name the server would look for.
  return skill_dir .. '/SKILL.md'
end

--- The workspace folder for a SKILL.md (or eval-set) buffer.
--- @param bufnr integer
--- @return string
function M.find_root(bufnr)
  -- An eval set is rooted as its skill's SKILL.md.
  local file = M.skill_file(bufnr) or vim.fs.normalize(vim.api.nvim_buf_get_name(bufnr))
  local dir = vim.fs.dirname(file)
  -- vim.fs.root() only learnt nested (equal priority) markers in 0.11; vim.fs.find() does the
  -- same job on 0.10 too.
  for _, marker in ipairs(M.root_markers) do
    local found = vim.fs.find(marker, { upward = true, path = dir, limit = 1 })[1]
    if found then
      return vim.fs.dirname(found)
    end
  end
  -- A lone skill folder: its parent holds `*/SKILL.md`, which the server takes as a skills root.
  return vim.fs.dirname(dir)
end

--- Handlers that belong to this client only; required lazily so that the `lsp/` file stays cheap.
--- @return table<string, function>
function M.handlers()
  return {
    ['skill/agentEvent'] = function(...)
      return require('skill_lsp.agent').on_event(...)
    end,
    ['window/showMessageRequest'] = function(...)
      return require('skill_lsp.approval').handler(...)
    end,
    ['skill/evalResult'] = function(...)
      return require('skill_lsp.eval').on_result(...)
    end,
    -- Neovim 0.11 applies a pull report to its own document only: the findings of a skill's
    -- scripts and references arrive as `relatedDocuments` of the SKILL.md's report, and each
    -- is stored here as if pulled for that file (an empty one clears it).
    ['textDocument/diagnostic'] = function(err, result, ctx)
      vim.lsp.diagnostic.on_diagnostic(err, result, ctx)
      if err ~= nil or type(result) ~= 'table' or type(result.relatedDocuments) ~= 'table' then
        return
      end
      for uri, report in pairs(result.relatedDocuments) do
        if type(report) == 'table' and report.kind == 'full' then
          local related = vim.tbl_extend('force', ctx, {
            params = { textDocument = { uri = uri } },
          })
          vim.lsp.diagnostic.on_diagnostic(nil, report, related)
        end
      end
    end,
    -- Neovim 0.11 has no handler of its own: the server sends it after a trigger-eval run so the
    -- lens shows the result.
    ['workspace/codeLens/refresh'] = function(_, _, ctx)
      require('skill_lsp.eval').refresh_buffers(ctx.client_id)
      return vim.NIL
    end,
  }
end

--- The client-side commands of the server's code lenses (`client.commands`, looked up before
--- vim.lsp.commands by this client only).
--- @return table<string, function>
function M.commands()
  return {
    ['skillLsp.runTriggerEvals'] = function(...)
      return require('skill_lsp.eval').run_lens(...)
    end,
    ['skillLsp.improveDescription'] = function(...)
      return require('skill_lsp.improve').run_action(...)
    end,
  }
end

--- What the client declares beyond Neovim's defaults: the lens and code-action commands it
--- implements (docs/protocol.md, "Trigger evals in the editor") and the lens refresh it handles.
--- @return table
function M.capabilities()
  return {
    workspace = { codeLens = { refreshSupport = true } },
    experimental = { skillLsp = { runTriggerEvals = true, improveDescription = true } },
  }
end

--- The default configuration, before user options.
--- @return table
function M.base()
  return {
    cmd = { 'skill-lsp' },
    -- json only for a skill's eval files (`M.eval_files`) and `.claude-plugin/*.json` manifests, yaml
    -- only for `<skill>/agents/openai.yaml`: root_dir keeps every other JSON and YAML file out.
    filetypes = { 'markdown', 'json', 'yaml' },
    -- Informational only: with a root_dir function Neovim ignores root_markers.
    root_markers = vim.iter(M.root_markers):flatten():totable(),
    -- The Neovim 0.11 signature: not calling on_dir keeps the server off the buffer, which is
    -- how plain Markdown files stay untouched.
    root_dir = function(bufnr, on_dir)
      if M.is_served(bufnr) then
        on_dir(M.find_root(bufnr))
      end
    end,
    handlers = M.handlers(),
    commands = M.commands(),
    capabilities = M.capabilities(),
  }
end

-- The server reads settings from initializationOptions when it starts and from
-- workspace/didChangeConfiguration afterwards, which is how Neovim delivers `settings`: both get
-- the same table so neither path sees stale values.
local function skill_settings(opts)
  local section = {}
  if opts.targets then
    section.targets = opts.targets
  end
  if opts.rules then
    section.rules = next(opts.rules) and opts.rules or vim.empty_dict()
  end
  return { skillLsp = next(section) and section or vim.empty_dict() }
end

-- The server reads its model settings from its environment. Only non-secret values are set here:
-- the API key stays in the user's environment, which the server inherits.
local function agent_env(agent)
  local env = {}
  if agent.model then
    env.MODEL_ID = agent.model
  end
  if agent.max_tokens ~= nil then
    local n = agent.max_tokens
    if type(n) ~= 'number' or n < 1 or n ~= math.floor(n) then
      error(('skill_lsp: agent.max_tokens must be a positive whole number, got %s'):format(vim.inspect(n)))
    end
    env.SKILL_LSP_MAX_TOKENS = ('%d'):format(n)
  end
  local provider = agent.provider or 'anthropic'
  if provider == 'openai' then
    if agent.base_url then
      env.OPENAI_BASE_URL = agent.base_url
    end
    -- The server prefers Anthropic whenever ANTHROPIC_API_KEY is set; an empty value counts as
    -- unset, so this is how the choice of provider is honoured.
    env.ANTHROPIC_API_KEY = ''
  elseif provider == 'anthropic' then
    if agent.base_url then
      env.ANTHROPIC_BASE_URL = agent.base_url
    end
  else
    error(("skill_lsp: agent.provider must be 'anthropic' or 'openai', got %q"):format(provider))
  end
  return env
end

--- Turns setup() options into a partial client configuration.
-- Whether `value` is a whole number of at least `least` (the numeric setup options).
local function whole_at_least(value, least)
  return type(value) == 'number' and value >= least and value == math.floor(value)
end

--- @param opts table
--- @return table
function M.from_options(opts)
  -- vim.validate() changed its signature in 0.11; this check reads the same on 0.10.
  for _, key in ipairs({ 'cmd', 'targets', 'rules', 'agent', 'evals' }) do
    if opts[key] ~= nil and type(opts[key]) ~= 'table' then
      error(('skill_lsp.setup: `%s` must be a table, got %s'):format(key, type(opts[key])), 3)
    end
  end
  local overrides = {}
  if opts.cmd then
    overrides.cmd = opts.cmd
  end
  local settings = skill_settings(opts)
  overrides.init_options = settings
  overrides.settings = settings
  local env = agent_env(opts.agent or {})
  if next(env) then
    overrides.cmd_env = env
  end
  if opts.codelens ~= nil then
    M.codelens = opts.codelens ~= false
  end
  local limit = opts.evals and opts.evals.confirm_above_requests
  if limit ~= nil then
    if type(limit) ~= 'number' or limit < 0 then
      error(('skill_lsp.setup: `evals.confirm_above_requests` must be a number of at least 0, got %s'):format(vim.inspect(limit)), 3)
    end
    M.confirm_above_requests = limit
  end
  local runs = opts.evals and opts.evals.runs
  if runs ~= nil then
    if not whole_at_least(runs, 1) then
      error(('skill_lsp.setup: `evals.runs` must be a whole number of at least 1, got %s'):format(vim.inspect(runs)), 3)
    end
    M.runs = runs
  end
  local auto_runs = opts.evals and opts.evals.auto_runs
  if auto_runs ~= nil then
    if type(auto_runs) ~= 'boolean' then
      error(('skill_lsp.setup: `evals.auto_runs` must be a boolean, got %s'):format(vim.inspect(auto_runs)), 3)
    end
    M.auto_runs = auto_runs
  end
  local target = opts.evals and opts.evals.target
  if target ~= nil then
    if not vim.tbl_contains(M.eval_targets, target) then
      error(
        ('skill_lsp.setup: `evals.target` must be one of %s, got %s'):format(table.concat(M.eval_targets, ', '), vim.inspect(target)),
        3
      )
    end
    M.target = target
  end
  local window = opts.evals and opts.evals.context_window
  if window ~= nil then
    if not whole_at_least(window, 1) then
      error(('skill_lsp.setup: `evals.context_window` must be a whole number of at least 1, got %s'):format(vim.inspect(window)), 3)
    end
    if M.target == nil then
      error('skill_lsp.setup: `evals.context_window` sets the budget of a target\'s listing: set `evals.target` too', 3)
    end
    M.context_window = window
  end
  local improve = opts.evals and opts.evals.improve
  if improve ~= nil then
    M.improve = M.improve_options(improve)
  end
  for _, key in ipairs({ 'on_attach', 'capabilities', 'filetypes' }) do
    overrides[key] = opts[key]
  end
  return overrides
end

-- The keys of `evals.improve`, their parameter in skill/improveDescription and their least value.
local improve_keys = {
  iterations = { param = 'iterations', least = 1 },
  runs = { param = 'runs', least = 1 },
  jobs = { param = 'jobs', least = 1 },
  seed = { param = 'seed', least = 0 },
  max_requests = { param = 'maxRequests', least = 1 },
}

--- Checks the setup option `evals.improve` (whole numbers; the server checks the upper bounds).
--- @param improve table
--- @return table
function M.improve_options(improve)
  if type(improve) ~= 'table' then
    error(('skill_lsp.setup: `evals.improve` must be a table, got %s'):format(type(improve)), 4)
  end
  for key, value in pairs(improve) do
    local known = improve_keys[key]
    if not known then
      local keys = vim.tbl_keys(improve_keys)
      table.sort(keys)
      error(('skill_lsp.setup: `evals.improve.%s` is not an option (%s)'):format(key, table.concat(keys, ', ')), 4)
    end
    if not whole_at_least(value, known.least) then
      error(
        ('skill_lsp.setup: `evals.improve.%s` must be a whole number of at least %d, got %s'):format(
          key,
          known.least,
          vim.inspect(value)
        ),
        4
      )
    end
  end
  return vim.deepcopy(improve)
end

--- The params of skill/runEvals and skill/improveDescription that `evals.target` and
--- `evals.context_window` set.
--- @return table
function M.listing_params()
  return { target = M.target, contextWindow = M.context_window }
end

--- The params of skill/improveDescription that `M.improve` sets (camelCase, as the server reads them).
--- @return table
function M.improve_params()
  local params = M.listing_params()
  for key, value in pairs(M.improve) do
    params[improve_keys[key].param] = value
  end
  return params
end

--- Deep merge where lists replace lists, as vim.lsp.config() does on 0.11.
--- @param dst table
--- @param src table
--- @return table
function M.merge(dst, src)
  local out = vim.deepcopy(dst)
  for key, value in pairs(src) do
    if type(value) == 'table' and type(out[key]) == 'table' and not vim.islist(value) then
      out[key] = M.merge(out[key], value)
    else
      out[key] = value
    end
  end
  return out
end

--- The configuration in effect: what vim.lsp.config resolved on 0.11, or what setup() stored.
--- @return table
function M.resolved()
  if vim.lsp.config then
    local ok, resolved = pcall(function()
      return vim.lsp.config[M.name]
    end)
    if ok and resolved then
      return resolved
    end
  end
  return M.current or M.base()
end

return M
