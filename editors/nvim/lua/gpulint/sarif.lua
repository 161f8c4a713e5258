-- editors/nvim/lua/gpulint/sarif.lua: turns gpulint's SARIF 2.1.0 output for one buffer into
-- vim.diagnostic items. Owns: decoding the JSON, the severity mapping, and the conversion of
-- SARIF's 1-based UTF-16 code-unit columns into the 0-based byte columns vim.diagnostic wants,
-- using the buffer's lines. Does not own: running gpulint, buffers, timers (init.lua).
-- Pure functions of their arguments; Neovim >= 0.7 API only.
local M = {}

local severity = vim.diagnostic.severity

-- SARIF level -> vim.diagnostic severity. A note is a real finding (float64 on the device, for
-- example), so it is INFO and stays visible; HINT is kept for level "none", which gpulint does not
-- emit today.
M.severity = {
  error = severity.ERROR,
  warning = severity.WARN,
  note = severity.INFO,
  none = severity.HINT,
}

local function decode(text)
  if vim.json and vim.json.decode then
    return pcall(vim.json.decode, text)
  end
  return pcall(vim.fn.json_decode, text)
end

local function is_table(v)
  return type(v) == "table"
end

-- The 0-based byte column of the 1-based UTF-16 column `col16` on `line`. A column past the end
-- of the line (SARIF's "one past the last character") gives #line; an index inside a surrogate
-- pair is rounded up to the end of the character, as vim.str_byteindex does.
function M.byte_col(line, col16)
  local units = (tonumber(col16) or 1) - 1
  if units <= 0 then
    return 0
  end
  local _, len16 = vim.str_utfindex(line)
  if units >= len16 then
    return #line
  end
  return vim.str_byteindex(line, units, true)
end

-- The diagnostic range of a SARIF region on `lines` (the buffer's lines, 1-based Lua list).
-- Lines past the buffer's end are clamped to its last line. A missing endLine is startLine; a
-- missing endColumn means the end of endLine (SARIF 2.1.0, 3.30.7).
local function range(region, lines)
  local last = math.max(#lines, 1)
  local start_line = math.min(math.max(tonumber(region.startLine) or 1, 1), last)
  local end_line = math.min(math.max(tonumber(region.endLine) or start_line, start_line), last)
  local first_text = lines[start_line] or ""
  local end_text = lines[end_line] or ""
  local col = M.byte_col(first_text, region.startColumn)
  local end_col = #end_text
  if region.endColumn ~= nil then
    end_col = M.byte_col(end_text, region.endColumn)
  end
  if end_line == start_line and end_col < col then
    end_col = col
  end
  return start_line - 1, col, end_line - 1, end_col
end

local function first_region(locations)
  if not is_table(locations) or not is_table(locations[1]) then
    return {}
  end
  local physical = locations[1].physicalLocation
  if not is_table(physical) or not is_table(physical.region) then
    return {}
  end
  return physical.region
end

local function message_text(obj)
  if is_table(obj.message) and type(obj.message.text) == "string" then
    return obj.message.text
  end
  return ""
end

local function make_item(obj, level, code, kind, lines)
  local lnum, col, end_lnum, end_col = range(first_region(obj.locations), lines)
  return {
    lnum = lnum,
    col = col,
    end_lnum = end_lnum,
    end_col = end_col,
    severity = M.severity[level] or severity.WARN,
    message = message_text(obj),
    source = "gpulint",
    code = code,
    user_data = { gpulint = kind, rank = type(obj.rank) == "number" and obj.rank or nil },
  }
end

local function rule_level(rules, result)
  local index = type(result.ruleIndex) == "number" and result.ruleIndex or nil
  local rule = is_table(rules) and index and rules[index + 1]
  if is_table(rule) and is_table(rule.defaultConfiguration) then
    return rule.defaultConfiguration.level
  end
  return nil
end

local function suppressed(result)
  return is_table(result.suppressions) and #result.suppressions > 0
end

local function add_results(items, run, lines)
  local driver = is_table(run.tool) and run.tool.driver or {}
  for _, result in ipairs(is_table(run.results) and run.results or {}) do
    local failing = is_table(result) and (result.kind == nil or result.kind == "fail")
    if failing and not suppressed(result) then
      local level = result.level or rule_level(driver.rules, result) or "warning"
      items[#items + 1] = make_item(result, level, result.ruleId, "result", lines)
    end
  end
end

-- Notifications that point into the file (a syntax error) become diagnostics too: findings near
-- them may be missing, which the user should see where they type.
local function add_notifications(items, run, lines)
  for _, invocation in ipairs(is_table(run.invocations) and run.invocations or {}) do
    local notes = is_table(invocation) and invocation.toolExecutionNotifications or nil
    for _, note in ipairs(is_table(notes) and notes or {}) do
      if is_table(note) and is_table(note.locations) and #note.locations > 0 then
        local id = is_table(note.descriptor) and note.descriptor.id or nil
        items[#items + 1] = make_item(note, note.level or "warning", id, "notification", lines)
      end
    end
  end
end

-- Diagnostics for a buffer whose current lines are `lines` from gpulint's SARIF `text`.
-- Returns the list, or nil and a one-line reason when `text` is not a SARIF log.
function M.to_diagnostics(text, lines)
  local ok, log = decode(text)
  if not ok then
    return nil, "invalid JSON: " .. tostring(log):gsub("\n.*", "")
  end
  if not is_table(log) or not is_table(log.runs) then
    return nil, "not a SARIF log (no runs)"
  end
  local items = {}
  for _, run in ipairs(log.runs) do
    if is_table(run) then
      add_results(items, run, lines)
      add_notifications(items, run, lines)
    end
  end
  return items
end

return M
