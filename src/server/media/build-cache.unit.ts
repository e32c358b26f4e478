import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mediaCachePath } from "./build-cache";

const dir = mkdtempSync(join(tmpdir(), "media-cache-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("mediaCachePath", () => {
  mkdirSync(join(dir, "dupont"));
  writeFileSync(join(dir, "dupont", "logo.svg"), "<svg/>");
  writeFileSync(join(dir, "dupont", "favicon.png"), "png");
  mkdirSync(join(dir, "martin"));
  writeFileSync(join(dir, "martin", "logo.gif"), "GIF89a");

  it("finds the cached file of a practice in its own format, as an absolute path", () => {
    expect(mediaCachePath("dupont", "logo", [dir])).toBe(join(dir, "dupont", "logo.svg"));
    expect(mediaCachePath("dupont", "favicon", [dir])).toBe(join(dir, "dupont", "favicon.png"));
  });

  it("returns a file of any type, so that the social card can name the type it refuses", () => {
    expect(mediaCachePath("martin", "logo", [dir])).toBe(join(dir, "martin", "logo.gif"));
  });

  it("answers null when nothing was cached, and for a code that is not a practice code", () => {
    expect(mediaCachePath("bernard", "logo", [dir])).toBeNull();
    expect(mediaCachePath("martin", "favicon", [dir])).toBeNull();
    expect(mediaCachePath("../dupont", "logo", [dir])).toBeNull();
    expect(mediaCachePath("dupont/..", "logo", [dir])).toBeNull();
  });
});
