// src/test/process.test.ts: tests of src/process.ts, the command line and the exit-status contract:
// stand-in programs (Node itself) for each outcome, and the real gpulint named by $GPULINT (set by
// tests/editors/vscode_test.sh) linting text from standard input with --stdin-filename.

import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { lintArgs, runGpulint } from "../process";
import { Severity, sarifToDiagnostics } from "../sarif";

const NODE = process.execPath;
const GPULINT = process.env.GPULINT;
const noGpulint = GPULINT ? false : "GPULINT is not set (tests/editors/vscode_test.sh sets it)";

test("lintArgs: sarif, stdin filename, evidence resolved against cwd, then the user's arguments", () => {
  assert.deepEqual(lintArgs({ path: "gpulint", args: [], evidence: "" }, "/w/a.py", "/w"), [
    "--format", "sarif", "--stdin-filename", "/w/a.py",
  ]);
  assert.deepEqual(lintArgs({ path: "gpulint", args: ["--select", "GPU2"], evidence: " gpu.json " }, "/w/a.py", "/w"), [
    "--format", "sarif", "--stdin-filename", "/w/a.py", "--evidence", "/w/gpu.json", "--select", "GPU2",
  ]);
  assert.deepEqual(lintArgs({ path: "gpulint", args: [], evidence: "/e/h200.json" }, "/w/a.py", "/w").slice(4), [
    "--evidence", "/e/h200.json",
  ]);
});

test("a missing executable is 'missing', not a failure", async () => {
  const outcome = await runGpulint("/nonexistent/gpulint-xyz", [], os.tmpdir(), "x = 1\n").done;
  assert.deepEqual(outcome, { kind: "missing", message: 'cannot run "/nonexistent/gpulint-xyz" (ENOENT)' });
});

test("exit 1 with SARIF is success; the text arrives on standard input", async () => {
  const script = "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{process.stdout.write(JSON.stringify({runs:[],got:s}));process.exit(1)})";
  const outcome = await runGpulint(NODE, ["-e", script], os.tmpdir(), "é😀\n").done;
  assert.deepEqual(outcome, { kind: "ok", log: { runs: [], got: "é😀\n" }, stderr: "" });
});

test("exit 2: failed with the first line of standard error", async () => {
  const script = "process.stderr.write('\\ngpulint: error: bad thing\\nmore\\n');process.exit(2)";
  const outcome = await runGpulint(NODE, ["-e", script], os.tmpdir(), "").done;
  assert.deepEqual(outcome, { kind: "failed", message: "gpulint: error: bad thing", stderr: "\ngpulint: error: bad thing\nmore\n" });
});

test("exit 0 without JSON, silent exit 3, and a signal are failures", async () => {
  const notJson = await runGpulint(NODE, ["-e", "process.stdout.write('hello')"], os.tmpdir(), "").done;
  assert.equal(notJson.kind, "failed");
  assert.match((notJson as { message: string }).message, /exited with status 0 but wrote no SARIF/);
  const three = await runGpulint(NODE, ["-e", "process.exit(3)"], os.tmpdir(), "").done;
  assert.deepEqual(three, { kind: "failed", message: "gpulint exited with status 3", stderr: "" });
  const killed = await runGpulint(NODE, ["-e", "process.kill(process.pid,'SIGTERM')"], os.tmpdir(), "").done;
  assert.deepEqual(killed, { kind: "failed", message: "gpulint was killed by SIGTERM", stderr: "" });
});

test("kill() cancels a run; an early exit that ignores stdin is not an EPIPE crash", async () => {
  const run = runGpulint(NODE, ["-e", "setTimeout(()=>{}, 20000)"], os.tmpdir(), "");
  run.kill();
  assert.deepEqual(await run.done, { kind: "cancelled" });
  const big = "x = 1\n".repeat(500000);
  const early = await runGpulint(NODE, ["-e", "process.stdout.write('{}')"], os.tmpdir(), big).done;
  assert.deepEqual(early, { kind: "ok", log: {}, stderr: "" });
});

test("real gpulint: unknown option is exit 2 with gpulint's message", { skip: noGpulint }, async () => {
  const outcome = await runGpulint(GPULINT as string, ["--no-such-option"], os.tmpdir(), "").done;
  assert.equal(outcome.kind, "failed");
  assert.match((outcome as { message: string }).message, /^gpulint: .*no-such-option/);
});

test("real gpulint: the unsaved text is linted as the named file, UTF-16 columns", { skip: noGpulint }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gpulint-vscode-"));
  const file = path.join(dir, "train.py");
  fs.writeFileSync(file, "# the file on disk is clean\n");
  const text = "import cupy as cp\nx = cp.zeros(4)\nfor i in range(3):\n    s = 'é😀'; v = float(x.sum())\n";
  const settings = { path: GPULINT as string, args: ["--select", "GPU201"], evidence: "" };
  const outcome = await runGpulint(settings.path, lintArgs(settings, file, dir), dir, text).done;
  fs.rmSync(dir, { recursive: true });
  assert.equal(outcome.kind, "ok", JSON.stringify(outcome));
  const recs = sarifToDiagnostics((outcome as { log: unknown }).log, { text });
  assert.deepEqual(
    recs.map((r) => [r.code.value, r.severity, r.line, r.character, r.endLine, r.endCharacter, path.basename(r.path)]),
    [["GPU201", Severity.Warning, 3, 19, 3, 33, "train.py"]],
  );
  assert.equal(text.split("\n")[3].indexOf("float(x.sum())"), 19);
});
