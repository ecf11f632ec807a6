-- User commands and the code-lens hook only: starting the server is left to setup() or
-- vim.lsp.enable('skill_lsp'), so installing the plugin never launches anything by itself.
if vim.g.loaded_skill_lsp then
  return
end
vim.g.loaded_skill_lsp = true

local command = vim.api.nvim_create_user_command

command('SkillAgent', function(args)
  require('skill_lsp.agent').send(args.args, { fresh = args.bang })
end, {
  nargs = '*',
  bang = true,
  desc = 'skill-lsp: ask the skill agent (continues the chat; ! starts a new one)',
})

command('SkillAgentCancel', function()
  require('skill_lsp.agent').cancel()
end, { desc = 'skill-lsp: cancel the running agent chat' })

command('SkillCatalog', function()
  require('skill_lsp.catalog').show()
end, { desc = 'skill-lsp: show the skill catalog the agent sees' })

command('SkillOpen', function(args)
  require('skill_lsp.catalog').open(args.args)
end, {
  nargs = '?',
  complete = function(lead)
    return require('skill_lsp.catalog').complete(lead)
  end,
  desc = 'skill-lsp: open a skill by name (pick one without a name)',
})

command('SkillFixAll', function()
  require('skill_lsp.fix').fix_all(0)
end, { desc = 'skill-lsp: apply every safe fix to this SKILL.md' })

command('SkillEval', function(args)
  require('skill_lsp.eval').run(args.args)
end, {
  nargs = '?',
  complete = function(lead)
    return require('skill_lsp.catalog').complete(lead)
  end,
  desc = "skill-lsp: run a skill's trigger evals (default: the current SKILL.md or evals/triggers.json)",
})

command('SkillEvalCancel', function()
  require('skill_lsp.eval').cancel()
end, { desc = 'skill-lsp: cancel the running trigger evals' })

command('SkillImproveDescription', function(args)
  require('skill_lsp.improve').run(args.args)
end, {
  nargs = '?',
  complete = function(lead)
    return require('skill_lsp.catalog').complete(lead)
  end,
  desc = "skill-lsp: improve a skill's description with its trigger evals, offered as a diff (default: this SKILL.md)",
})

command('SkillImproveDescriptionCancel', function()
  require('skill_lsp.improve').cancel()
end, { desc = 'skill-lsp: cancel improving the description' })

-- Code lenses ("Run trigger evals") for SKILL.md buffers of the skill-lsp client; nothing is
-- loaded for other clients.
vim.api.nvim_create_autocmd('LspAttach', {
  group = vim.api.nvim_create_augroup('skill_lsp_attach', { clear = true }),
  callback = function(args)
    local client = vim.lsp.get_client_by_id(args.data.client_id)
    if client and client.name == 'skill_lsp' then
      require('skill_lsp.eval').on_attach(client.id, args.buf)
    end
  end,
})
