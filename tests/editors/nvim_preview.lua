-- Cross-stage navigation in headless Neovim with no client code beyond starting the server:
-- opens a cuda_tile kernel, saves it (the server writes the previews and their line map),
-- asks textDocument/implementation on the addf op (its lowered lines in the preview files),
-- opens the PTX preview (the plugin attaches to it because a map lists it) and asks
-- textDocument/definition on a lowered PTX line, which must lead back to the addf line.
-- Writes what it saw as JSON to $TILE_LSP_RESULT. Run by test_nvim.py.
local result = { steps = {} }
local out_path = os.getenv('TILE_LSP_RESULT') or 'tile_lsp_nvim_result.json'
local kernel = os.getenv('TILE_LSP_KERNEL')
local TIMEOUT = tonumber(os.getenv('TILE_LSP_WAIT_MS') or '60000')

local function attached(tile, bufnr)
  return vim.wait(TIMEOUT, function()
    local c = tile.get_client(bufnr)
    return c ~= nil and c.initialized == true
  end, 20)
end

local function request(bufnr, method, params)
  local found = vim.lsp.buf_request_sync(bufnr, method, params, TIMEOUT)
  for _, r in pairs(found or {}) do
    if r.result then
      return r.result
    end
  end
  return nil
end

local function run()
  local tile = require('tile_lsp')
  vim.cmd('edit ' .. vim.fn.fnameescape((assert(kernel, 'TILE_LSP_KERNEL not set'))))
  local src = vim.api.nvim_get_current_buf()
  if not attached(tile, src) then
    error('tile-lsp did not attach to the kernel')
  end
  table.insert(result.steps, 'attached')
  vim.cmd('write')
  local dir = vim.fn.fnamemodify(kernel, ':h') .. '/.tile-lsp/'
  local stem = vim.fn.fnamemodify(kernel, ':t:r')
  local ptx_path = dir .. stem .. '.ptx'
  result.previews = vim.wait(TIMEOUT, function()
    return vim.fn.filereadable(dir .. stem .. '.map.json') == 1 and vim.fn.filereadable(ptx_path) == 1
  end, 50)
  table.insert(result.steps, 'saved')

  local add_line, add_col
  for i, line in ipairs(vim.api.nvim_buf_get_lines(src, 0, -1, false)) do
    local col = line:find(' addf ', 1, true)
    if col and add_line == nil then
      add_line, add_col = i - 1, col + 1
    end
  end
  result.add_line = add_line
  local impl = request(src, 'textDocument/implementation', {
    textDocument = { uri = vim.uri_from_bufnr(src) },
    position = { line = add_line, character = add_col },
  }) or {}
  result.impl_files = {}
  local ptx_line = nil
  for _, loc in ipairs(impl) do
    local name = vim.fn.fnamemodify(vim.uri_to_fname(loc.uri), ':t')
    result.impl_files[name] = true
    if name == stem .. '.ptx' and ptx_line == nil then
      ptx_line = loc.range.start.line
    end
  end
  result.ptx_line = ptx_line
  table.insert(result.steps, 'implementation')

  vim.cmd('edit ' .. vim.fn.fnameescape(ptx_path))
  local ptx = vim.api.nvim_get_current_buf()
  result.ptx_filetype = vim.bo[ptx].filetype
  result.ptx_attached = attached(tile, ptx)
  result.ptx_text = vim.api.nvim_buf_get_lines(ptx, ptx_line or 0, (ptx_line or 0) + 1, false)[1]
  local def = request(ptx, 'textDocument/definition', {
    textDocument = { uri = vim.uri_from_bufnr(ptx) },
    position = { line = ptx_line or 0, character = 2 },
  })
  if def and def[1] then
    def = def[1]
  end
  if def and def.uri then
    result.def_uri_matches = vim.uri_to_fname(def.uri) == vim.fn.fnamemodify(kernel, ':p')
    result.def_line = def.range.start.line
  end
  table.insert(result.steps, 'definition')
end

local ok, err = pcall(run)
result.ok = ok
result.error = not ok and tostring(err) or nil
local f = io.open(out_path, 'w')
if f then
  f:write(vim.fn.json_encode(result))
  f:close()
end
