// src/extension.ts: the VS Code side. Owns: activation, settings, when to lint (open, save, and
// debounced change of Python files on disk), which run is current (one per document; a newer one
// kills the older, and output for an older document version is dropped), turning records into
// vscode.Diagnostic, the user-facing messages, and the "Show rule documentation" command.
// Not: the command line and exit statuses (process.ts), SARIF parsing (sarif.ts).
// Messages: a missing executable warns once and linting pauses until the settings change; a
// gpulint error (exit 2) is shown once, keeps the previous diagnostics, and re-arms after a
// successful run.

import { spawn } from "child_process";
import * as path from "path";
import * as vscode from "vscode";
import { LintSettings, Run, lintArgs, runGpulint } from "./process";
import { DiagnosticRecord, sarifToDiagnostics } from "./sarif";

interface Settings extends LintSettings {
  enable: boolean;
  debounceMs: number;
}

function readSettings(doc?: vscode.TextDocument): Settings {
  const c = vscode.workspace.getConfiguration("gpulint", doc?.uri);
  const args = c.get<unknown>("args");
  return {
    enable: c.get<boolean>("enable", true),
    path: c.get<string>("path", "gpulint") || "gpulint",
    args: Array.isArray(args) ? args.filter((a): a is string => typeof a === "string") : [],
    evidence: c.get<string>("evidence", ""),
    debounceMs: Math.max(0, c.get<number>("debounceMs", 300)),
  };
}

function cwdOf(doc: vscode.TextDocument): string {
  const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
  return folder ? folder.uri.fsPath : path.dirname(doc.uri.fsPath);
}

function isLintable(doc: vscode.TextDocument): boolean {
  return doc.languageId === "python" && doc.uri.scheme === "file";
}

function toRange(r: { line: number; character: number; endLine: number; endCharacter: number }): vscode.Range {
  return new vscode.Range(r.line, r.character, r.endLine, r.endCharacter);
}

function toDiagnostic(doc: vscode.TextDocument, rec: DiagnosticRecord): vscode.Diagnostic {
  const d = new vscode.Diagnostic(toRange(rec), rec.message, rec.severity as number as vscode.DiagnosticSeverity);
  d.source = rec.source;
  d.code = rec.code.target ? { value: rec.code.value, target: vscode.Uri.parse(rec.code.target) } : rec.code.value;
  d.relatedInformation = rec.relatedInformation.map((r) => {
    // With --stdin-filename every location is in the linted text; another absolute path is a file.
    const uri = r.path === rec.path || !path.isAbsolute(r.path) ? doc.uri : vscode.Uri.file(r.path);
    return new vscode.DiagnosticRelatedInformation(new vscode.Location(uri, toRange(r)), r.message);
  });
  return d;
}

class Linter implements vscode.Disposable {
  private readonly diagnostics = vscode.languages.createDiagnosticCollection("gpulint");
  private readonly output = vscode.window.createOutputChannel("gpulint");
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly runs = new Map<string, Run>();
  private missing = false;
  private errorShown = false;

  lintSoon(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    const delay = readSettings(doc).debounceMs;
    this.timers.set(key, setTimeout(() => {
      this.timers.delete(key);
      this.lint(doc);
    }, delay));
  }

  lint(doc: vscode.TextDocument): void {
    const settings = readSettings(doc);
    if (!isLintable(doc) || doc.isClosed) return;
    if (!settings.enable) return this.forget(doc);
    if (this.missing) return;
    const key = doc.uri.toString();
    this.runs.get(key)?.kill();
    const cwd = cwdOf(doc);
    const version = doc.version;
    const text = doc.getText();
    const run = runGpulint(settings.path, lintArgs(settings, doc.uri.fsPath, cwd), cwd, text);
    this.runs.set(key, run);
    void run.done.then((outcome) => {
      if (this.runs.get(key) !== run) return;
      this.runs.delete(key);
      if (outcome.kind === "cancelled" || doc.isClosed || doc.version !== version) return;
      if (outcome.kind === "missing") return this.reportMissing(outcome.message);
      if (outcome.stderr.trim() !== "") this.output.appendLine(`${doc.uri.fsPath}:\n${outcome.stderr.trimEnd()}`);
      if (outcome.kind === "failed") return this.reportFailure(outcome.message);
      this.errorShown = false;
      const records = sarifToDiagnostics(outcome.log, { text });
      this.diagnostics.set(doc.uri, records.map((r) => toDiagnostic(doc, r)));
    });
  }

  forget(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    this.runs.get(key)?.kill();
    this.runs.delete(key);
    this.diagnostics.delete(doc.uri);
  }

  /** The settings changed: a missing executable may be found now; relint everything open. */
  restart(): void {
    this.missing = false;
    this.errorShown = false;
    for (const doc of vscode.workspace.textDocuments) if (isLintable(doc)) this.lint(doc);
  }

  codesAt(doc: vscode.TextDocument, at: vscode.Position): string[] {
    const found = (this.diagnostics.get(doc.uri) ?? []).filter((d) => d.range.contains(at));
    return [...new Set(found.map((d) => (typeof d.code === "object" ? String(d.code.value) : String(d.code))))];
  }

  private reportMissing(detail: string): void {
    this.missing = true;
    this.output.appendLine(`gpulint: ${detail}`);
    void vscode.window
      .showWarningMessage(`gpulint: ${detail}. Install gpulint or set "gpulint.path"; linting is paused until the settings change.`, "Open Settings")
      .then((pick) => {
        if (pick) void vscode.commands.executeCommand("workbench.action.openSettings", "gpulint.path");
      });
  }

  private reportFailure(message: string): void {
    this.output.appendLine(`gpulint: ${message}`);
    if (this.errorShown) return;
    this.errorShown = true;
    void vscode.window.showErrorMessage(`gpulint: ${message}`);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    for (const r of this.runs.values()) r.kill();
    this.diagnostics.dispose();
    this.output.dispose();
  }
}

/** `gpulint rule ID` for the diagnostic under the cursor, or one picked from `gpulint rules`. */
async function showRuleDocumentation(linter: Linter): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const settings = readSettings(editor?.document);
  const cwd = editor && editor.document.uri.scheme === "file" ? cwdOf(editor.document) : process.cwd();
  let id: string | undefined;
  const codes = editor ? linter.codesAt(editor.document, editor.selection.active) : [];
  if (codes.length === 1) id = codes[0];
  else if (codes.length > 1) id = await vscode.window.showQuickPick(codes, { placeHolder: "gpulint rule" });
  else id = await pickRule(settings.path, cwd);
  if (!id) return;
  const outcome = await captureStdout(settings.path, ["rule", id], cwd);
  if (outcome.error !== undefined) {
    void vscode.window.showErrorMessage(`gpulint: ${outcome.error}`);
    return;
  }
  const doc = await vscode.workspace.openTextDocument({ language: "markdown", content: outcome.stdout });
  await vscode.commands.executeCommand("markdown.showPreview", doc.uri);
}

async function pickRule(exe: string, cwd: string): Promise<string | undefined> {
  const outcome = await captureStdout(exe, ["rules", "--format", "json"], cwd);
  if (outcome.error !== undefined) {
    void vscode.window.showErrorMessage(`gpulint: ${outcome.error}`);
    return undefined;
  }
  let rules: { id?: string; name?: string; summary?: string }[] = [];
  try {
    rules = JSON.parse(outcome.stdout);
  } catch {
    void vscode.window.showErrorMessage("gpulint: `gpulint rules --format json` did not write JSON");
    return undefined;
  }
  const items = rules
    .filter((r) => typeof r.id === "string")
    .map((r) => ({ label: r.id as string, description: r.name, detail: r.summary }));
  const pick = await vscode.window.showQuickPick(items, { placeHolder: "gpulint rule", matchOnDescription: true });
  return pick?.label;
}

/** Runs a gpulint subcommand with empty input; `error` is set unless it exited 0. */
function captureStdout(exe: string, args: string[], cwd: string): Promise<{ stdout: string; error?: string }> {
  return new Promise((resolve) => {
    const child = spawn(exe, args, { cwd, stdio: ["ignore", "pipe", "pipe"], windowsHide: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", (e) => resolve({ stdout: "", error: `cannot run "${exe}" (${e.message})` }));
    child.on("close", (code) => {
      const stdout = Buffer.concat(out).toString("utf8");
      const stderr = Buffer.concat(err).toString("utf8").trim();
      resolve(code === 0 ? { stdout } : { stdout, error: stderr || `exited with status ${code}` });
    });
  });
}

export function activate(context: vscode.ExtensionContext): void {
  const linter = new Linter();
  context.subscriptions.push(
    linter,
    vscode.workspace.onDidOpenTextDocument((doc) => linter.lint(doc)),
    vscode.workspace.onDidSaveTextDocument((doc) => linter.lint(doc)),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (isLintable(e.document) && e.contentChanges.length > 0) linter.lintSoon(e.document);
    }),
    vscode.workspace.onDidCloseTextDocument((doc) => linter.forget(doc)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("gpulint")) linter.restart();
    }),
    vscode.commands.registerCommand("gpulint.showRuleDocumentation", () => showRuleDocumentation(linter)),
  );
  for (const doc of vscode.workspace.textDocuments) linter.lint(doc);
}

export function deactivate(): void {
  // Everything is in context.subscriptions.
}
