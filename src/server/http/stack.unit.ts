/**
 * The app's handler list on plain objects: order, passing on, one error answer however a handler fails, and
 * paths matched as Express matched them (any case, one trailing slash or none; a mount at a segment boundary).
 */
import { describe, expect, it } from "vitest";
import type { IncomingMessage, ServerResponse } from "node:http";
import { mountOf, route, stack, type Handler } from "./stack";

const request = (method: string, url: string) => ({ method, url }) as IncomingMessage;
const response = () => ({}) as ServerResponse;

/** Runs `handlers` on one request: what answered ("last" when none did), and the errors reported. */
async function run(handlers: Handler[], method: string, url: string) {
  const answered: string[] = [];
  const errors: unknown[] = [];
  const listener = stack(
    handlers,
    (error) => errors.push(error),
    () => void answered.push("last"),
  );
  listener(request(method, url), response());
  // Let a rejected handler's promise be seen.
  await new Promise((resolve) => setImmediate(resolve));
  return { answered, errors };
}

const answers =
  (name: string, into: string[]): Handler =>
  () =>
    void into.push(name);

describe("stack", () => {
  it("runs the handlers in order until one answers", async () => {
    const seen: string[] = [];
    const pass = (name: string): Handler => (_req, _res, next) => {
      seen.push(name);
      next();
    };
    const { answered } = await run([pass("a"), pass("b"), answers("c", seen), pass("d")], "GET", "/");
    expect(seen).toEqual(["a", "b", "c"]);
    expect(answered).toEqual([]);
  });

  it("ends with the last handler when every one passed", async () => {
    expect((await run([(_req, _res, next) => next()], "GET", "/")).answered).toEqual(["last"]);
  });

  it("reports a throw, a rejection and next(error) to the error handler, once each, and stops there", async () => {
    const later: string[] = [];
    const boom = new Error("boom");
    for (const failing of [
      () => {
        throw boom;
      },
      async () => {
        throw boom;
      },
      (_req: IncomingMessage, _res: ServerResponse, next: (e?: unknown) => void) => next(boom),
      // Both: one report.
      (_req: IncomingMessage, _res: ServerResponse, next: (e?: unknown) => void) => {
        next(boom);
        throw boom;
      },
    ] as Handler[]) {
      const { errors, answered } = await run([failing, answers("after", later)], "GET", "/");
      expect(errors).toEqual([boom]);
      expect(answered).toEqual([]);
    }
    expect(later).toEqual([]);
  });
});

describe("route", () => {
  const seen: string[] = [];
  const healthz = route(["GET"], ["/healthz"], answers("healthz", seen));
  const webhook = route(["POST"], ["/webhooks/revalidate/"], answers("webhook", seen));

  it.each([
    ["GET", "/healthz"],
    ["HEAD", "/healthz"],
    ["GET", "/healthz/"],
    ["GET", "/HealthZ?x=1"],
  ])("matches %s %s as Express did", async (method, url) => {
    seen.length = 0;
    expect((await run([healthz], method, url)).answered).toEqual([]);
    expect(seen).toEqual(["healthz"]);
  });

  it.each([
    ["POST", "/healthz"],
    ["GET", "/healthz//"],
    ["GET", "/healthzz"],
    ["GET", "/healthz/x"],
    ["GET", "/webhooks/revalidate/"],
  ])("passes %s %s on", async (method, url) => {
    seen.length = 0;
    expect((await run([healthz, webhook], method, url)).answered).toEqual(["last"]);
    expect(seen).toEqual([]);
  });

  it("takes a route written with its trailing slash with or without it", async () => {
    seen.length = 0;
    await run([webhook], "POST", "/webhooks/revalidate");
    await run([webhook], "POST", "/Webhooks/Revalidate/");
    expect(seen).toEqual(["webhook", "webhook"]);
  });
});

describe("mountOf", () => {
  it("match a prefix at a segment boundary, in any case", () => {
    expect(mountOf("/build/q-1.js", ["/build", "/assets"])).toBe("/build");
    expect(mountOf("/ASSETS/a.css", ["/build", "/assets"])).toBe("/assets");
    expect(mountOf("/build", ["/build"])).toBe("/build");
    expect(mountOf("/buildings/", ["/build"])).toBeNull();
    expect(mountOf("/x/build/", ["/build"])).toBeNull();
  });
});
