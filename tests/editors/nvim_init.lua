-- Minimal init for the Neovim end-to-end test (tests/editors/test_nvim.py).
-- TILE_LSP_NVIM_RTP: the plugin directory (editors/nvim); TILE_LSP_CMD: the server command as JSON.
vim.opt.runtimepath:prepend(assert(os.getenv('TILE_LSP_NVIM_RTP'), 'TILE_LSP_NVIM_RTP not set'))
vim.opt.swapfile = false
vim.opt.shadafile = 'NONE'
require('tile_lsp').setup({
  cmd = vim.fn.json_decode((assert(os.getenv('TILE_LSP_CMD'), 'TILE_LSP_CMD not set'))),
})
