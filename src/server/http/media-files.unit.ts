/**
 * Which paths the practice's media files rule takes: the `media` segment on another practice's host is a plain
 * 404, on its own host an SVG gets the sandbox policy, and a page whose name only starts with "media" is no file.
 */
import { describe, expect, it } from "vitest";
import type { IncomingMessage, ServerResponse } from "node:http";
import { mediaFilesMiddleware } from "./media-files";
import { beginState } from "./pipeline";

function run(url: string, code = "dupont") {
  const req = { url, headers: {}, socket: { bytesWritten: 0 } } as unknown as IncomingMessage;
  beginState(req, () => "id").tenant = { code, host: `${code}.example` };
  const headers = new Map<string, unknown>();
  let status = 0;
  const res = {
    set statusCode(s: number) {
      status = s;
    },
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), value),
    end: () => {},
  } as unknown as ServerResponse;
  let passed = false;
  mediaFilesMiddleware()(req, res, () => void (passed = true));
  return { passed, status, csp: headers.get("content-security-policy") };
}

describe("mediaFilesMiddleware", () => {
  it("passes a practice's own file on, an SVG sandboxed", () => {
    expect(run("/media/dupont/logo.png")).toMatchObject({ passed: true, csp: undefined });
    expect(run("/media/dupont/logo.svg")).toMatchObject({ passed: true, csp: expect.stringContaining("sandbox") });
  });

  it.each(["/media/martin/logo.svg", "/MEDIA/martin/logo.svg", "//media//martin/logo.svg", "/%6Dedia/martin/logo.svg", "/media", "/media/"])(
    "answers %s with a plain 404 on dupont's host",
    (url) => {
      expect(run(url)).toMatchObject({ passed: false, status: 404 });
    },
  );

  it.each(["/mediation/", "/medias/", "/mediateur/dupont/", "/soins/media/martin/"])("leaves the page %s alone", (url) => {
    expect(run(url)).toMatchObject({ passed: true, status: 0 });
  });
});
