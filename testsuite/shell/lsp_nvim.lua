-- lsp_nvim.lua - run by lsp_nvim.sh in `nvim --headless`: Neovim's own LSP client against
-- stap --language-server on a .stp file. It waits for the diagnostics, requests completion
-- and hover, jumps to a definition, edits the buffer (an incremental change) and waits for the
-- diagnostics to clear, writing what it got to $LSP_OUT, one fact a line, for the shell to check.
local out = assert(io.open(os.getenv("LSP_OUT"), "w"))
local function say(...)
  out:write(table.concat({ ... }, " "), "\n")
  out:flush()
end
local wait_ms = 120000 -- a hang guard only

local ok, err = pcall(function()
  local client = vim.lsp.start_client({
    name = "stap",
    cmd = { os.getenv("STAP"), "--language-server", "-r", os.getenv("RELEASE") },
    root_dir = vim.fn.getcwd(),
  })
  assert(client, "the client did not start")
  vim.cmd("edit " .. os.getenv("LSP_FILE"))
  local buf = vim.api.nvim_get_current_buf()
  assert(vim.lsp.buf_attach_client(buf, client), "cannot attach")
  say("started", vim.lsp.get_client_by_id(client).name)

  -- the diagnostics of passes 1-2, as the client stored them (0-based line and column)
  assert(vim.wait(wait_ms, function() return #vim.diagnostic.get(buf) > 0 end, 20), "no diagnostics")
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    say("diagnostic", d.lnum, d.col, d.severity, (d.message:gsub("\n.*", "")))
  end

  local uri = vim.uri_from_bufnr(buf)
  local function request(method, line, character)
    local res = vim.lsp.buf_request_sync(buf, method,
      { textDocument = { uri = uri }, position = { line = line, character = character } }, wait_ms)
    assert(res and res[client], method .. ": no answer")
    assert(not res[client].err, method .. ": " .. vim.inspect(res[client].err))
    return res[client].result
  end
  -- completion, as the client turns it into Vim's complete-items
  local items = vim.lsp.util.text_document_completion_list_to_complete_items(request("textDocument/completion", 1, 12), "vfs.re")
  for _, it in ipairs(items) do say("complete-point", it.word) end
  items = vim.lsp.util.text_document_completion_list_to_complete_items(request("textDocument/completion", 2, 29), "exec")
  for _, it in ipairs(items) do say("complete-name", it.word) end
  items = vim.lsp.util.text_document_completion_list_to_complete_items(request("textDocument/completion", 3, 46), "fi")
  for _, it in ipairs(items) do say("complete-target", it.word) end
  -- hover: the markdown the client would show
  local hover = request("textDocument/hover", 2, 33)
  for _, l in ipairs(vim.lsp.util.convert_input_to_markdown_lines(hover.contents)) do say("hover", l) end

  -- go to definition: the client opens the tapset file at the function
  vim.api.nvim_win_set_cursor(0, { 3, 33 })
  vim.lsp.buf.definition()
  assert(vim.wait(wait_ms, function() return vim.api.nvim_get_current_buf() ~= buf end, 20), "no jump")
  local pos = vim.api.nvim_win_get_cursor(0)
  say("definition", vim.fn.fnamemodify(vim.api.nvim_buf_get_name(0), ":t"), pos[1], pos[2],
    vim.api.nvim_get_current_line())
  vim.cmd("buffer " .. buf)

  -- edits, which the client sends as incremental changes: the syntax error mended, so pass 2
  -- reports; then a valid script, and the diagnostics clear
  vim.api.nvim_buf_set_text(buf, 1, 12, 1, 12, { "ad { }" })
  assert(vim.wait(wait_ms, function()
    local d = vim.diagnostic.get(buf)
    return #d > 0 and d[1].lnum == 0
  end, 20), "no pass-2 diagnostics")
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    say("diagnostic2", d.lnum, d.col, d.severity, (d.message:gsub("\n.*", "")))
  end
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, { "probe begin {", "  println(execname())", "  exit()", "}" })
  assert(vim.wait(wait_ms, function() return #vim.diagnostic.get(buf) == 0 end, 20), "diagnostics stayed")
  say("cleared", vim.api.nvim_buf_get_lines(buf, 1, 2, false)[1])
  vim.lsp.stop_client(client)
  assert(vim.wait(wait_ms, function() return vim.lsp.get_client_by_id(client) == nil end, 20), "the server did not stop")
  say("stopped")
end)
if not ok then say("error", tostring(err)) end
out:close()
vim.cmd(ok and "qall!" or "cquit! 1")
