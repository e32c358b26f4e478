import { describe, expect, it } from "vitest";
import { claimOf, cleanToken, commentMentions, decisionsSection, indexProblems, mentions, recordProblems, unlisted, type Mention } from "./check-docs";

const top = new Set(["src", "ops", "tests", "docs", "bench", "scripts", ".ci"]);
const code = (token: string): Mention => ({ token, line: 1, where: "code" });
const prose = (token: string): Mention => ({ token, line: 1, where: "prose" });

describe("mentions", () => {
  it("finds link targets, code span tokens and fenced tokens as code, the rest as prose, with their lines", () => {
    const found = mentions(["See [the pool](0021-render-pool.md) and `src/server/x.ts --flag` `[N](x.md)`.", "```", "ops/deploy/nginx  the proxy", "```", "prose src/y.ts"].join("\n"));
    expect(found.filter((m) => m.where === "link")).toEqual([{ token: "0021-render-pool.md", line: 1, where: "link" }]);
    expect(found.filter((m) => m.where === "code").map((m) => [m.token, m.line])).toEqual([
      ["src/server/x.ts", 1],
      ["--flag", 1],
      ["[N](x.md)", 1],
      ["ops/deploy/nginx", 3],
      ["the", 3],
      ["proxy", 3],
    ]);
    expect(found.filter((m) => m.where === "prose").map((m) => m.token)).toContain("src/y.ts");
    expect(found.filter((m) => m.where === "prose").map((m) => m.token)).not.toContain("0021-render-pool.md");
  });
});

describe("commentMentions", () => {
  it("reads the words of comment lines and line-end comments, never a string or code", () => {
    const source = [
      "/**",
      " * The pool (docs/decisions/0022-render-pool.md).",
      " */",
      'import { x } from "src/not/a/comment.ts";',
      "const a = 1; // see src/server/env.ts",
      "# a shell comment naming ops/deploy/deploy.sh",
      "#!/bin/bash",
    ].join("\n");
    expect(commentMentions(source).map((m) => [m.token, m.line])).toEqual([
      ["The", 2],
      ["pool", 2],
      ["(docs/decisions/0022-render-pool.md).", 2],
      ["see", 5],
      ["src/server/env.ts", 5],
      ["a", 6],
      ["shell", 6],
      ["comment", 6],
      ["naming", 6],
      ["ops/deploy/deploy.sh", 6],
    ]);
  });
});

describe("cleanToken", () => {
  it("drops the punctuation around a path, emphasis and a line suffix", () => {
    expect(cleanToken("(src/server/http/app.ts:180),")).toBe("src/server/http/app.ts");
    expect(cleanToken("bench/targets.ts's,")).toBe("bench/targets.ts");
    expect(cleanToken("bench/operator-view.ts:36-61,112")).toBe("bench/operator-view.ts");
    expect(cleanToken("**docs/benchmarks.md**.")).toBe("docs/benchmarks.md");
    expect(cleanToken("src/routes/_sites/[code]/[...path]/")).toBe("src/routes/_sites/[code]/[...path]/");
    expect(cleanToken("../shared/DESIGN.md")).toBe("../shared/DESIGN.md");
  });
  it("refuses templates, globs, URLs, URL paths, options and other relative spellings", () => {
    for (const token of ["migrations/{code}/redirects.json", "$DEPLOY_ROOT/tls/", "dist/media/<code>/", "*.unit.ts", "https://x.example/a.md", "/api/og", "--max-pages", "ops/...", "./x.ts", "../other/x.md", "a=b/c.ts", "docs/decisions/NNNN-slug.md"]) {
      expect(cleanToken(token), token).toBeNull();
    }
  });
});

describe("claimOf", () => {
  it("claims an exact path for a token under a top-level folder, in prose as in code", () => {
    expect(claimOf(prose("src/server/lifecycle.ts"), top, ".")).toEqual({ kind: "exact", path: "src/server/lifecycle.ts" });
    expect(claimOf(code("ops/compose/compose.yml"), top, ".")).toEqual({ kind: "exact", path: "ops/compose/compose.yml" });
    expect(claimOf(code(".ci/run"), top, ".")).toEqual({ kind: "exact", path: ".ci/run" });
  });
  it("resolves a link against the document's folder, without its anchor; URLs and anchors claim nothing", () => {
    expect(claimOf({ token: "0021-render-pool.md#why", line: 1, where: "link" }, top, "docs/decisions")).toEqual({ kind: "exact", path: "docs/decisions/0021-render-pool.md" });
    expect(claimOf({ token: "../operations.md", line: 1, where: "link" }, top, "docs/decisions")).toEqual({ kind: "exact", path: "docs/operations.md" });
    expect(claimOf({ token: "https://example.com/x.md", line: 1, where: "link" }, top, ".")).toBeNull();
    expect(claimOf({ token: "#layout", line: 1, where: "link" }, top, ".")).toBeNull();
  });
  it("in code only: a suffix for a relative file, a folder for a relative folder, a name for a bare file name", () => {
    expect(claimOf(code("cache/tags.ts"), top, ".")).toEqual({ kind: "suffix", suffix: "cache/tags.ts" });
    expect(claimOf(code("cache/shared/"), top, ".")).toEqual({ kind: "folder", suffix: "cache/shared" });
    expect(claimOf(code("pool-config.ts"), top, ".")).toEqual({ kind: "name", name: "pool-config.ts" });
    expect(claimOf(code("render-pool.md"), top, ".")).toEqual({ kind: "name", name: "render-pool.md" });
    expect(claimOf(prose("cache/tags.ts"), top, ".")).toBeNull();
    expect(claimOf(prose("Node.js"), top, ".")).toBeNull();
  });
  it("claims nothing for words, media types, unknown extensions and the product's outputs", () => {
    for (const token of ["text/html", "image/svg+xml", "index.html", "robots.txt", "crawl.json", "q-data.json", "Dockerfile", "origin/develop"]) {
      expect(claimOf(code(token), top, "."), token).toBeNull();
    }
  });
});

const header = (n: string, status: string, extra = "") => `# ${n}. Title\n\n- Date: 2026-11-23\n- Status: ${status}\n${extra}\nBody.\n`;

describe("recordProblems", () => {
  it("accepts the four statuses, with the superseding and amending records linking back", () => {
    const records = [
      { name: "0004-idea.md", text: header("0004", "proposed") },
      { name: "0001-old.md", text: header("0001", "superseded by [0003](0003-new.md)", "- Replaced: 0003 keeps pages in Redis, 0001 kept them per process.\n") },
      { name: "0002-base.md", text: header("0002", "accepted; amended by [0003](0003-new.md)") },
      { name: "0003-new.md", text: header("0003", "accepted", "- Supersedes [0001](0001-old.md); amends [0002](0002-base.md).\n") },
    ];
    expect(recordProblems(records)).toEqual([]);
  });

  it("refuses a proposed record as what supersedes or amends another", () => {
    const records = [
      { name: "0001-a.md", text: header("0001", "accepted; amended by [0003](0003-idea.md)") },
      { name: "0002-b.md", text: header("0002", "superseded by [0003](0003-idea.md)", "- Replaced: an idea.\n") },
      { name: "0003-idea.md", text: header("0003", "proposed", "- Amends [0001](0001-a.md); supersedes [0002](0002-b.md).\n") },
    ];
    expect(recordProblems(records)).toEqual([
      "docs/decisions/0001-a.md:4: the status links to 0003-idea.md, which is only proposed",
      "docs/decisions/0002-b.md:4: the status links to 0003-idea.md, which is only proposed",
    ]);
  });

  it("names each format problem", () => {
    const problems = recordProblems([
      { name: "render-pool.md", text: "# The render pool\n" },
      { name: "0004-a.md", text: header("0005", "accepted") },
      { name: "0006-b.md", text: "# 0006. B\n- Date: 2026-13-45\n- Status: draft\n" },
      { name: "0007-c.md", text: header("0007", "superseded by [0008](0008-missing.md)") },
      { name: "0009-d.md", text: header("0009", "accepted; amended by [0010](0010-e.md)") },
      { name: "0010-e.md", text: header("0010", "accepted") },
      { name: "0011-f.md", text: header("0011", "superseded by [0012](0010-e.md)", "- Replaced: x\n") },
    ]);
    expect(problems).toEqual([
      "docs/decisions/render-pool.md: a record is named NNNN-slug.md (lower-case slug)",
      "docs/decisions/0004-a.md:1: the title's number 0005 is not the file's 0004",
      "docs/decisions/0006-b.md:2: a blank line follows the title",
      'docs/decisions/0006-b.md:3: the third line is "- Date: YYYY-MM-DD" (a real date)',
      'docs/decisions/0006-b.md:4: the fourth line is "- Status: ..."',
      'docs/decisions/0007-c.md:5: a superseded record says in one line what replaced what ("- Replaced: ...")',
      "docs/decisions/0007-c.md:4: the status links to 0008-missing.md, which does not exist",
      "docs/decisions/0010-e.md: links nowhere back to 0009-d.md, whose status names it",
      "docs/decisions/0011-f.md:4: the link [0012] names 0010-e.md",
    ]);
  });

  it("refuses a number used twice", () => {
    expect(recordProblems([
      { name: "0001-a.md", text: header("0001", "accepted") },
      { name: "0001-b.md", text: header("0001", "accepted") },
    ])).toEqual(["docs/decisions/0001-b.md: number 0001 is also 0001-a.md"]);
  });
});

describe("the indexes", () => {
  it("README's Decisions section must name every record by its path; other sections do not count", () => {
    const readme = "## Layout\n\n`docs/decisions/0002-b.md`\n\n## Decisions\n\n| `docs/decisions/0001-a.md` | x |\n\n## Next\n";
    expect(unlisted(decisionsSection(readme), ["0001-a.md", "0002-b.md"])).toEqual(["0002-b.md"]);
  });
  it("docs/decisions/README.md has a line per record ending with the record's status", () => {
    const records = [
      { name: "0001-a.md", text: header("0001", "accepted; amended by [0002](0002-b.md)") },
      { name: "0002-b.md", text: header("0002", "accepted") },
      { name: "0003-c.md", text: header("0003", "accepted") },
    ];
    // 0001's line links 0002 in its status: 0002's own line is the one that starts with its link.
    const index = "- [0001](0001-a.md) A: accepted; amended by [0002](0002-b.md), [0003](0003-c.md)\n- [0002](0002-b.md) B: accepted\n";
    expect(indexProblems(index, records)).toEqual([
      'docs/decisions/README.md: the line of 0001-a.md does not end with its status "accepted; amended by [0002](0002-b.md)"',
      'docs/decisions/README.md: no line starts with "- [0003](0003-c.md) "',
    ]);
  });
});
