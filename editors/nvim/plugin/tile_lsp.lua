-- tile-lsp: commands and autostart. Configure with require('tile_lsp').setup{...}
-- (or vim.g.tile_lsp = {...}) before a cuda_tile/ptx buffer is opened.
if vim.g.loaded_tile_lsp then
  return
end
vim.g.loaded_tile_lsp = true

local function tile()
  return require('tile_lsp')
end

vim.api.nvim_create_user_command('TileLspShowStage', function(opts)
  tile().show_stage(opts.args)
end, {
  nargs = '?',
  complete = function(arglead)
    return tile().complete_stage(arglead)
  end,
  desc = 'tile-lsp: show a pipeline stage of the current buffer in a split',
})

vim.api.nvim_create_user_command('TileLspShowPtx', function()
  tile().show_stage('ptx')
end, { nargs = 0, desc = 'tile-lsp: show the PTX of the current buffer in a split' })

vim.api.nvim_create_user_command('TileLspRestart', function()
  tile().restart()
end, { nargs = 0, desc = 'tile-lsp: restart the language server' })

vim.api.nvim_create_user_command('TileSaveBytecode', function(opts)
  tile().save_bytecode_command(opts.fargs)
end, {
  nargs = '*',
  complete = 'file',
  desc = 'tile-lsp: write the buffer as Tile IR bytecode: [path (default: FILE.tileirbc)] [version, e.g. 13.3]',
})

-- Tile IR bytecode: a `.tileirbc` opens as its decoded text, read-only (`nowrite`), served by
-- tile-lsp under the file's own URI.
vim.api.nvim_create_autocmd('BufReadCmd', {
  group = vim.api.nvim_create_augroup('tile_lsp_bytecode', { clear = true }),
  pattern = '*.tileirbc',
  callback = function(args)
    tile().read_bytecode(args.buf)
  end,
})

local group = vim.api.nvim_create_augroup('tile_lsp_start', { clear = true })
vim.api.nvim_create_autocmd('FileType', {
  group = group,
  pattern = { 'cuda_tile', 'ptx', 'mlir' },
  callback = function(args)
    local t = tile()
    if t.config.autostart == false or (vim.g.tile_lsp or {}).autostart == false then
      return
    end
    if t.wants(args.buf) then
      t.attach(args.buf)
    end
  end,
})
