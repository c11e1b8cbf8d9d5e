-- Opens an upstream gpu/arith/memref `.mlir` kernel (examples/block_sum.mlir) in headless Neovim,
-- asks for its PTX through tileLsp/viewStage (:TileLspShowPtx's path), then hovers the
-- gpu.thread_id op; writes what it saw as JSON to $TILE_LSP_RESULT. Run by test_nvim.py.
local result = { steps = {} }
local out_path = os.getenv('TILE_LSP_RESULT') or 'tile_lsp_nvim_result.json'
local kernel = os.getenv('TILE_LSP_KERNEL')
local TIMEOUT = tonumber(os.getenv('TILE_LSP_WAIT_MS') or '60000')

local function run()
  local tile = require('tile_lsp')
  vim.cmd('edit ' .. vim.fn.fnameescape((assert(kernel, 'TILE_LSP_KERNEL not set'))))
  local bufnr = vim.api.nvim_get_current_buf()
  result.filetype = vim.bo[bufnr].filetype
  table.insert(result.steps, 'opened')
  result.attached = vim.wait(TIMEOUT, function()
    local c = tile.get_client(bufnr)
    return c ~= nil and c.initialized == true
  end, 20)
  if not result.attached then
    error('tile-lsp did not attach within ' .. TIMEOUT .. ' ms')
  end
  table.insert(result.steps, 'attached')

  local done = false
  tile.show_stage('ptx', bufnr, function(ok, output)
    done, result.stage_ok, result.ptx = true, ok, output
  end)
  vim.wait(TIMEOUT, function()
    return done
  end, 20)
  result.split_filetype = vim.bo.filetype
  result.split_name = vim.api.nvim_buf_get_name(0)
  table.insert(result.steps, 'ptx')

  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  for i, line in ipairs(lines) do
    local col = line:find('gpu.thread_id', 1, true)
    if col then
      local hover = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', {
        textDocument = { uri = vim.uri_from_bufnr(bufnr) },
        position = { line = i - 1, character = col + 1 },
      }, TIMEOUT)
      for _, r in pairs(hover or {}) do
        if r.result and r.result.contents then
          result.hover = r.result.contents.value
        end
      end
      break
    end
  end
  table.insert(result.steps, 'hover')
end

local ok, err = pcall(run)
result.ok = ok
result.error = not ok and tostring(err) or nil
local f = io.open(out_path, 'w')
if f then
  f:write(vim.fn.json_encode(result))
  f:close()
end
for _, c in pairs(vim.lsp.get_active_clients()) do
  c.stop(true)
end
vim.cmd('qa!')
