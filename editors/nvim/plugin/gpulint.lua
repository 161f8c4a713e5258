-- editors/nvim/plugin/gpulint.lua: the user commands of the gpulint plugin, defined when Neovim
-- loads its plugins. Owns: :GpulintRuleDoc [ID] and :GpulintLint. Does not own: linting and
-- options (lua/gpulint/init.lua); nothing is linted until require("gpulint").setup{} is called.
if vim.g.loaded_gpulint then
  return
end
vim.g.loaded_gpulint = true

vim.api.nvim_create_user_command("GpulintRuleDoc", function(opts)
  require("gpulint").rule_doc(opts.args)
end, { nargs = "?", desc = "gpulint: show the rule of the finding under the cursor (or rule ID)" })

vim.api.nvim_create_user_command("GpulintLint", function()
  require("gpulint").lint(0)
end, { nargs = 0, desc = "gpulint: lint the current buffer now" })
