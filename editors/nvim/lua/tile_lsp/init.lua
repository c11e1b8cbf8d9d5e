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
}

M.config = vim.deepcopy(defaults)

--- Merge user options into the configuration.
function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), vim.g.tile_lsp or {}, opts or {})
  if opts and opts.cmd then
    M.config.cmd = opts.cmd -- lists are replaced, not merged
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
  if vim.api.nvim_buf_get_option(bufnr, 'buftype') ~= '' then
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

function M.complete_stage(arglead)
  return vim.tbl_filter(function(s)
    return s:find(arglead, 1, true) == 1
  end, M.stages)
end

return M
