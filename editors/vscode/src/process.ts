// src/process.ts: runs gpulint once on a document's text and classifies the outcome. Owns: the
// command line (lintArgs), spawning with the text on standard input, cancellation (kill), and the
// exit-status contract (0 or 1 with SARIF: findings; 2: gpulint's own error; ENOENT: no executable).
// Not: the `vscode` module, debouncing, which run is stale (extension.ts), SARIF mapping (sarif.ts).

import { spawn } from "child_process";
import * as path from "path";

export interface LintSettings {
  /** The executable: a name looked up on PATH, or a path. */
  path: string;
  /** Extra arguments, appended after gpulint's own. */
  args: string[];
  /** Evidence file; "" for none. Relative paths are resolved against cwd. */
  evidence: string;
}

/** `--format sarif --stdin-filename FILE [--evidence E] [args...]`. */
export function lintArgs(settings: LintSettings, filePath: string, cwd: string): string[] {
  const args = ["--format", "sarif", "--stdin-filename", filePath];
  if (settings.evidence.trim() !== "") args.push("--evidence", path.resolve(cwd, settings.evidence.trim()));
  return args.concat(settings.args);
}

export type Outcome =
  /** Exit status 0 or 1 and a parsed SARIF log on standard output. */
  | { kind: "ok"; log: unknown; stderr: string }
  /** The executable could not be started (ENOENT, EACCES): `message` says which. */
  | { kind: "missing"; message: string }
  /** Exit status 2, another status, a signal, or output that is not JSON. */
  | { kind: "failed"; message: string; stderr: string }
  /** kill() was called before it finished. */
  | { kind: "cancelled" };

export interface Run {
  done: Promise<Outcome>;
  kill(): void;
}

/** The first non-empty line of gpulint's standard error, or a description of the status. */
function failureMessage(code: number | null, signal: NodeJS.Signals | null, stderr: string): string {
  const line = stderr.split(/\r?\n/).find((l) => l.trim() !== "");
  if (line) return line.trim();
  return signal ? `gpulint was killed by ${signal}` : `gpulint exited with status ${code}`;
}

function classify(code: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string): Outcome {
  if (code !== 0 && code !== 1) return { kind: "failed", message: failureMessage(code, signal, stderr), stderr };
  try {
    return { kind: "ok", log: JSON.parse(stdout), stderr };
  } catch {
    return { kind: "failed", message: `gpulint exited with status ${code} but wrote no SARIF (is gpulint.path gpulint?)`, stderr };
  }
}

/** Starts `exe args` in cwd with `input` on standard input. Never rejects. */
export function runGpulint(exe: string, args: string[], cwd: string, input: string): Run {
  let cancelled = false;
  const child = spawn(exe, args, { cwd, stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (b: Buffer) => out.push(b));
  child.stderr.on("data", (b: Buffer) => err.push(b));
  // gpulint may exit (usage error) before reading all of stdin: EPIPE is not a failure of its own.
  child.stdin.on("error", () => undefined);
  const done = new Promise<Outcome>((resolve) => {
    child.on("error", (e: NodeJS.ErrnoException) => {
      if (cancelled) return resolve({ kind: "cancelled" });
      if (e.code === "ENOENT" || e.code === "EACCES")
        return resolve({ kind: "missing", message: `cannot run "${exe}" (${e.code})` });
      resolve({ kind: "failed", message: e.message, stderr: "" });
    });
    child.on("close", (code, signal) => {
      if (cancelled) return resolve({ kind: "cancelled" });
      const stderr = Buffer.concat(err).toString("utf8");
      resolve(classify(code, signal, Buffer.concat(out).toString("utf8"), stderr));
    });
  });
  if (child.pid !== undefined) child.stdin.end(input, "utf8");
  return {
    done,
    kill() {
      cancelled = true;
      child.kill();
    },
  };
}
