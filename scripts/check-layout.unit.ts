import { describe, expect, it } from "vitest";
import { entryOf, orderViolations, parseLayout } from "./check-layout";

const readme = [
  "# Title",
  "",
  "## Layout",
  "",
  "Some prose naming `cache/`.",
  "",
  "```",
  "src/server/",
  "  util/                    helpers",
  "                           a continuation naming http/ that is no entry",
  "  env.ts                   the environment",
  "  site/seo/                head parts",
  "  site/, og/               peers on one line",
  "  cache/                   the page cache",
  "  cache/shared/            several instances",
  "  build-checks.ts, start-warnings.ts   two files",
  "src/entry.express.tsx      not under src/server/",
  "  indented/                after the block's end of src/server/: not an entry",
  "```",
  "",
  "## Environment",
].join("\n");

describe("parseLayout", () => {
  it("reads one rank per line under src/server/, peers split, continuations and later entries left out", () => {
    expect(parseLayout(readme)).toEqual([
      ["util/"],
      ["env.ts"],
      ["site/seo/"],
      ["site/", "og/"],
      ["cache/"],
      ["cache/shared/"],
      ["build-checks.ts", "start-warnings.ts"],
    ]);
  });

  it("refuses a README without the layout block instead of checking nothing", () => {
    expect(() => parseLayout("# Title\n\n## Environment\n")).toThrow(/Layout/);
    expect(() => parseLayout("## Layout\n\nno block\n")).toThrow(/fenced block/);
  });
});

describe("entryOf", () => {
  const entries = ["util/", "env.ts", "site/", "cache/", "cache/shared/"];
  it("is the deepest listed folder holding the file, or the listed file itself", () => {
    expect(entryOf("cache/shared/codec.ts", entries)).toBe("cache/shared/");
    expect(entryOf("cache/key.ts", entries)).toBe("cache/");
    expect(entryOf("env.ts", entries)).toBe("env.ts");
  });
  it("never folds an unlisted subfolder into its parent", () => {
    expect(entryOf("site/seo/head.ts", entries)).toBeNull();
    expect(entryOf("services.ts", entries)).toBeNull();
  });
});

describe("orderViolations", () => {
  const ranks = parseLayout(readme);
  it("lets an entry import what is listed above it and its own files", () => {
    expect(
      orderViolations(
        [
          ["cache/shared/codec.ts", "cache/entry.ts"],
          ["cache/key.ts", "cache/entry.ts"],
          ["site/site.ts", "site/seo/canonical.ts"],
          ["start-warnings.ts", "env.ts"],
        ],
        ranks,
      ),
    ).toEqual([]);
  });

  it("reports an import of an entry listed below, a subfolder's parent included, and of a peer on the same line", () => {
    const found = orderViolations(
      [
        ["cache/not-found-watch.ts", "cache/shared/names.ts"],
        ["site/seo/head.ts", "site/page-view.ts"],
        ["og/colors.ts", "site/theme.ts"],
        ["util/x.ts", "env.ts"],
      ],
      ranks,
    );
    expect(found.map((v) => v.reason)).toEqual([
      "cache/shared/ is listed below cache/",
      "site/ is listed below site/seo/",
      "site/ is listed on the same line as og/",
      "env.ts is listed below util/",
    ]);
  });

  it("reports a file in no entry, on either side of an import", () => {
    const found = orderViolations(
      [
        ["services.ts", "cache/key.ts"],
        ["cache/key.ts", "media/url.ts"],
      ],
      ranks,
    );
    expect(found.map((v) => v.reason)).toEqual(["services.ts is in no entry of README's layout", "media/url.ts is in no entry of README's layout"]);
  });
});
