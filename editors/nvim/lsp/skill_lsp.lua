-- Picked up by `vim.lsp.enable('skill_lsp')` on Neovim 0.11+. The table attaches skill-lsp to
-- markdown buffers named SKILL.md (any case) and nothing else; `require('skill_lsp').setup()`
-- layers user options on top of it with vim.lsp.config().
return require('skill_lsp.config').base()
