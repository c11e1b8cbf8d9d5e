-- Tile IR bytecode in a real headless Neovim: a `.tileirbc` opens as its decoded text,
-- read-only, and the server serves it under the file's own URI; a corrupt one shows the error;
-- :TileSaveBytecode writes a cuda_tile buffer as bytecode. Writes what it saw as JSON to
-- $TILE_LSP_RESULT. Run by tests/editors/test_nvim.py; always quits (qa!).
local result = { steps = {} }
local out_path = os.getenv('TILE_LSP_RESULT') or 'tile_lsp_nvim_result.json'
local bytecode = os.getenv('TILE_LSP_BYTECODE') -- a copy of tests/data/cutile/vector_add.tileirbc
local corrupt = os.getenv('TILE_LSP_CORRUPT') -- its first 200 bytes
local source = os.getenv('TILE_LSP_KERNEL') -- a copy of examples/vector_add.mlir
local target = os.getenv('TILE_LSP_TARGET') -- where :TileSaveBytecode writes (absent before)
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

local published = {}
local orig_publish = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, res, ctx, config)
  if res and res.uri then
    published[res.uri] = (published[res.uri] or 0) + 1
  end
  return orig_publish(err, res, ctx, config)
end

local messages = {}
local orig_notify = vim.notify
vim.notify = function(msg, level, opts)
  table.insert(messages, { msg = msg, level = level })
  return orig_notify(msg, level, opts)
end

local function read_all(path)
  local f = io.open(path, 'rb')
  if not f then
    return nil
  end
  local data = f:read('*a')
  f:close()
  return data
end

local function buf_state(bufnr)
  local bo = vim.bo[bufnr]
  return {
    filetype = bo.filetype,
    buftype = bo.buftype,
    modifiable = bo.modifiable,
    readonly = bo.readonly,
    modified = bo.modified,
  }
end

local function wait_client(tile, bufnr)
  return vim.wait(TIMEOUT, function()
    local c = tile.get_client(bufnr)
    return c ~= nil and c.initialized == true
  end, 20)
end

local function run()
  local tile = require('tile_lsp')
  local v = vim.version()
  result.nvim_version = ('%d.%d.%d'):format(v.major, v.minor, v.patch)
  local original = assert(read_all(bytecode), 'cannot read ' .. tostring(bytecode))

  -- 1. open the bytecode: its text view, read-only
  vim.cmd('edit ' .. vim.fn.fnameescape(bytecode))
  local bufnr = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(bufnr)
  result.uri = uri
  result.state = buf_state(bufnr)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  result.header = { lines[1], lines[2] }
  result.entries = {}
  for i, l in ipairs(lines) do
    if l:match('^entry @') then
      table.insert(result.entries, l:match('^entry @[%w_]+'))
    end
    if not result.fma_line and l:find(' = fma ', 1, true) then
      result.fma_line = i - 1
      result.fma_col = l:find('fma', 1, true) - 1
    end
  end
  step('opened')

  -- 2. it cannot be changed or written, and leaving it asks nothing
  local ok, err = pcall(vim.api.nvim_buf_set_lines, bufnr, 0, 1, false, { 'x' })
  result.set_lines = { ok = ok, error = err and tostring(err) }
  ok, err = pcall(vim.cmd, 'normal! x')
  result.normal_x = { ok = ok, error = err and tostring(err) }
  ok, err = pcall(vim.cmd, 'write')
  result.write = { ok = ok, error = err and tostring(err) }
  ok, err = pcall(vim.cmd, 'write!')
  result.write_bang = { ok = ok, error = err and tostring(err) }
  result.file_unchanged = read_all(bytecode) == original
  result.modified_after = vim.bo[bufnr].modified
  step('readonly')

  -- 3. the server attaches under the file's URI, has the buffer's text, publishes diagnostics
  result.attached = wait_client(tile, bufnr)
  if not result.attached then
    error('tile-lsp did not attach to the bytecode view within ' .. TIMEOUT .. ' ms')
  end
  local client = tile.get_client(bufnr)
  result.client_name = client.name
  result.published = vim.wait(TIMEOUT, function()
    return (published[uri] or 0) > 0
  end, 20)
  result.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(result.diagnostics, { lnum = d.lnum, severity = d.severity, message = d.message })
  end
  local doc = vim.lsp.buf_request_sync(bufnr, 'tileLsp/documentText', { uri = uri }, TIMEOUT)
  for _, r in pairs(doc or {}) do
    if r.result and r.result.text then
      local text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
      result.server_text_matches = r.result.text:gsub('\n$', '') == text
    end
  end
  step('attached')

  -- 4. hover the first `fma`
  local hover = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', {
    textDocument = { uri = uri },
    position = { line = result.fma_line, character = result.fma_col + 1 },
  }, TIMEOUT)
  for _, r in pairs(hover or {}) do
    if r.result and r.result.contents then
      local c = r.result.contents
      result.hover = type(c) == 'table' and (c.value or vim.inspect(c)) or c
    elseif r.err then
      result.hover_error = r.err.message
    end
  end
  step('hover')

  -- 5. :q in a window of its own (another window stays) closes it without a question
  vim.cmd('new')
  local other = vim.api.nvim_get_current_win()
  vim.cmd('wincmd p')
  ok, err = pcall(vim.cmd, 'quit')
  result.quit = { ok = ok, error = err and tostring(err), windows = #vim.api.nvim_list_wins() }
  result.quit_left_other = vim.api.nvim_get_current_win() == other
  result.file_unchanged_after_quit = read_all(bytecode) == original
  step('quit')

  -- 6. a truncated copy: the error with its byte offset, in the buffer and a message; no traceback
  local before = #messages
  ok, err = pcall(vim.cmd, 'edit ' .. vim.fn.fnameescape(corrupt))
  vim.wait(200) -- the message is scheduled
  local cbuf = vim.api.nvim_get_current_buf()
  result.corrupt = {
    edit_ok = ok,
    edit_error = err and tostring(err),
    lines = vim.api.nvim_buf_get_lines(cbuf, 0, -1, false),
    state = buf_state(cbuf),
    messages = {},
    errmsg = vim.v.errmsg,
    attached = tile.get_client(cbuf) ~= nil,
  }
  for i = before + 1, #messages do
    table.insert(result.corrupt.messages, messages[i])
  end
  -- not bytecode (text under that name), and a missing file: a message each, no traceback
  result.others = {}
  for _, f in ipairs({ os.getenv('TILE_LSP_FAKE'), os.getenv('TILE_LSP_MISSING') }) do
    ok, err = pcall(vim.cmd, 'edit ' .. vim.fn.fnameescape(f))
    table.insert(result.others, {
      edit_ok = ok,
      edit_error = err and tostring(err),
      lines = vim.api.nvim_buf_get_lines(0, 0, -1, false),
      modifiable = vim.bo.modifiable,
    })
  end
  step('corrupt')

  -- 7. :TileSaveBytecode on a .mlir buffer: default version, then 13.3 into a second path
  vim.cmd('edit ' .. vim.fn.fnameescape(source))
  local sbuf = vim.api.nvim_get_current_buf()
  if not wait_client(tile, sbuf) then
    error('tile-lsp did not attach to ' .. source)
  end
  before = #messages
  vim.cmd('TileSaveBytecode ' .. vim.fn.fnameescape(target))
  result.saved = vim.wait(TIMEOUT, function()
    for i = before + 1, #messages do
      if messages[i].msg:find('wrote ', 1, true) or messages[i].msg:find('could not', 1, true) then
        return true
      end
    end
    return false
  end, 20)
  result.save_messages = {}
  for i = before + 1, #messages do
    table.insert(result.save_messages, messages[i])
  end
  local data = read_all(target)
  result.target_head = data and { data:byte(1, 10) } or nil
  result.target_size = data and #data or nil

  local target2 = target:gsub('%.tileirbc$', '') .. '_13_3.tileirbc'
  local done, ok2, res2 = false, nil, nil
  tile.save_bytecode(sbuf, target2, '13.3', function(a, b)
    done, ok2, res2 = true, a, b
  end)
  vim.wait(TIMEOUT, function()
    return done
  end, 20)
  result.save_13_3 = { done = done, ok = ok2, result = res2 }
  local data2 = read_all(target2)
  result.target2_head = data2 and { data2:byte(1, 10) } or nil

  -- a bad version: an error, nothing written
  done = false
  tile.save_bytecode(sbuf, target .. '.bad', '9.9', function(a, b)
    done, ok2, res2 = true, a, b
  end)
  vim.wait(TIMEOUT, function()
    return done
  end, 20)
  result.save_bad = { done = done, ok = ok2, result = res2, written = read_all(target .. '.bad') ~= nil }

  -- the bytecode written reads back in the view (header: its version)
  vim.cmd('edit ' .. vim.fn.fnameescape(target2))
  result.roundtrip_header = vim.api.nvim_buf_get_lines(0, 0, 1, false)[1]
  result.roundtrip_entries = {}
  for _, l in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
    if l:match('^%s*entry @') or l:match('^%s*cuda_tile%.entry @') then
      table.insert(result.roundtrip_entries, (l:match('entry @[%w_]+')))
    end
  end
  step('saved')
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
