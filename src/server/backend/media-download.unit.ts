import { describe, expect, it } from "vitest";
import { mediaPathOf } from "./media-download";

describe("mediaPathOf", () => {
  it("keeps the /media/ path of a media URL, whatever origin it names", () => {
    expect(mediaPathOf("https://cms.example.org/media/dupont/logo.svg")).toBe("/media/dupont/logo.svg");
    expect(mediaPathOf("http://127.0.0.1:4000/media/x%20y.png?v=2")).toBe("/media/x%20y.png");
  });

  it.each([
    "https://cms.example.org/api/v1/websites/sites/dupont/config/",
    "https://cms.example.org/media/../etc/passwd",
    "https://cms.example.org/media/%2e%2e/secret",
    "https://cms.example.org/media/a%5c..%5cb",
    "https://cms.example.org/media/%E0%A4%A",
    "file:///media/logo.svg",
    "/media/logo.svg",
    "not a url",
  ])("refuses %s", (url) => {
    expect(mediaPathOf(url)).toBeNull();
  });
});
