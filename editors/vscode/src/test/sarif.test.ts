// src/test/sarif.test.ts: tests of the pure SARIF → diagnostic mapping (src/sarif.ts) with Node's
// test runner: real gpulint SARIF saved under fixtures/ (regen.sh rewrites them) and hand-written
// logs for the edge cases gpulint does not produce (missing ends, columns past the line end, helpUri,
// messageStrings, kinds and suppression states).

import { test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "fs";
import * as path from "path";
import { DOCS_BASE, Severity, lineLengths, ruleDocsUri, sarifToDiagnostics, severityOf } from "../sarif";

// Compiled to out/test/: the fixtures stay in src/test/fixtures.
const FIXTURES = path.join(__dirname, "..", "..", "src", "test", "fixtures");

function fixture(name: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, name), "utf8"));
}

function fixtureText(name: string): string {
  return fs.readFileSync(path.join(FIXTURES, name), "utf8");
}

/** The root the fixtures were generated in (originalUriBaseIds %SRCROOT%). */
function srcRoot(log: unknown): string {
  const uri = (log as { runs: { originalUriBaseIds: Record<string, { uri: string }> }[] }).runs[0]
    .originalUriBaseIds["%SRCROOT%"].uri;
  return new URL(uri).pathname;
}

test("GPU301 fixture: 13 warnings with exact 0-based ranges, codes, links and related locations", () => {
  const log = fixture("gpu301.sarif");
  const recs = sarifToDiagnostics(log);
  assert.equal(recs.length, 13);
  const first = recs[0];
  assert.deepEqual(
    { line: first.line, character: first.character, endLine: first.endLine, endCharacter: first.endCharacter },
    { line: 17, character: 9, endLine: 17, endCharacter: 28 },
  );
  assert.equal(first.severity, Severity.Warning);
  assert.equal(first.source, "gpulint");
  assert.deepEqual(first.code, { value: "GPU301", target: `${DOCS_BASE}timing/GPU301.md` });
  assert.equal(first.path, path.join(srcRoot(log), "tests/rules/fixtures/timing/GPU301.py"));
  assert.match(first.message, /^`time\.perf_counter\(\)` stops the timer while GPU work may still be running/);
  assert.deepEqual(
    first.relatedInformation.map((r) => [r.line, r.character, r.endLine, r.endCharacter, r.message]),
    [
      [15, 9, 15, 28, "timer started here"],
      [16, 8, 16, 13, "last GPU work, not synchronized"],
    ],
  );
  assert.equal(first.relatedInformation[0].path, first.path);
  const last = recs[12];
  assert.deepEqual([last.line, last.character, last.endLine, last.endCharacter], [101, 9, 101, 28]);
  assert.ok(recs.every((r) => r.relatedInformation.length === 2 && r.code.value === "GPU301"));
});

test("non-ASCII fixture: UTF-16 columns kept as SARIF gives them, levels mapped, noqa dropped", () => {
  const log = fixture("nonascii.sarif");
  const text = fixtureText("nonascii.py");
  const recs = sarifToDiagnostics(log, { text });
  assert.deepEqual(
    recs.map((r) => [r.code.value, r.severity, r.line, r.character, r.endLine, r.endCharacter]),
    [
      ["GPU101", Severity.Error, 3, 7, 3, 15],
      ["GPU501", Severity.Information, 5, 4, 5, 33],
      ["GPU201", Severity.Warning, 7, 38, 7, 52],
    ],
  );
  // Independent check: the columns are JavaScript (UTF-16) string indices of the expression on a
  // line with "é" (1 unit) and "😀" (2 units) before it; in UTF-8 bytes it would start at 41.
  const line = text.split("\n")[7];
  assert.equal(line.indexOf("float(x.sum())"), 38);
  assert.equal(line.slice(recs[2].character, recs[2].endCharacter), "float(x.sum())");
  assert.equal(Buffer.byteLength(line.slice(0, 38), "utf8"), 41);
  assert.equal(recs[2].code.target, `${DOCS_BASE}round-trip/GPU201.md`);
  assert.equal(recs[0].code.target, `${DOCS_BASE}legacy/GPU101.md`);
  assert.equal(recs[1].code.target, `${DOCS_BASE}memory-precision/GPU501.md`);
  assert.ok(recs.every((r) => r.relatedInformation.length === 0));
});

test("the suppressed result is in the fixture, so dropping it is the mapper's doing", () => {
  const log = fixture("nonascii.sarif") as { runs: { results: { suppressions?: unknown[] }[] }[] };
  assert.equal(log.runs[0].results.length, 4);
  assert.deepEqual(log.runs[0].results[3].suppressions, [{ kind: "inSource" }]);
});

test("stdin fixture: --stdin-filename results resolve to the named file, noqa dropped", () => {
  const log = fixture("stdin.sarif");
  const text = fixtureText("nonascii.py");
  const recs = sarifToDiagnostics(log, { text });
  assert.deepEqual(
    recs.map((r) => [r.code.value, r.line, r.character, r.endLine, r.endCharacter]),
    [["GPU201", 7, 38, 7, 52]],
  );
  assert.equal(recs[0].path, path.join(srcRoot(log), "editors/vscode/src/test/fixtures/nonascii.py"));
});

// Hand-written logs: one run, one rule, one result whose region or fields vary.
function oneResult(result: Record<string, unknown>, rule: Record<string, unknown> = { id: "GPU201" }, extra = {}): unknown {
  return {
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "gpulint", rules: [rule] } },
        originalUriBaseIds: { "%SRCROOT%": { uri: "file:///proj/" } },
        columnKind: "utf16CodeUnits",
        results: [
          {
            ruleId: "GPU201",
            ruleIndex: 0,
            message: { text: "m" },
            locations: [{ physicalLocation: { artifactLocation: { uri: "a.py", uriBaseId: "%SRCROOT%" }, region: { startLine: 2, startColumn: 3 } } }],
            ...result,
          },
        ],
        ...extra,
      },
    ],
  };
}

function region(r: Record<string, unknown>): Record<string, unknown> {
  return { locations: [{ physicalLocation: { artifactLocation: { uri: "a.py", uriBaseId: "%SRCROOT%" }, region: r } }] };
}

const TEXT = "line one\nab😀cd\r\nthird\rlast";

test("missing endLine and endColumn: to the end of the start line when the text is known", () => {
  const [r] = sarifToDiagnostics(oneResult(region({ startLine: 2, startColumn: 3 })), { text: TEXT });
  assert.deepEqual([r.line, r.character, r.endLine, r.endCharacter], [1, 2, 1, 6]);
  const [bare] = sarifToDiagnostics(oneResult(region({ startLine: 2, startColumn: 3 })));
  assert.deepEqual([bare.line, bare.character, bare.endLine, bare.endCharacter], [1, 2, 1, 2]);
});

test("missing endColumn with endLine: to the end of endLine; missing startColumn: column 1", () => {
  const [r] = sarifToDiagnostics(oneResult(region({ startLine: 1, endLine: 3 })), { text: TEXT });
  assert.deepEqual([r.line, r.character, r.endLine, r.endCharacter], [0, 0, 2, 5]);
});

test("columns past the line end are clamped to the UTF-16 length of the line", () => {
  const [r] = sarifToDiagnostics(oneResult(region({ startLine: 2, startColumn: 40, endLine: 2, endColumn: 99 })), { text: TEXT });
  assert.deepEqual([r.line, r.character, r.endLine, r.endCharacter], [1, 6, 1, 6]);
  const [kept] = sarifToDiagnostics(oneResult(region({ startLine: 2, startColumn: 40, endLine: 2, endColumn: 99 })));
  assert.deepEqual([kept.line, kept.character, kept.endLine, kept.endCharacter], [1, 39, 1, 98]);
});

test("lines past the end of the text are clamped to the end of the last line", () => {
  const [r] = sarifToDiagnostics(oneResult(region({ startLine: 9, startColumn: 1, endLine: 12, endColumn: 2 })), { text: TEXT });
  assert.deepEqual([r.line, r.character, r.endLine, r.endCharacter], [3, 4, 3, 4]);
});

test("an end before the start collapses to the start; bad numbers count as missing", () => {
  const [r] = sarifToDiagnostics(oneResult(region({ startLine: 3, startColumn: 4, endLine: 1, endColumn: 2 })), { text: TEXT });
  assert.deepEqual([r.line, r.character, r.endLine, r.endCharacter], [2, 3, 2, 3]);
  const [z] = sarifToDiagnostics(oneResult(region({ startLine: 0, startColumn: -3, endColumn: 2.5 })), { text: TEXT });
  assert.deepEqual([z.line, z.character, z.endLine, z.endCharacter], [0, 0, 0, 8]);
});

test("clamping applies only to locations in documentPath when it is given", () => {
  const log = oneResult({
    ...region({ startLine: 1, startColumn: 50, endColumn: 60 }),
    relatedLocations: [
      { physicalLocation: { artifactLocation: { uri: "b.py", uriBaseId: "%SRCROOT%" }, region: { startLine: 1, startColumn: 50, endColumn: 60 } } },
    ],
  });
  const [r] = sarifToDiagnostics(log, { text: TEXT, documentPath: "/proj/a.py" });
  assert.deepEqual([r.path, r.character, r.endCharacter], ["/proj/a.py", 8, 8]);
  assert.deepEqual([r.relatedInformation[0].path, r.relatedInformation[0].character], ["/proj/b.py", 49]);
  assert.equal(r.relatedInformation[0].message, "related location");
});

test("no locations: the start of the file", () => {
  const [r] = sarifToDiagnostics(oneResult({ locations: [] }), { text: TEXT });
  assert.deepEqual([r.path, r.line, r.character, r.endLine, r.endCharacter], ["", 0, 0, 0, 8]);
});

test("severity: error/warning/note/none and the fallbacks", () => {
  assert.equal(severityOf("error"), Severity.Error);
  assert.equal(severityOf("warning"), Severity.Warning);
  assert.equal(severityOf("note"), Severity.Information);
  assert.equal(severityOf("none"), Severity.Hint);
  assert.equal(severityOf(undefined), Severity.Warning);
  assert.equal(severityOf("bogus"), Severity.Warning);
  const noLevel = sarifToDiagnostics(oneResult({}, { id: "GPU201", defaultConfiguration: { level: "error" } }));
  assert.equal(noLevel[0].severity, Severity.Error);
  const informational = sarifToDiagnostics(oneResult({ kind: "informational" }));
  assert.equal(informational[0].severity, Severity.Hint);
  assert.equal(sarifToDiagnostics(oneResult({ level: "none" }))[0].severity, Severity.Hint);
});

test("kinds pass and notApplicable are dropped; rejected suppressions are not suppressions", () => {
  assert.equal(sarifToDiagnostics(oneResult({ kind: "pass" })).length, 0);
  assert.equal(sarifToDiagnostics(oneResult({ kind: "notApplicable" })).length, 0);
  assert.equal(sarifToDiagnostics(oneResult({ suppressions: [{ kind: "external", status: "accepted" }] })).length, 0);
  assert.equal(sarifToDiagnostics(oneResult({ suppressions: [{ kind: "external", status: "underReview" }] })).length, 0);
  assert.equal(sarifToDiagnostics(oneResult({ suppressions: [{ kind: "external", status: "rejected" }] })).length, 1);
  assert.equal(sarifToDiagnostics(oneResult({ suppressions: [] })).length, 1);
});

test("code target: the rule's helpUri wins; built-in ids link to their pack; others have none", () => {
  const withHelp = sarifToDiagnostics(oneResult({}, { id: "GPU201", helpUri: "https://example.org/r/GPU201" }));
  assert.deepEqual(withHelp[0].code, { value: "GPU201", target: "https://example.org/r/GPU201" });
  assert.equal(ruleDocsUri("GPU305", undefined), `${DOCS_BASE}timing/GPU305.md`);
  assert.equal(ruleDocsUri("GPU402", undefined), `${DOCS_BASE}framework-port/GPU402.md`);
  assert.equal(ruleDocsUri("GPU901", undefined), undefined);
  assert.equal(ruleDocsUri("GPU1011", undefined), undefined);
  assert.equal(ruleDocsUri("XYZ001", undefined), undefined);
  assert.equal(ruleDocsUri("GPU101", undefined, "https://docs.example/"), "https://docs.example/legacy/GPU101.md");
  const custom = sarifToDiagnostics(oneResult({ ruleId: "ACME1", ruleIndex: 0 }, { id: "ACME1" }));
  assert.deepEqual(custom[0].code, { value: "ACME1" });
});

test("a ruleIndex that disagrees with ruleId falls back to the lookup by id", () => {
  const log = oneResult({ ruleIndex: 0, ruleId: "GPU201" }, { id: "GPU999", helpUri: "https://wrong" });
  assert.equal(sarifToDiagnostics(log)[0].code.target, `${DOCS_BASE}round-trip/GPU201.md`);
});

test("messageStrings with arguments when the result has no text", () => {
  const log = oneResult(
    { message: { id: "default", arguments: ["x.get()", 7] } },
    { id: "GPU201", messageStrings: { default: { text: "{0} in a loop ({1} times) {2}" } } },
  );
  assert.equal(sarifToDiagnostics(log)[0].message, "x.get() in a loop (7 times) {2}");
});

test("URIs: absolute file URIs, nested bases, artifact indexes, unknown bases", () => {
  const abs = sarifToDiagnostics(oneResult({ locations: [{ physicalLocation: { artifactLocation: { uri: "file:///tmp/x%20y.py" } } }] }));
  assert.equal(abs[0].path, "/tmp/x y.py");
  const nested = sarifToDiagnostics(
    oneResult({ locations: [{ physicalLocation: { artifactLocation: { uri: "a.py", uriBaseId: "SUB" } } }] }, { id: "GPU201" }, {
      originalUriBaseIds: { ROOT: { uri: "file:///r" }, SUB: { uri: "src/", uriBaseId: "ROOT" } },
    }),
  );
  assert.equal(nested[0].path, "/r/src/a.py");
  const byIndex = sarifToDiagnostics(
    oneResult({ locations: [{ physicalLocation: { artifactLocation: { index: 0 } } }] }, { id: "GPU201" }, {
      artifacts: [{ location: { uri: "file:///r/idx.py" } }],
    }),
  );
  assert.equal(byIndex[0].path, "/r/idx.py");
  const unknown = sarifToDiagnostics(oneResult({ locations: [{ physicalLocation: { artifactLocation: { uri: "a.py", uriBaseId: "NOPE" } } }] }));
  assert.equal(unknown[0].path, "a.py");
  const cyclic = sarifToDiagnostics(
    oneResult({ locations: [{ physicalLocation: { artifactLocation: { uri: "a.py", uriBaseId: "A" } } }] }, { id: "GPU201" }, {
      originalUriBaseIds: { A: { uri: "x/", uriBaseId: "A" } },
    }),
  );
  assert.equal(cyclic[0].path, "x/x/x/x/x/x/x/x/a.py");
});

test("not SARIF: no records and no exception", () => {
  for (const bad of [null, 3, "runs", [], {}, { runs: 1 }, { runs: [null, 5, { results: [null, 1] }] }]) {
    assert.deepEqual(sarifToDiagnostics(bad), []);
  }
});

test("lineLengths splits like VS Code and counts UTF-16 units", () => {
  assert.deepEqual(lineLengths(TEXT), [8, 6, 5, 4]);
  assert.deepEqual(lineLengths(""), [0]);
  assert.deepEqual(lineLengths("a\n"), [1, 0]);
});
