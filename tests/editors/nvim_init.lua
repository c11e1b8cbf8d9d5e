-- Minimal init for the Neovim end-to-end test (tests/editors/test_nvim.py).
-- TILE_LSP_NVIM_RTP: the plugin directory (editors/nvim); TILE_LSP_CMD: the server command as JSON;
-- TILE_LSP_SETTINGS (optional): the server settings as JSON.
vim.opt.runtimepath:prepend(assert(os.getenv('TILE_LSP_NVIM_RTP'), 'TILE_LSP_NVIM_RTP not set'))
vim.opt.swapfile = false
vim.opt.shadafile = 'NONE'
local settings = os.getenv('TILE_LSP_SETTINGS')
require('tile_lsp').setup({
  cmd = vim.fn.json_decode((assert(os.getenv('TILE_LSP_CMD'), 'TILE_LSP_CMD not set'))),
  settings = settings and vim.fn.json_decode(settings) or {},
})
