import { describe, expect, it } from "vitest";
import { expandTags, isKnownTagShape, pageListTags, pageTag, sitePageTag, siteTag } from "./tags";

/** Whether an invalidation of `sent` (after expansion) names anything a render tagged with `tags` carries. */
const reaches = (sent: string[], tags: string[]) => expandTags(sent).some((t) => tags.includes(t));

describe("tag builders", () => {
  it("build the three shapes of the specification", () => {
    expect(siteTag("dupont")).toBe("site:dupont");
    expect(pageTag("implants")).toBe("page:implants");
    expect(sitePageTag("dupont", "implants")).toBe("site:dupont:page:implants");
  });

  it("build only tags the webhook shape accepts", () => {
    for (const tag of [siteTag("dupont"), pageTag("implants"), sitePageTag("dupont", "implants")]) {
      expect(isKnownTagShape(tag)).toBe(true);
    }
  });
});

describe("isKnownTagShape", () => {
  it.each([
    "site:dupont",
    "site:cabinet-dupont-2",
    "page:implants",
    "page:Implants_Dentaires",
    "site:dupont:page:implants",
  ])("accepts %s", (tag) => {
    expect(isKnownTagShape(tag)).toBe(true);
  });

  it.each([
    "",
    "site:",
    "page:",
    "site:Dupont",
    "site:dupont:",
    "site:dupont:page:",
    "site:dupont:team",
    "page:a:b",
    "page:a b",
    " site:dupont",
    "site:dupont ",
    "other:dupont",
    // The page-list tags are internal: a webhook cannot name them.
    "pages",
    "site:dupont:pages",
  ])("refuses %j", (tag) => {
    expect(isKnownTagShape(tag)).toBe(false);
  });
});

describe("pageListTags", () => {
  it("carries the practice's tag, its own page-list tag and the tag of every page list", () => {
    expect(pageListTags("dupont")).toEqual(["site:dupont", "site:dupont:pages", "pages"]);
  });
});

describe("expandTags", () => {
  const dupontList = pageListTags("dupont");
  const martinList = pageListTags("martin");

  it("keeps the tags it was given", () => {
    const sent = ["site:dupont", "page:implants", "site:martin:page:contact"];
    expect(expandTags(sent)).toEqual(expect.arrayContaining(sent));
  });

  it("a page tag of the specification's shape reaches every practice's page list", () => {
    expect(reaches(["page:implants"], dupontList)).toBe(true);
    expect(reaches(["page:implants"], martinList)).toBe(true);
  });

  it("a page tag of one practice reaches that practice's page list only", () => {
    expect(reaches(["site:dupont:page:implants"], dupontList)).toBe(true);
    expect(reaches(["site:dupont:page:implants"], martinList)).toBe(false);
  });

  it("a practice tag reaches its own page list, not another practice's", () => {
    expect(reaches(["site:dupont"], dupontList)).toBe(true);
    expect(reaches(["site:dupont"], martinList)).toBe(false);
  });

  it("a page tag does not reach another page of the practice", () => {
    const otherPage = [siteTag("dupont"), pageTag("contact"), sitePageTag("dupont", "contact")];
    // site:dupont is on every page of the practice, but a page tag must not expand to it.
    expect(reaches(["page:implants"], otherPage)).toBe(false);
    expect(reaches(["site:dupont:page:implants"], otherPage)).toBe(false);
  });

  it("names each tag once", () => {
    const out = expandTags(["page:a", "page:b", "site:x:page:a", "site:x:page:b", "page:a"]);
    expect(out.length).toBe(new Set(out).size);
    expect(out.filter((t) => t === "pages")).toHaveLength(1);
    expect(out.filter((t) => t === "site:x:pages")).toHaveLength(1);
  });
});
