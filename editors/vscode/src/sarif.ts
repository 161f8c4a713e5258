// src/sarif.ts: turns a SARIF 2.1.0 log (what `gpulint --format sarif` writes) into plain
// diagnostic records. Owns: result filtering (suppressed and passing results are dropped), severity,
// the rule's documentation link, region → 0-based range conversion and clamping, related locations,
// URI resolution against originalUriBaseIds. Not: anything from the `vscode` module (extension.ts
// turns records into vscode.Diagnostic), running gpulint, reading files. Pure and synchronous.
//
// Columns: gpulint writes `columnKind: utf16CodeUnits`, and VS Code positions count UTF-16 code
// units too, so a column only moves from 1-based to 0-based; nothing is re-encoded.

import { fileURLToPath } from "url";

/** Same numbers as vscode.DiagnosticSeverity, so extension.ts can cast. */
export enum Severity {
  Error = 0,
  Warning = 1,
  Information = 2,
  Hint = 3,
}

/** Where the documentation link of a rule without `helpUri` points: DOCS_BASE + pack/ID.md. */
export const DOCS_BASE = "https://github.com/gpulint/gpulint/blob/main/rules/";

/** gpulint's built-in packs by id prefix (GPU1xx is `legacy`, ...): rules/<pack>/<ID>.md. */
export const BUILTIN_PACKS: Readonly<Record<string, string>> = {
  GPU1: "legacy",
  GPU2: "round-trip",
  GPU3: "timing",
  GPU4: "framework-port",
  GPU5: "memory-precision",
};

export interface Range {
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
}

export interface RelatedRecord extends Range {
  /** Absolute file path when the URI resolves to a file: URI, otherwise the URI as written. */
  path: string;
  message: string;
}

export interface DiagnosticRecord extends Range {
  path: string;
  severity: Severity;
  code: { value: string; target?: string };
  source: "gpulint";
  message: string;
  relatedInformation: RelatedRecord[];
}

export interface MapOptions {
  /** The linted text: ranges in `documentPath` (or everywhere, when it is not given) are clamped to it. */
  text?: string;
  /** The absolute path of `text`. */
  documentPath?: string;
  /** Overrides DOCS_BASE (must end with "/"). */
  docsBase?: string;
}

// SARIF is untyped JSON: every access goes through these guards.
type Obj = Record<string, unknown>;

function obj(v: unknown): Obj | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/** A positive integer, or undefined (SARIF lines and columns are 1-based). */
function pos(v: unknown): number | undefined {
  return typeof v === "number" && Number.isInteger(v) && v >= 1 ? v : undefined;
}

/** UTF-16 lengths of the lines of `text`, split as VS Code splits them (\r\n, \r, \n). */
export function lineLengths(text: string): number[] {
  return text.split(/\r\n|\r|\n/).map((l) => l.length);
}

/** error/warning/note/none → Error/Warning/Information/Hint; anything else: Warning (SARIF's default). */
export function severityOf(level: string | undefined): Severity {
  switch (level) {
    case "error":
      return Severity.Error;
    case "note":
      return Severity.Information;
    case "none":
      return Severity.Hint;
    default:
      return Severity.Warning;
  }
}

/** The documentation link of a rule: its helpUri, else DOCS_BASE/<pack>/<ID>.md for built-in ids. */
export function ruleDocsUri(ruleId: string, rule: Obj | undefined, docsBase = DOCS_BASE): string | undefined {
  const help = str(rule?.helpUri);
  if (help) return help;
  const m = /^(GPU[1-9])\d\d$/.exec(ruleId);
  const pack = m ? BUILTIN_PACKS[m[1]] : undefined;
  return pack ? `${docsBase}${pack}/${ruleId}.md` : undefined;
}

class Clamp {
  constructor(private readonly lengths: number[] | undefined) {}

  /** 1-based SARIF region → 0-based range inside the text (when known). */
  range(region: Obj | undefined): Range {
    const startLine = (pos(region?.startLine) ?? 1) - 1;
    const startCol = (pos(region?.startColumn) ?? 1) - 1;
    const endLineGiven = pos(region?.endLine);
    const endLine = endLineGiven !== undefined ? endLineGiven - 1 : startLine;
    const endColGiven = pos(region?.endColumn);
    // A missing endColumn means "to the end of the end line" (SARIF 3.30.8).
    const endCol = endColGiven !== undefined ? endColGiven - 1 : this.length(endLine) ?? startCol;
    const r: Range = { line: startLine, character: startCol, endLine, endCharacter: endCol };
    this.clampPoint(r, "line", "character");
    this.clampPoint(r, "endLine", "endCharacter");
    if (r.endLine < r.line || (r.endLine === r.line && r.endCharacter < r.character)) {
      r.endLine = r.line;
      r.endCharacter = r.character;
    }
    return r;
  }

  private length(line: number): number | undefined {
    if (!this.lengths) return undefined;
    return this.lengths[Math.min(line, this.lengths.length - 1)];
  }

  private clampPoint(r: Range, lineKey: "line" | "endLine", charKey: "character" | "endCharacter"): void {
    if (!this.lengths) return;
    const last = this.lengths.length - 1;
    if (r[lineKey] > last) {
      r[lineKey] = last;
      r[charKey] = this.lengths[last];
      return;
    }
    r[charKey] = Math.min(r[charKey], this.lengths[r[lineKey]]);
  }
}

interface RunCtx {
  run: Obj;
  rules: Obj[];
  opts: MapOptions;
  docClamp: Clamp;
  noClamp: Clamp;
}

/** Resolves an artifactLocation to an absolute path (file: URIs) or the URI as written. */
function resolvePath(ctx: RunCtx, loc: Obj | undefined): string {
  let uri = str(loc?.uri);
  if (uri === undefined) {
    const idx = loc?.index;
    const art = typeof idx === "number" ? obj(arr(ctx.run.artifacts)[idx]) : undefined;
    uri = str(obj(art?.location)?.uri) ?? "";
  }
  let base = str(loc?.uriBaseId);
  const bases = obj(ctx.run.originalUriBaseIds);
  // A base may itself be relative to another base; bounded so a cycle cannot loop.
  for (let depth = 0; base !== undefined && depth < 8 && !/^[a-z][a-z0-9+.-]*:/i.test(uri); depth++) {
    const b = obj(bases?.[base]);
    const bUri = str(b?.uri);
    if (bUri === undefined) break;
    uri = (bUri.endsWith("/") ? bUri : bUri + "/") + uri;
    base = str(b?.uriBaseId);
  }
  if (uri.startsWith("file:")) {
    try {
      return fileURLToPath(uri);
    } catch {
      return uri;
    }
  }
  return uri;
}

function clampFor(ctx: RunCtx, path: string): Clamp {
  const doc = ctx.opts.documentPath;
  return doc === undefined || doc === path ? ctx.docClamp : ctx.noClamp;
}

function placeOf(ctx: RunCtx, location: unknown): { path: string; range: Range } {
  const phys = obj(obj(location)?.physicalLocation);
  const path = resolvePath(ctx, obj(phys?.artifactLocation));
  return { path, range: clampFor(ctx, path).range(obj(phys?.region)) };
}

function ruleOf(ctx: RunCtx, result: Obj, ruleId: string): Obj | undefined {
  const idx = result.ruleIndex ?? obj(result.rule)?.index;
  if (typeof idx === "number") {
    const byIndex = ctx.rules[idx];
    if (byIndex && (ruleId === "" || str(byIndex.id) === ruleId)) return byIndex;
  }
  return ctx.rules.find((r) => str(r.id) === ruleId);
}

/** message.text, or the rule's messageStrings[message.id] with {0}, {1}... filled from arguments. */
function messageOf(result: Obj, rule: Obj | undefined): string {
  const msg = obj(result.message);
  const text = str(msg?.text);
  if (text !== undefined) return text;
  const id = str(msg?.id);
  const tmpl = id ? str(obj(obj(rule?.messageStrings)?.[id])?.text) : undefined;
  if (tmpl === undefined) return "";
  const args = arr(msg?.arguments).map((a) => String(a));
  return tmpl.replace(/\{(\d+)\}/g, (m, n: string) => args[Number(n)] ?? m);
}

/** Suppressed unless every suppression was rejected (SARIF 3.34). */
function isSuppressed(result: Obj): boolean {
  const sups = arr(result.suppressions);
  return sups.length > 0 && !sups.every((s) => str(obj(s)?.status) === "rejected");
}

function levelOf(result: Obj, rule: Obj | undefined): string | undefined {
  const level = str(result.level);
  if (level !== undefined) return level;
  const kind = str(result.kind);
  if (kind !== undefined && kind !== "fail") return "none";
  return str(obj(rule?.defaultConfiguration)?.level) ?? "warning";
}

function mapResult(ctx: RunCtx, result: Obj): DiagnosticRecord | undefined {
  const kind = str(result.kind);
  if (isSuppressed(result) || kind === "pass" || kind === "notApplicable") return undefined;
  const ruleId = str(result.ruleId) ?? str(obj(result.rule)?.id) ?? "";
  const rule = ruleOf(ctx, result, ruleId);
  const primary = placeOf(ctx, arr(result.locations)[0]);
  const related = arr(result.relatedLocations).map((loc) => {
    const p = placeOf(ctx, loc);
    const message = str(obj(obj(loc)?.message)?.text) ?? "related location";
    return { path: p.path, ...p.range, message };
  });
  const target = ruleDocsUri(ruleId, rule, ctx.opts.docsBase);
  return {
    path: primary.path,
    ...primary.range,
    severity: severityOf(levelOf(result, rule)),
    code: target ? { value: ruleId, target } : { value: ruleId },
    source: "gpulint",
    message: messageOf(result, rule),
    relatedInformation: related,
  };
}

/**
 * Every unsuppressed, failing result of every run of `log` (parsed JSON), in log order.
 * A log that is not an object with a `runs` array gives no records; it never throws.
 */
export function sarifToDiagnostics(log: unknown, opts: MapOptions = {}): DiagnosticRecord[] {
  const docClamp = new Clamp(opts.text === undefined ? undefined : lineLengths(opts.text));
  const noClamp = new Clamp(undefined);
  const out: DiagnosticRecord[] = [];
  for (const runV of arr(obj(log)?.runs)) {
    const run = obj(runV);
    if (!run) continue;
    const rules = arr(obj(obj(run.tool)?.driver)?.rules).map((r) => obj(r) ?? {});
    const ctx: RunCtx = { run, rules, opts, docClamp, noClamp };
    for (const resV of arr(run.results)) {
      const res = obj(resV);
      const rec = res ? mapResult(ctx, res) : undefined;
      if (rec) out.push(rec);
    }
  }
  return out;
}
