-- cuda_tile: `.mlir` files that contain `cuda_tile.` or start with a bare `entry @`/`global @`
-- (tileirdisasm's form). Other `.mlir` files get (or keep) the `mlir` filetype. `.ptx` -> ptx.
local group = vim.api.nvim_create_augroup('tile_lsp_ftdetect', { clear = true })
vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
  group = group,
  pattern = '*.mlir',
  callback = function(args)
    require('tile_lsp').detect_mlir(args.buf)
  end,
})
vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
  group = group,
  pattern = '*.ptx',
  callback = function(args)
    vim.api.nvim_buf_set_option(args.buf, 'filetype', 'ptx')
  end,
})
