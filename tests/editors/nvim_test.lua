-- tests/editors/nvim_test.lua: drives the gpulint Neovim plugin (editors/nvim) in a real headless
-- Neovim and checks the diagnostics it sets: exact positions (byte columns converted from SARIF's
-- UTF-16 columns, non-ASCII text before and inside findings), severity, code, source; suppressed
-- findings left out; a syntax error; the debounced re-run after edits; stale results dropped; the
-- rule documentation window; exit status 2 and a missing executable reported once.
-- Run by nvim_test.sh, which sets GL_NVIM_WORK (a copy of the fixtures) and GL_NVIM_LOG (one line
-- per gpulint run, written by a wrapper on PATH). The test runs as a coroutine that yields to
-- Neovim's main loop between steps, so TextChanged and job callbacks fire as in a real session.
-- Any failure ends Neovim with `cquit 1`; only a complete pass ends it with `qall!`.
local work = assert(os.getenv("GL_NVIM_WORK"), "GL_NVIM_WORK is not set")
local run_log = assert(os.getenv("GL_NVIM_LOG"), "GL_NVIM_LOG is not set")

local checks = 0
local notes = {} -- every vim.notify call: { msg = ..., level = ... }
local snapshots = {} -- every DiagnosticChanged: { file = ..., items = {...} }

local function die(msg)
  io.stderr:write("nvim_test: FAIL: " .. tostring(msg) .. "\n")
  io.stderr:flush()
  vim.cmd("cquit 1")
end

local function eq(actual, expected, what)
  checks = checks + 1
  if not vim.deep_equal(actual, expected) then
    error(("%s:\n  expected %s\n  actual   %s"):format(what, vim.inspect(expected), vim.inspect(actual)), 2)
  end
end

local function ok(cond, what)
  checks = checks + 1
  if not cond then
    error(what, 2)
  end
end

-- Coroutine plumbing: sleep() hands control back to the main loop for `ms`.
local main_co
local function resume()
  local good, err = coroutine.resume(main_co)
  if not good then
    die(debug.traceback(main_co, err))
  end
end

local function sleep(ms)
  vim.defer_fn(resume, ms)
  coroutine.yield()
end

local function wait_for(cond, what, timeout_ms)
  local deadline = vim.loop.hrtime() + (timeout_ms or 15000) * 1e6
  while not cond() do
    if vim.loop.hrtime() > deadline then
      error("timed out waiting for " .. what, 2)
    end
    sleep(10)
  end
end

local gpulint = require("gpulint")

local function wait_idle(bufnr, what)
  wait_for(function()
    return not gpulint.busy(bufnr)
  end, what .. " (idle)")
end

local function runs()
  local f = io.open(run_log, "r")
  if not f then
    return {}
  end
  local lines = {}
  for line in f:lines() do
    lines[#lines + 1] = line
  end
  f:close()
  return lines
end

-- The plugin's diagnostics of `bufnr` as plain tables, sorted by position.
local function diags(bufnr)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr, { namespace = gpulint.namespace })) do
    list[#list + 1] = {
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      end_col = d.end_col,
      severity = d.severity,
      code = d.code,
      source = d.source,
    }
  end
  table.sort(list, function(a, b)
    return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
  end)
  return list
end

local function message_of(bufnr, code)
  for _, d in ipairs(vim.diagnostic.get(bufnr, { namespace = gpulint.namespace })) do
    if d.code == code then
      return d.message
    end
  end
  return nil
end

local S = vim.diagnostic.severity

local function open(name)
  vim.cmd("edit " .. vim.fn.fnameescape(work .. "/" .. name))
  return vim.api.nvim_get_current_buf()
end

local function float_windows()
  local wins = {}
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= "" then
      wins[#wins + 1] = win
    end
  end
  return wins
end

local function test_open_unicode()
  local buf = open("unicode.py")
  wait_for(function()
    return #diags(buf) == 1
  end, "the GPU201 finding in unicode.py")
  wait_idle(buf, "unicode.py")
  -- `    label = "é€𝄞"; total = float(x.mean())`: SARIF columns 29..44 (UTF-16, 𝄞 is two units),
  -- bytes 33..48 (é 2, € 3, 𝄞 4 bytes).
  eq(diags(buf), { {
    lnum = 4, col = 33, end_lnum = 4, end_col = 48, severity = S.WARN, code = "GPU201", source = "gpulint",
  } }, "unicode.py diagnostics")
  local line = vim.api.nvim_buf_get_lines(buf, 4, 5, false)[1]
  eq(line:sub(34, 48), "float(x.mean())", "the bytes the diagnostic covers")
  eq(message_of(buf, "GPU201"):sub(1, 54), "`float(x.mean())` copies device data to the host on ev",
    "GPU201 message")
  eq(runs(), { "--format sarif --stdin-filename " .. work .. "/unicode.py" }, "gpulint's arguments")
  return buf
end

local function test_levels_and_write()
  local buf = open("levels.py")
  wait_for(function()
    return #diags(buf) == 3
  end, "three findings in levels.py")
  wait_idle(buf, "levels.py")
  -- GPU102 on line 3 is silenced by `# noqa: GPU102`: SARIF keeps it as suppressed, we drop it.
  -- The GPU501 on lines 6-7 ends after `"é€𝄞", dtype=cp.float64)`: UTF-16 column 30, byte 34.
  eq(diags(buf), {
    { lnum = 1, col = 7, end_lnum = 1, end_col = 15, severity = S.ERROR, code = "GPU101", source = "gpulint" },
    { lnum = 4, col = 4, end_lnum = 4, end_col = 33, severity = S.INFO, code = "GPU501", source = "gpulint" },
    { lnum = 5, col = 4, end_lnum = 6, end_col = 34, severity = S.INFO, code = "GPU501", source = "gpulint" },
  }, "levels.py diagnostics")
  local before = #runs()
  vim.cmd("silent write")
  sleep(50)
  wait_idle(buf, "levels.py after :write")
  eq(#runs(), before + 1, "runs after :write (BufWritePost)")
  eq(#diags(buf), 3, "levels.py diagnostics after :write")
  return buf
end

local function test_syntax_error()
  local buf = open("syntax_error.py")
  wait_for(function()
    return #diags(buf) == 2
  end, "two diagnostics in syntax_error.py")
  -- The notification has a start only: it runs to the end of `def broken(:` (12 bytes).
  eq(diags(buf), {
    { lnum = 3, col = 11, end_lnum = 3, end_col = 12, severity = S.WARN, code = "syntax-error", source = "gpulint" },
    { lnum = 6, col = 12, end_lnum = 6, end_col = 27, severity = S.WARN, code = "GPU201", source = "gpulint" },
  }, "syntax_error.py diagnostics")
  eq(message_of(buf, "syntax-error"), "syntax error: missing ')' (the recovered tree was linted)",
    "syntax error message")
  -- The cursor on the syntax error: not a rule, so no window and one message.
  vim.api.nvim_win_set_cursor(0, { 4, 11 })
  local before = #notes
  vim.cmd("GpulintRuleDoc")
  eq(#notes, before + 1, "notifications after :GpulintRuleDoc on a syntax error")
  eq(notes[#notes].msg, "gpulint: no gpulint finding under the cursor", "message for no rule")
  wait_idle(buf, "syntax_error.py")
end

local function test_not_python()
  local before = #runs()
  local buf = open("notes.txt")
  sleep(300)
  eq(vim.bo[buf].filetype, "text", "notes.txt filetype")
  eq(#runs(), before, "runs for a text file")
  eq(#diags(buf), 0, "diagnostics of a text file")
end

-- Files the project excludes (.gitignore, a build/ directory) get no diagnostics and no error:
-- gpulint reads the text, lints nothing and exits 0.
local function test_excluded()
  for _, name in ipairs({ "ignored.py", "build/unicode.py" }) do
    local before = #runs()
    local buf = open(name)
    sleep(50)
    wait_idle(buf, name)
    eq(#runs(), before + 1, "runs for " .. name)
    eq(#diags(buf), 0, "diagnostics of " .. name)
  end
end

local function test_rule_doc(buf)
  vim.cmd("buffer " .. buf)
  vim.api.nvim_win_set_cursor(0, { 5, 35 }) -- inside `float(x.mean())`
  vim.cmd("GpulintRuleDoc")
  wait_for(function()
    return #float_windows() == 1
  end, "the rule documentation window")
  local win = float_windows()[1]
  local lines = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false)
  eq(lines[1], "# GPU201 d2h-transfer-in-loop", "first line of the rule window")
  ok(vim.tbl_contains(lines, "## What it does"), "the rule window shows the rule's sections")
  vim.api.nvim_win_close(win, true)
end

-- The text changes while gpulint runs: that result is dropped (never shown at the old line) and a
-- new run gives the finding its new line.
local function test_stale(buf)
  wait_idle(buf, "unicode.py before the stale run")
  local before = #runs()
  snapshots = {}
  gpulint.lint(buf)
  vim.api.nvim_buf_set_lines(buf, 0, 0, false, { "# one more line" })
  wait_for(function()
    local d = diags(buf)
    return #d == 1 and d[1].lnum == 5
  end, "the finding on its new line")
  wait_idle(buf, "unicode.py after the stale run")
  for _, snap in ipairs(snapshots) do
    for _, d in ipairs(snap.items) do
      ok(d.lnum ~= 4, "a stale result was shown: " .. vim.inspect(d))
    end
  end
  eq(#runs(), before + 2, "runs: the stale one and its replacement")
  eq(diags(buf), { {
    lnum = 5, col = 33, end_lnum = 5, end_col = 48, severity = S.WARN, code = "GPU201", source = "gpulint",
  } }, "unicode.py diagnostics after the insertion")
end

-- Three quick edits give one debounced run, which clears the finding they removed.
local function test_edit_removes(buf)
  local before = #runs()
  local row = 5 -- 0-based: the finding's line after test_stale's insertion
  local steps = {
    '    label = "é€𝄞"; total = float(x.mean()) ',
    '    label = "é€𝄞"; total = (x.mean()) ',
    '    label = "é€𝄞"; total = x.mean()',
  }
  for _, text in ipairs(steps) do
    vim.api.nvim_buf_set_lines(buf, row, row + 1, false, { text })
    sleep(20)
  end
  eq(#diags(buf), 1, "the finding stays until the debounced run")
  wait_for(function()
    return #diags(buf) == 0
  end, "the finding to go after the edit")
  wait_idle(buf, "unicode.py after the edit")
  eq(#runs(), before + 1, "debounced runs for three edits")
end

-- Exit status 2 (a bad evidence file): one error message, however often it recurs, and the
-- diagnostics already shown stay.
local function test_exit_2(levels_buf)
  local bad = work .. "/bad-evidence.json"
  local f = assert(io.open(bad, "w"))
  f:write("{ not json")
  f:close()
  local before = #notes
  gpulint.setup({ evidence = bad, debounce_ms = 200 })
  wait_idle(levels_buf, "levels.py with bad evidence")
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    wait_idle(b, "buffer " .. b .. " with bad evidence")
  end
  eq(#notes, before + 1, "notifications for three failing runs")
  eq(notes[#notes].level, vim.log.levels.ERROR, "level of the exit-2 message")
  ok(notes[#notes].msg:find("^gpulint: exited with status 2: ") ~= nil, "exit-2 message: " .. notes[#notes].msg)
  ok(notes[#notes].msg:find("bad%-evidence%.json") ~= nil, "exit-2 message names the file: " .. notes[#notes].msg)
  eq(#diags(levels_buf), 3, "levels.py diagnostics kept after exit status 2")
  gpulint.lint(levels_buf)
  wait_idle(levels_buf, "levels.py, second failing run")
  eq(#notes, before + 1, "notifications after another failing run")
  gpulint.setup({ debounce_ms = 200 })
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    wait_idle(b, "buffer " .. b .. " after restoring")
  end
  eq(#diags(levels_buf), 3, "levels.py diagnostics after restoring")
  eq(#notes, before + 1, "notifications after restoring")
end

-- No executable: one warning, no runs, no error loop; the diagnostics shown stay.
local function test_missing(levels_buf)
  local before_notes, before_runs = #notes, #runs()
  gpulint.setup({ cmd = work .. "/bin/no-such-gpulint" })
  gpulint.lint(levels_buf)
  vim.api.nvim_buf_set_lines(levels_buf, 3, 3, false, { "" })
  sleep(500)
  wait_idle(levels_buf, "levels.py without gpulint")
  eq(#notes, before_notes + 1, "notifications without an executable")
  eq(notes[#notes].level, vim.log.levels.WARN, "level of the missing-executable message")
  eq(notes[#notes].msg, "gpulint: `" .. work .. "/bin/no-such-gpulint` is not an executable on PATH; "
    .. "set `cmd` in require('gpulint').setup{}", "missing-executable message")
  eq(#runs(), before_runs, "runs without an executable")
  eq(#diags(levels_buf), 3, "levels.py diagnostics without an executable")
end

local function main()
  vim.notify = function(msg, level)
    notes[#notes + 1] = { msg = msg, level = level }
  end
  vim.api.nvim_create_autocmd("DiagnosticChanged", {
    callback = function(args)
      snapshots[#snapshots + 1] = { file = args.file, items = diags(args.buf) }
    end,
  })
  vim.cmd("runtime plugin/gpulint.lua")
  eq(vim.fn.exists(":GpulintRuleDoc"), 2, ":GpulintRuleDoc defined by plugin/gpulint.lua")
  gpulint.setup({ debounce_ms = 200 })
  local unicode_buf = test_open_unicode()
  local levels_buf = test_levels_and_write()
  test_syntax_error()
  test_not_python()
  test_excluded()
  test_rule_doc(unicode_buf)
  test_stale(unicode_buf)
  test_edit_removes(unicode_buf)
  test_exit_2(levels_buf)
  test_missing(levels_buf)
  eq(#notes, 3, "notifications in the whole session")
  io.stdout:write(("nvim_test: ok, %d checks passed\n"):format(checks))
  io.stdout:flush()
  vim.cmd("qall!")
end

vim.defer_fn(function()
  die("watchdog: the test did not finish within 90 s")
end, 90000)
main_co = coroutine.create(function()
  local good, err = xpcall(main, debug.traceback)
  if not good then
    die(err)
  end
end)
resume()
