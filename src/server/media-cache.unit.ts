import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mediaCachePath } from "./media-cache";

const dir = mkdtempSync(join(tmpdir(), "media-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("mediaCachePath", () => {
  mkdirSync(join(dir, "dupont"));
  writeFileSync(join(dir, "dupont", "logo.svg"), "<svg/>");
  writeFileSync(join(dir, "dupont", "favicon.png"), "png");
  writeFileSync(join(dir, "dupont", "logo.txt"), "not a media type");

  it("finds the cached file of a practice in its own format, as an absolute path", () => {
    expect(mediaCachePath("dupont", "logo", dir)).toBe(join(dir, "dupont", "logo.svg"));
    expect(mediaCachePath("dupont", "favicon", dir)).toBe(join(dir, "dupont", "favicon.png"));
  });

  it("answers null when nothing was cached, and for a code that is not a practice code", () => {
    expect(mediaCachePath("martin", "logo", dir)).toBeNull();
    expect(mediaCachePath("../dupont", "logo", dir)).toBeNull();
    expect(mediaCachePath("dupont/..", "logo", dir)).toBeNull();
  });
});
