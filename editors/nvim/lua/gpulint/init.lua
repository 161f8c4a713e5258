-- editors/nvim/lua/gpulint/init.lua: the gpulint plugin for Neovim >= 0.7. Owns: setup() and its
-- options, the autocommands that lint a buffer on open, on save and (debounced) on change, the
-- asynchronous gpulint jobs (the buffer's text on stdin, `--stdin-filename` its path), dropping
-- stale results, error reporting, and the rule documentation window. Does not own: reading the
-- SARIF (gpulint.sarif), the user commands (plugin/gpulint.lua).
-- Everything runs on Neovim's main loop: job callbacks and timers are scheduled there.
local sarif = require("gpulint.sarif")

local M = {}

local api = vim.api
local levels = vim.log.levels

M.namespace = api.nvim_create_namespace("gpulint")

local defaults = {
  cmd = "gpulint", -- the executable, a name on PATH or a path
  args = {}, -- extra arguments, after the ones the plugin passes
  evidence = nil, -- an evidence file from gpulint-probe: `--evidence FILE`
  debounce_ms = 300, -- quiet time after the last change before linting again
  filetypes = { "python" },
}

local config = vim.deepcopy(defaults)
local buffers = {} -- bufnr -> { job = id|nil, timer = uv timer|nil, pending = bool (debounce timer
-- running), soon = bool (a scheduled run), tick = changedtick of the job's text, group = id|nil }
local reported = { missing = false, error = nil } -- what vim.notify already said

local function notify(msg, level)
  vim.notify("gpulint: " .. msg, level)
end

local function first_line(text)
  for line in (text or ""):gmatch("[^\n]+") do
    if line:match("%S") then
      return line
    end
  end
  return "no message"
end

-- A failed run (exit status 2, unreadable output) is reported once; the same message again is
-- not repeated until a run succeeds.
local function report_error(msg)
  if reported.error ~= msg then
    reported.error = msg
    notify(msg, levels.ERROR)
  end
end

local function executable()
  if vim.fn.executable(config.cmd) == 1 then
    reported.missing = false
    return true
  end
  if not reported.missing then
    reported.missing = true
    local msg = "`%s` is not an executable on PATH; set `cmd` in require('gpulint').setup{}"
    notify(msg:format(config.cmd), levels.WARN)
  end
  return false
end

local function state(bufnr)
  buffers[bufnr] = buffers[bufnr] or {}
  return buffers[bufnr]
end

local function argv(path)
  local list = { config.cmd, "--format", "sarif", "--stdin-filename", path }
  if config.evidence then
    vim.list_extend(list, { "--evidence", vim.fn.expand(config.evidence) })
  end
  return vim.list_extend(list, config.args)
end

-- The nearest directory above `path` holding a `.git` (a directory, or a file in a worktree or
-- submodule), or nil. gpulint runs there, so its excludes (build/, .venv/, --exclude globs) see
-- the same relative path as a `gpulint .` from the project root.
local function project_root(path)
  local dir = vim.fn.fnamemodify(path, ":p:h")
  while true do
    if vim.loop.fs_stat(dir .. "/.git") then
      return dir
    end
    local parent = vim.fn.fnamemodify(dir, ":h")
    if parent == dir then
      return nil
    end
    dir = parent
  end
end

local function finish(bufnr, tick, code, stdout, stderr)
  if not api.nvim_buf_is_valid(bufnr) then
    return
  end
  if api.nvim_buf_get_changedtick(bufnr) ~= tick then
    M.schedule(bufnr) -- the text changed while gpulint ran: these results are stale
    return
  end
  if code ~= 0 and code ~= 1 then
    report_error(("exited with status %d: %s"):format(code, first_line(stderr)))
    return
  end
  local items, err = sarif.to_diagnostics(stdout, api.nvim_buf_get_lines(bufnr, 0, -1, false))
  if not items then
    report_error("unreadable output: " .. err)
    return
  end
  reported.error = nil
  vim.diagnostic.set(M.namespace, bufnr, items)
end

local function stdin_lines(bufnr)
  local lines = api.nvim_buf_get_lines(bufnr, 0, -1, false)
  if api.nvim_buf_get_option(bufnr, "eol") or api.nvim_buf_get_option(bufnr, "fixeol") then
    lines[#lines + 1] = "" -- chansend joins with "\n": this adds the final newline
  end
  return lines
end

-- Starts `argv` in `cwd` (nil: Neovim's current directory) with buffered output and calls
-- `on_done(code, stdout_lines, stderr_lines)` when it exits. Returns jobstart's id (<= 0: failed).
local function start_job(argv_list, cwd, on_done)
  local out, err = {}, {}
  return vim.fn.jobstart(argv_list, {
    cwd = cwd,
    stdout_buffered = true,
    stderr_buffered = true,
    on_stdout = function(_, data)
      out = data
    end,
    on_stderr = function(_, data)
      err = data
    end,
    on_exit = function(_, code)
      on_done(code, out, err)
    end,
  })
end

-- Lint `bufnr` (default: the current buffer) now. Does nothing for an unnamed buffer (gpulint
-- needs a path for its configuration and URIs) or when the executable is missing. A run still
-- going for the buffer is stopped: the new one supersedes it.
function M.lint(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and api.nvim_get_current_buf() or bufnr
  if not api.nvim_buf_is_loaded(bufnr) then
    return
  end
  local path = api.nvim_buf_get_name(bufnr)
  if path == "" or not executable() then
    return
  end
  local st = state(bufnr)
  local tick = api.nvim_buf_get_changedtick(bufnr)
  if st.job and st.tick == tick then
    return -- a run on this very text is in flight (FileType and BufReadPost both ask on open)
  end
  if st.job then
    vim.fn.jobstop(st.job)
  end
  st.tick = tick
  local job
  job = start_job(argv(path), project_root(path), function(code, out, err)
    if st.job ~= job then
      return -- stopped by a newer run
    end
    st.job = nil
    finish(bufnr, tick, code, table.concat(out, "\n"), table.concat(err, "\n"))
  end)
  if job <= 0 then
    report_error(("could not start `%s` (jobstart returned %d)"):format(config.cmd, job))
    return
  end
  st.job = job
  vim.fn.chansend(job, stdin_lines(bufnr))
  vim.fn.chanclose(job, "stdin")
end

-- Lint `bufnr` once `debounce_ms` pass without another call for it.
function M.schedule(bufnr)
  local st = state(bufnr)
  st.timer = st.timer or vim.loop.new_timer()
  st.timer:stop()
  st.pending = true
  st.timer:start(config.debounce_ms, 0, vim.schedule_wrap(function()
    st.pending = false
    if buffers[bufnr] == st then
      M.lint(bufnr)
    end
  end))
end

-- True while a run for `bufnr` waits for its debounce time or is in flight (statuslines, tests).
function M.busy(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and api.nvim_get_current_buf() or bufnr
  local st = buffers[bufnr]
  return st ~= nil and (st.soon == true or st.pending == true or st.job ~= nil)
end

-- Stop linting `bufnr`; its diagnostics are removed unless `keep` (setup() re-attaching: the next
-- run replaces them, and a failing run must not blank them).
local function detach(bufnr, keep)
  local st = buffers[bufnr]
  if not st then
    return
  end
  buffers[bufnr] = nil
  if st.timer then
    st.timer:stop()
    st.timer:close()
  end
  local job = st.job
  st.job = nil -- its on_exit sees it was stopped and does nothing
  if job then
    vim.fn.jobstop(job)
  end
  if st.group then
    pcall(api.nvim_del_augroup_by_id, st.group)
  end
  if not keep and api.nvim_buf_is_valid(bufnr) then
    vim.diagnostic.reset(M.namespace, bufnr)
  end
end

-- Lint `bufnr` once the current command is over. On open, Neovim 0.7 bumps b:changedtick after
-- BufReadPost and FileType: a run started there would always come back stale.
local function lint_soon(bufnr)
  local st = state(bufnr)
  st.soon = true
  vim.schedule(function()
    st.soon = false
    if buffers[bufnr] == st then
      M.lint(bufnr)
    end
  end)
end

local function attach(bufnr)
  local st = state(bufnr)
  if st.group then
    return
  end
  st.group = api.nvim_create_augroup("gpulint_buffer_" .. bufnr, { clear = true })
  -- event(s) -> what runs for this buffer
  local handlers = {
    { "BufReadPost", lint_soon },
    { "BufWritePost", M.lint },
    { { "TextChanged", "TextChangedI" }, M.schedule },
    { { "BufUnload", "BufWipeout" }, detach },
  }
  for _, h in ipairs(handlers) do
    local fn = h[2]
    api.nvim_create_autocmd(h[1], {
      group = st.group,
      buffer = bufnr,
      callback = function()
        fn(bufnr)
      end,
    })
  end
  lint_soon(bufnr)
end

local function wanted(bufnr)
  return vim.tbl_contains(config.filetypes, api.nvim_buf_get_option(bufnr, "filetype"))
end

-- require("gpulint").setup{cmd = "gpulint", args = {}, evidence = nil, debounce_ms = 300,
-- filetypes = {"python"}}: lint every buffer of those filetypes, now and from now on. Calling it
-- again replaces the options and re-attaches.
function M.setup(opts)
  vim.validate({ opts = { opts, "table", true } })
  config = vim.tbl_extend("force", vim.deepcopy(defaults), opts or {})
  vim.validate({
    cmd = { config.cmd, "string" },
    args = { config.args, "table" },
    evidence = { config.evidence, "string", true },
    debounce_ms = { config.debounce_ms, "number" },
    filetypes = { config.filetypes, "table" },
  })
  reported.missing, reported.error = false, nil
  if not vim.g.loaded_gpulint then
    vim.cmd("runtime plugin/gpulint.lua") -- the commands, where a plugin manager skipped plugin/
  end
  for bufnr in pairs(buffers) do
    detach(bufnr, true)
  end
  local group = api.nvim_create_augroup("gpulint", { clear = true })
  api.nvim_create_autocmd("FileType", {
    group = group,
    callback = function(args)
      if wanted(args.buf) then
        attach(args.buf)
      else
        detach(args.buf)
      end
    end,
  })
  for _, bufnr in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(bufnr) and wanted(bufnr) then
      attach(bufnr)
    end
  end
end

-- The gpulint finding under the cursor of the current window: one whose range holds the cursor,
-- else the first one on the cursor's line. Notifications (a syntax error) are not rules.
local function rule_under_cursor()
  local cursor = api.nvim_win_get_cursor(0)
  local row, col = cursor[1] - 1, cursor[2]
  local found = nil
  for _, d in ipairs(vim.diagnostic.get(0, { namespace = M.namespace, lnum = row })) do
    if d.user_data and d.user_data.gpulint == "result" and d.code then
      local inside = col >= d.col and (d.end_lnum > d.lnum or col < math.max(d.end_col, d.col + 1))
      if inside then
        return d.code
      end
      found = found or d.code
    end
  end
  return found
end

-- Show `gpulint rule ID` in a floating window (Markdown). ID defaults to the rule of the finding
-- under the cursor. Calls `on_open(bufnr, winid)` when the window is open (for tests).
function M.rule_doc(id, on_open)
  if id == nil or id == "" then
    id = rule_under_cursor()
  end
  if not id then
    notify("no gpulint finding under the cursor", levels.INFO)
    return
  end
  if not executable() then
    return
  end
  local job = start_job({ config.cmd, "rule", id }, nil, function(code, out, err)
    if code ~= 0 then
      local why = first_line(table.concat(err, "\n"))
      notify(("`gpulint rule %s` failed: %s"):format(id, why), levels.WARN)
      return
    end
    while #out > 0 and out[#out] == "" do
      out[#out] = nil
    end
    local buf, win = vim.lsp.util.open_floating_preview(out, "markdown", {
      border = "rounded",
      focus_id = "gpulint_rule_doc",
      max_width = 100,
      max_height = math.max(10, math.floor(vim.o.lines * 0.6)),
    })
    if on_open then
      on_open(buf, win)
    end
  end)
  if job <= 0 then
    notify(("could not start `%s` (jobstart returned %d)"):format(config.cmd, job), levels.ERROR)
  end
end

-- The options in effect (a copy), for :checkhealth-like inspection and tests.
function M.config()
  return vim.deepcopy(config)
end

return M
