-- Drives the tile-lsp Neovim plugin in a real headless Neovim and writes what it saw as JSON
-- to $TILE_LSP_RESULT. Run by tests/editors/test_nvim.py; always quits (qa!).
local result = { steps = {} }
local out_path = os.getenv('TILE_LSP_RESULT') or 'tile_lsp_nvim_result.json'
local kernel = os.getenv('TILE_LSP_KERNEL')
local second = os.getenv('TILE_LSP_KERNEL2')
local TIMEOUT = tonumber(os.getenv('TILE_LSP_WAIT_MS') or '10000')

local function write_result()
  local f = io.open(out_path, 'w')
  if f then
    f:write(vim.fn.json_encode(result))
    f:close()
  end
end

local function step(name)
  table.insert(result.steps, name)
end

-- Count publishDiagnostics notifications per URI, so that "zero diagnostics" can be awaited.
local published = {}
local orig_publish = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, res, ctx, config)
  if res and res.uri then
    published[res.uri] = (published[res.uri] or 0) + 1
  end
  return orig_publish(err, res, ctx, config)
end

-- Capture notifications (:TileLspShowStage failure messages).
local messages = {}
local orig_notify = vim.notify
vim.notify = function(msg, level, opts)
  table.insert(messages, { msg = msg, level = level })
  return orig_notify(msg, level, opts)
end

local function diags(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(out, {
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      end_col = d.end_col,
      severity = d.severity,
      message = d.message,
      source = d.source,
    })
  end
  return out
end

local function run()
  assert(kernel, 'TILE_LSP_KERNEL not set')
  local tile = require('tile_lsp')
  local v = vim.version()
  result.nvim_version = ('%d.%d.%d'):format(v.major, v.minor, v.patch)
  result.has_vim_lsp_start = vim.lsp.start ~= nil

  vim.cmd('edit ' .. vim.fn.fnameescape(kernel))
  local bufnr = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(bufnr)
  result.filetype = vim.bo[bufnr].filetype
  step('opened')

  -- 1. the client attaches and the server publishes (zero) diagnostics for the clean kernel
  result.attached = vim.wait(TIMEOUT, function()
    local c = tile.get_client(bufnr)
    return c ~= nil and c.initialized == true
  end, 20)
  local client = tile.get_client(bufnr)
  result.client_name = client and client.name
  if not result.attached then
    error('tile-lsp did not attach within ' .. TIMEOUT .. ' ms')
  end
  result.first_publish = vim.wait(TIMEOUT, function()
    return (published[uri] or 0) > 0
  end, 20)
  result.initial_diagnostics = diags(bufnr)
  step('attached')

  -- 2. break a value name: `%bcast` -> `%bcastx` in the fma on line 22 (0-based 21)
  local line = vim.api.nvim_buf_get_lines(bufnr, 21, 22, false)[1]
  result.original_line = line
  local broken = line:gsub('fma %%bcast,', 'fma %%bcastx,', 1)
  vim.api.nvim_buf_set_lines(bufnr, 21, 22, false, { broken })
  result.broken_seen = vim.wait(TIMEOUT, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 20)
  result.broken_diagnostics = diags(bufnr)
  step('broken')

  -- 3. fix it again; the error goes away
  vim.api.nvim_buf_set_lines(bufnr, 21, 22, false, { line })
  result.fixed_clean = vim.wait(TIMEOUT, function()
    return #vim.diagnostic.get(bufnr) == 0
  end, 20)
  step('fixed')

  -- 4. hover the `fma` op
  local fma_col = assert(line:find('fma', 1, true)) - 1
  local hover = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', {
    textDocument = { uri = uri },
    position = { line = 21, character = fma_col + 1 },
  }, TIMEOUT)
  for _, r in pairs(hover or {}) do
    if r.result and r.result.contents then
      local c = r.result.contents
      result.hover = type(c) == 'table' and (c.value or vim.inspect(c)) or c
      result.hover_kind = type(c) == 'table' and c.kind or nil
      result.hover_range = r.result.range
    elseif r.err then
      result.hover_error = r.err.message
    end
  end
  step('hover')

  -- 5. go to the definition of the `%bcast` use in the fma
  local use_col = assert(line:find('%bcast', 1, true)) - 1
  local def = vim.lsp.buf_request_sync(bufnr, 'textDocument/definition', {
    textDocument = { uri = uri },
    position = { line = 21, character = use_col + 2 },
  }, TIMEOUT)
  for _, r in pairs(def or {}) do
    local loc = r.result
    if loc and loc[1] then
      loc = loc[1]
    end
    if loc then
      local range = loc.targetSelectionRange or loc.range
      result.definition = {
        uri_matches = (loc.uri or loc.targetUri) == uri,
        line = range.start.line,
        character = range.start.character,
        text = vim.api.nvim_buf_get_lines(bufnr, range.start.line, range.start.line + 1, false)[1],
      }
    end
  end
  step('definition')

  -- 6. :TileLspShowPtx: tileLsp/viewStage compiles the cuda_tile kernel and answers its PTX
  local done, ok_stage, stage_msg = false, nil, nil
  local cmd_ok, cmd_err = pcall(function()
    tile.show_stage('ptx', bufnr, function(ok, msg)
      done, ok_stage, stage_msg = true, ok, msg
    end)
  end)
  vim.wait(TIMEOUT, function()
    return done
  end, 20)
  -- from the PTX view, :TileLspShowStage shows a stage of the view's source
  local cmd2_ok, cmd2_err = pcall(vim.cmd, 'TileLspShowStage tileaa')
  local tileaa_name = 'tile-lsp://tileaa/' .. vim.fn.fnamemodify(kernel, ':t')
  vim.wait(TIMEOUT, function()
    local b = vim.fn.bufnr(tileaa_name)
    return b ~= -1 and #table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n') > 0
  end, 20)
  local tileaa_buf = vim.fn.bufnr(tileaa_name)
  result.tileaa_text = tileaa_buf ~= -1 and table.concat(vim.api.nvim_buf_get_lines(tileaa_buf, 0, -1, false), '\n') or nil
  result.show_stage = {
    call_ok = cmd_ok,
    call_error = cmd_err and tostring(cmd_err) or nil,
    done = done,
    ok = ok_stage,
    message = stage_msg,
    command_ok = cmd2_ok,
    command_error = cmd2_err and tostring(cmd2_err) or nil,
  }
  step('show_stage')

  -- 7. a second kernel under the same root reuses the same client
  if second then
    vim.cmd('edit ' .. vim.fn.fnameescape(second))
    local b2 = vim.api.nvim_get_current_buf()
    vim.wait(TIMEOUT, function()
      return tile.get_client(b2) ~= nil
    end, 20)
    local c2 = tile.get_client(b2)
    result.second_filetype = vim.bo[b2].filetype
    result.same_client = c2 ~= nil and client ~= nil and c2.id == client.id
    local n = 0
    for _, c in pairs(vim.lsp.get_active_clients()) do
      if c.name == 'tile-lsp' then
        n = n + 1
      end
    end
    result.tile_clients = n
    step('second')
  end
  result.messages = messages
end

local ok, err = pcall(run)
result.ok = ok
result.error = not ok and tostring(err) or nil
write_result()
for _, c in pairs(vim.lsp.get_active_clients()) do
  c.stop(true)
end
vim.cmd('qa!')
