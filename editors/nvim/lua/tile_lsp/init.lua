-- tile-lsp client for Neovim (0.7+): filetype detection helpers, server start, stage views.
--
-- Uses vim.lsp.start (Neovim >= 0.8) when it exists, otherwise vim.lsp.start_client +
-- vim.lsp.buf_attach_client with one client per root directory (the 0.7 API).

local M = {}

M.stages = { 'cuda_tile', 'tileaa', 'gpu', 'nvvm', 'llvm', 'llvm-ir', 'ptx', 'cubin' }

local defaults = {
  -- The server command (a list). `tile-lsp` on PATH by default.
  cmd = { 'tile-lsp', 'serve' },
  -- Filetypes the server is started for. `mlir` buffers only when their text is in upstream
  -- dialects (gpu, nvgpu, nvvm, llvm, arith, ...; see `upstream_mlir`).
  filetypes = { 'cuda_tile', 'ptx', 'llvm', 'mlir' },
  -- Attach to `mlir` buffers in upstream dialects (pipeline diagnostics, hover with the NVVM/PTX
  -- lines of an op, :TileLspShowStage). Other servers (mlir-lsp-server) may serve them too.
  upstream_mlir = true,
  -- Files/directories that mark a project root (searched upwards from the buffer).
  root_markers = { '.git', 'pyproject.toml', 'Makefile' },
  -- Server settings (initializationOptions and workspace/didChangeConfiguration), e.g.
  -- { gpuName = 'sm_90', optLevel = 2 }.
  settings = {},
  -- Start the server automatically on FileType (set false when using nvim-lspconfig).
  autostart = true,
  -- Extra fields passed to vim.lsp.start / start_client (on_attach, capabilities, ...).
  client = {},
  -- The command that prints a `.tileirbc` file as cuda_tile text (the file's path is appended):
  -- nil = `cmd` with `serve` (and what follows it) replaced by `opt`, e.g. { 'tile-lsp', 'opt' }.
  bytecode_cmd = nil,
  -- How long opening a `.tileirbc` may take (ms) before it is given up.
  bytecode_timeout = 30000,
}

M.config = vim.deepcopy(defaults)

--- Merge user options into the configuration.
function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), vim.g.tile_lsp or {}, opts or {})
  if opts and opts.cmd then
    M.config.cmd = opts.cmd -- lists are replaced, not merged
  end
  if opts and opts.bytecode_cmd then
    M.config.bytecode_cmd = opts.bytecode_cmd
  end
  return M.config
end

-- ---------------------------------------------------------------------------------------
-- Filetype detection

--- True when the lines look like cuda_tile IR: they mention `cuda_tile.` or the first
--- meaningful line is a bare top-level `entry @` / `global @` (tileirdisasm's form).
function M.is_cuda_tile_lines(lines)
  local first = nil
  for _, line in ipairs(lines) do
    if line:find('cuda_tile.', 1, true) then
      return true
    end
    if first == nil and not line:match('^%s*$') and not line:match('^%s*//') then
      first = line
    end
  end
  return first ~= nil and (first:match('^%s*entry%s+@') ~= nil or first:match('^%s*global%s+@') ~= nil)
end

local upstream_prefixes = { 'gpu', 'nvgpu', 'nvvm', 'llvm', 'func', 'arith', 'scf', 'memref', 'math', 'cf', 'vector' }

--- True when the lines are MLIR in upstream dialects with no cuda_tile in them (the server's
--- own test: tile_lsp/compiler/upstream.py `is_upstream`).
function M.is_upstream_lines(lines)
  local found = false
  for _, line in ipairs(lines) do
    if line:find('cuda_tile', 1, true) or line:find('entry @', 1, true) then
      return false
    end
    if not found then
      for _, prefix in ipairs(upstream_prefixes) do
        if line:find('%f[%w_.]' .. prefix .. '%.[a-z_]') then
          found = true
          break
        end
      end
    end
  end
  return found
end

--- Detect the filetype of an `.mlir` buffer: `cuda_tile` for cuda_tile IR, else `mlir` when
--- Neovim set none (0.7 does not know `.mlir`), else untouched.
function M.detect_mlir(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, 200, false)
  if M.is_cuda_tile_lines(lines) then
    vim.api.nvim_buf_set_option(bufnr, 'filetype', 'cuda_tile')
  elseif vim.bo[bufnr].filetype == '' then
    vim.api.nvim_buf_set_option(bufnr, 'filetype', 'mlir')
  end
end

local preview_suffixes = { '.tileaa.mlir', '.gpu.mlir', '.nvvm.mlir', '.llvm.mlir', '.ll', '.ptx' }

--- True for a preview file the server wrote (a `<stem>.map.json` next to it ties its lines to
--- the source ops): definition on any of its lines goes back to the cuda_tile op.
function M.is_preview(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  for _, suffix in ipairs(preview_suffixes) do
    if name:sub(-#suffix) == suffix then
      local map = name:sub(1, #name - #suffix) .. '.map.json'
      if vim.fn.filereadable(map) == 1 then
        return true
      end
    end
  end
  return false
end

--- Whether the server should attach to a buffer of this filetype (mlir: upstream text or a
--- preview; llvm: previews only).
function M.wants(bufnr)
  local ft = vim.bo[bufnr].filetype
  if not vim.tbl_contains(M.config.filetypes, ft) then
    return false
  end
  if ft == 'llvm' or (ft == 'mlir' and M.is_preview(bufnr)) then
    return ft == 'mlir' or M.is_preview(bufnr)
  end
  if ft ~= 'mlir' then
    return true
  end
  return M.config.upstream_mlir ~= false and M.is_upstream_lines(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false))
end

-- ---------------------------------------------------------------------------------------
-- Starting the server

local clients_by_root = {} -- 0.7 path: root_dir -> client id

-- Scheduled, so that a message from inside an autocmd or a response handler never aborts it.
local function notify(msg, level)
  vim.schedule(function()
    vim.notify('tile-lsp: ' .. msg, level or vim.log.levels.INFO)
  end)
end

local function find_root(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or vim.fn.getcwd()
  for _, marker in ipairs(M.config.root_markers or {}) do
    local found = vim.fn.finddir(marker, dir .. ';')
    if found == '' then
      found = vim.fn.findfile(marker, dir .. ';')
    end
    if found ~= '' then
      local path = vim.fn.fnamemodify(found, ':p'):gsub('/$', '')
      return vim.fn.fnamemodify(path, ':h')
    end
  end
  return dir
end

local function client_config(root)
  local cfg = vim.tbl_extend('force', {
    name = 'tile-lsp',
    cmd = M.config.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    init_options = M.config.settings,
    settings = { tileLsp = M.config.settings },
  }, M.config.client or {})
  return cfg
end

local warned_cmd = {}

local function executable_ok()
  if type(M.config.cmd) == 'function' then -- vim.lsp.rpc.connect(host, port): a running `serve --tcp`
    return true
  end
  local exe = M.config.cmd and M.config.cmd[1]
  if not exe or vim.fn.executable(exe) ~= 1 then
    if warned_cmd[tostring(exe)] then
      return false
    end
    warned_cmd[tostring(exe)] = true
    notify(
      ("server command '%s' is not executable; install tile-lsp or set cmd in require('tile_lsp').setup{}"):format(
        tostring(exe)
      ),
      vim.log.levels.ERROR
    )
    return false
  end
  return true
end

--- Start (or reuse) the client for the buffer's root and attach the buffer. Returns the client id.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  -- Scratch buffers (stage views) are not served; a bytecode view (`nowrite`, the file's name) is.
  if vim.api.nvim_buf_get_option(bufnr, 'buftype') ~= '' and not vim.b[bufnr].tile_lsp_bytecode then
    return nil
  end
  if not executable_ok() then
    return nil
  end
  local root = find_root(bufnr)
  local cfg = client_config(root)
  if vim.lsp.start then -- Neovim >= 0.8: reuses a client with the same name and root_dir
    return vim.lsp.start(cfg, { bufnr = bufnr })
  end
  local id = clients_by_root[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or client.is_stopped() then
    id = vim.lsp.start_client(cfg)
    if not id then
      local what = type(M.config.cmd) == 'table' and table.concat(M.config.cmd, ' ') or 'the server'
      notify('could not start ' .. what, vim.log.levels.ERROR)
      return nil
    end
    clients_by_root[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

-- Client names: this plugin's, and nvim-lspconfig's (see README.md).
local client_names = { ['tile-lsp'] = true, tile_lsp = true }

--- The tile-lsp client attached to a buffer, or nil.
function M.get_client(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  for _, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if client_names[client.name] then
      return client
    end
  end
  return nil
end

--- Stop every tile-lsp client; buffers re-attach on :edit (or call attach again).
function M.restart()
  for _, client in pairs(vim.lsp.get_active_clients()) do
    if client_names[client.name] then
      client.stop()
    end
  end
  clients_by_root = {}
  vim.defer_fn(function()
    for _, buf in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(buf) and M.wants(buf) then
        M.attach(buf)
      end
    end
  end, 500)
end

-- ---------------------------------------------------------------------------------------
-- Stage views

local stage_filetype = { ptx = 'ptx', cuda_tile = 'cuda_tile', ['llvm-ir'] = 'llvm' }

--- Open (or reuse) a split showing `text` for a stage of the source buffer.
local function show_in_split(source_buf, stage, text)
  local name = ('tile-lsp://%s/%s'):format(stage, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(source_buf), ':t'))
  local buf = vim.fn.bufnr(name)
  if buf == -1 then
    buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(buf, name)
    vim.api.nvim_buf_set_option(buf, 'bufhidden', 'hide')
  end
  vim.api.nvim_buf_set_option(buf, 'modifiable', true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(text or '', '\n', { plain = true }))
  vim.api.nvim_buf_set_option(buf, 'modifiable', false)
  vim.api.nvim_buf_set_option(buf, 'filetype', stage_filetype[stage] or 'mlir')
  vim.api.nvim_buf_set_var(buf, 'tile_lsp_source', source_buf)  -- (a stage command from here means the source)
  local win = vim.fn.bufwinid(buf)
  if win == -1 then
    vim.cmd('vsplit')
    vim.api.nvim_win_set_buf(0, buf)
  else
    vim.api.nvim_set_current_win(win)
  end
  return buf
end

--- Ask the server for a stage's output (custom request tileLsp/viewStage {uri, stage} -> {output})
--- and show it in a split. Failures are reported with a message, never raised.
--- `on_done(ok, output_or_message)` is called afterwards (used by tests).
function M.show_stage(stage, bufnr, on_done)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local has_source, source = pcall(vim.api.nvim_buf_get_var, bufnr, 'tile_lsp_source')
  if has_source and type(source) == 'number' and vim.api.nvim_buf_is_valid(source) then
    bufnr = source -- asked from a stage view: show that stage of the view's source
  end
  on_done = on_done or function() end
  local function fail(msg)
    notify(msg, vim.log.levels.WARN)
    on_done(false, msg)
  end
  if not stage or stage == '' then
    return fail('usage: :TileLspShowStage {' .. table.concat(M.stages, '|') .. '}')
  end
  local client = M.get_client(bufnr)
  if not client then
    return fail('no tile-lsp server attached to this buffer')
  end
  local params = { uri = vim.uri_from_bufnr(bufnr), stage = stage }
  local ok, sent = pcall(client.request, 'tileLsp/viewStage', params, function(err, result)
    if err then
      local msg = type(err) == 'table' and (err.message or vim.inspect(err)) or tostring(err)
      return fail(("the server could not show stage '%s': %s"):format(stage, msg))
    end
    if type(result) ~= 'table' or type(result.output) ~= 'string' then
      return fail(("the server returned no output for stage '%s'"):format(stage))
    end
    local shown = pcall(show_in_split, bufnr, stage, result.output)
    if not shown then
      return fail('could not open a split for stage ' .. stage)
    end
    on_done(true, result.output)
  end, bufnr)
  if not ok or not sent then
    fail(("the request for stage '%s' could not be sent"):format(stage))
  end
end

-- ---------------------------------------------------------------------------------------
-- Tile IR bytecode (`.tileirbc`): a read-only text view, and a buffer saved as bytecode

M.bytecode_magic = '\127TileIR\0'
M.max_bytecode_view = 16 * 1024 * 1024 -- the server's limit (tile_lsp/features/bytecode_view.py)

--- The command that prints a bytecode file as text: `bytecode_cmd`, else `cmd` up to `serve`
--- followed by `opt` (`tile-lsp serve` -> `tile-lsp opt`; `python -m tile_lsp serve` ->
--- `python -m tile_lsp opt`), else `tile-lsp opt` (cmd is a function: a TCP server).
function M.bytecode_command(path)
  local base = M.config.bytecode_cmd
  if type(base) == 'string' then
    base = { base }
  end
  if type(base) ~= 'table' then
    base = {}
    local cmd = type(M.config.cmd) == 'table' and M.config.cmd or { 'tile-lsp', 'serve' }
    for _, part in ipairs(cmd) do
      if part == 'serve' then
        break
      end
      table.insert(base, part)
    end
    if #base == 0 then
      base = { 'tile-lsp' }
    end
    if #base == #cmd and #cmd > 1 then -- no `serve` in it: the program alone
      base = { cmd[1] }
    end
    table.insert(base, 'opt')
  end
  local out = vim.deepcopy(base)
  table.insert(out, path)
  return out
end

local function thousands(n)
  local s = tostring(n)
  local out = s:reverse():gsub('(%d%d%d)', '%1,'):reverse()
  return (out:gsub('^,', ''))
end

local function read_bytes(path, n)
  local f = io.open(path, 'rb')
  if not f then
    return nil
  end
  local data = f:read(n) or ''
  f:close()
  return data
end

--- Run a command synchronously: ok, stdout lines, stderr lines (or a message).
local function run_sync(cmd, timeout)
  local stdout, stderr = {}, {}
  local ok, job = pcall(vim.fn.jobstart, cmd, {
    stdout_buffered = true,
    stderr_buffered = true,
    on_stdout = function(_, data)
      stdout = data or {}
    end,
    on_stderr = function(_, data)
      stderr = data or {}
    end,
  })
  if not ok or type(job) ~= 'number' or job <= 0 then
    return nil, {}, { ("cannot run '%s'"):format(tostring(cmd[1])) }
  end
  local rc = vim.fn.jobwait({ job }, timeout)[1]
  if rc == -1 then
    vim.fn.jobstop(job)
    return nil, {}, { ('%s did not finish within %d ms'):format(table.concat(cmd, ' '), timeout) }
  end
  -- the buffered callbacks run before jobwait returns; the last item is the (empty) partial line
  if stdout[#stdout] == '' then
    table.remove(stdout)
  end
  stderr = vim.tbl_filter(function(l)
    return l ~= ''
  end, stderr)
  return rc == 0, stdout, stderr
end

--- The text view of a bytecode file: lines (a header comment naming the file, its version and
--- size, then the decoded module), or nil and an error message (with the byte offset when the
--- bytecode is corrupt).
function M.bytecode_lines(path)
  local name = vim.fn.fnamemodify(path, ':t')
  local size = vim.fn.getfsize(path)
  if size < 0 or vim.fn.filereadable(path) ~= 1 then
    return nil, name .. ': cannot read it: no such file or not readable'
  end
  if size > M.max_bytecode_view then
    return nil, ('%s: %s bytes, over the %s-byte limit of the bytecode view'):format(
      name,
      thousands(size),
      thousands(M.max_bytecode_view)
    )
  end
  local head = read_bytes(path, #M.bytecode_magic + 2)
  if not head then
    return nil, name .. ': cannot read it'
  end
  if head:sub(1, #M.bytecode_magic) ~= M.bytecode_magic then
    return nil, name .. ': not Tile IR bytecode (it does not start with the bytecode magic)'
  end
  local cmd = M.bytecode_command(path)
  if vim.fn.executable(cmd[1]) ~= 1 then
    return nil, ("cannot decode %s: '%s' is not executable; install tile-lsp or set cmd in require('tile_lsp').setup{}"):format(
      name,
      cmd[1]
    )
  end
  local ok, out, err = run_sync(cmd, M.config.bytecode_timeout or 30000)
  if not ok then
    return nil, (#err > 0 and table.concat(err, '\n') or (name .. ': cannot decode this bytecode'))
  end
  local version = '?'
  if #head >= #M.bytecode_magic + 2 then
    version = ('%d.%d'):format(head:byte(#M.bytecode_magic + 1), head:byte(#M.bytecode_magic + 2))
  end
  local lines = {
    ('// %s: Tile IR bytecode %s, %s bytes'):format(name, version, thousands(size)),
    '// decoded by tile-lsp (read-only view; :TileSaveBytecode writes a cuda_tile buffer as bytecode)',
  }
  vim.list_extend(lines, out)
  return lines
end

--- BufReadCmd for `*.tileirbc`: fill the buffer with the file's text view, read-only and
--- `nowrite` (`:w` never writes the binary; `:w other.mlir` saves the text), filetype cuda_tile
--- so that the server attaches under the file's own URI. A corrupt file shows the error instead.
function M.read_bytecode(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local path = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':p')
  local ok, lines, err = pcall(M.bytecode_lines, path)
  if not ok then
    lines, err = nil, tostring(lines)
  end
  local bo = vim.bo[bufnr]
  vim.b[bufnr].tile_lsp_bytecode = true
  vim.b[bufnr].tile_lsp_bytecode_error = err
  bo.swapfile = false
  bo.buftype = 'nowrite'
  bo.readonly = false
  bo.modifiable = true
  local shown = lines
  if not shown then
    shown = { '// tile-lsp: cannot show this Tile IR bytecode:' }
    for _, l in ipairs(vim.split(err or '', '\n', { plain = true })) do
      table.insert(shown, '// ' .. l)
    end
  end
  vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, shown)
  bo.modified = false
  bo.modifiable = false
  bo.readonly = true
  if lines then
    if bo.filetype == 'cuda_tile' then
      -- a reload (:edit): FileType does not fire again for the same value
      if M.config.autostart ~= false and (vim.g.tile_lsp or {}).autostart ~= false then
        M.attach(bufnr)
      end
    else
      bo.filetype = 'cuda_tile'
    end
  else
    notify(err, vim.log.levels.ERROR)
  end
end

--- Write a buffer (its text as the server holds it) as Tile IR bytecode: workspace/executeCommand
--- tileLsp.saveAsBytecode [{uri, path, version?}]. `path` defaults to the buffer's file with the
--- extension `.tileirbc`; `version` (e.g. '13.3') to the newest the IR needs. The answer is
--- reported (path, size, version; the diagnostics as warnings; an error as an error).
--- `on_done(ok, result_or_message)` is called afterwards (used by tests).
function M.save_bytecode(bufnr, path, version, on_done)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  on_done = on_done or function() end
  local function fail(msg, result)
    notify(msg, vim.log.levels.ERROR)
    on_done(false, result or msg)
  end
  local client = M.get_client(bufnr)
  if not client then
    return fail('no tile-lsp server attached to this buffer')
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if not path or path == '' then
    if name == '' then
      return fail('the buffer has no file name: give a path, :TileSaveBytecode PATH [VERSION]')
    end
    path = vim.fn.fnamemodify(name, ':p:r') .. '.tileirbc'
  end
  path = vim.fn.fnamemodify(path, ':p')
  local args = { uri = vim.uri_from_bufnr(bufnr), path = path }
  if version and version ~= '' then
    args.version = version
  end
  local params = { command = 'tileLsp.saveAsBytecode', arguments = { args } }
  local ok, sent = pcall(client.request, 'workspace/executeCommand', params, function(err, result)
    if err then
      local msg = type(err) == 'table' and (err.message or vim.inspect(err)) or tostring(err)
      return fail('could not save as bytecode: ' .. msg)
    end
    if type(result) ~= 'table' then
      return fail('the server gave no answer to saveAsBytecode')
    end
    local diagnostics = type(result.diagnostics) == 'table' and result.diagnostics or {}
    if #diagnostics > 0 then
      notify(table.concat(diagnostics, '\n'), vim.log.levels.WARN)
    end
    if result.error then
      return fail('could not save as bytecode: ' .. tostring(result.error), result)
    end
    notify(
      ('wrote %s: %s bytes, Tile IR bytecode %s'):format(
        tostring(result.path),
        thousands(tonumber(result.bytes) or 0),
        tostring(result.version)
      ),
      vim.log.levels.INFO
    )
    on_done(true, result)
  end, bufnr)
  if not ok or not sent then
    fail('the saveAsBytecode request could not be sent')
  end
end

--- :TileSaveBytecode [path] [version]; a lone `13.N` is the version.
function M.save_bytecode_command(fargs)
  local path, version = fargs[1], fargs[2]
  if path and not version and path:match('^%d+%.%d+$') then
    path, version = nil, path
  end
  if path then
    path = vim.fn.expand(path)
  end
  M.save_bytecode(0, path, version)
end

function M.complete_stage(arglead)
  return vim.tbl_filter(function(s)
    return s:find(arglead, 1, true) == 1
  end, M.stages)
end

return M
