/**
 * The render's per-request context and html attributes, and createRenderer through Qwik City's real request
 * handler with a small plan of endpoint routes (no SSR entry needed).
 */
import { describe, expect, it } from "vitest";
import type { RequestEvent } from "@builder.io/qwik-city";
import type { ServerRenderOptions } from "@builder.io/qwik-city/middleware/request-handler";
import { createRenderer } from "./render";
import {
  findRequestContext,
  htmlAttributesFor,
  requestContext,
  setHtmlAttributes,
  setRequestContext,
  type RenderPlatform,
  type RequestContext,
  type RequestServices,
} from "./context";

/** The one part of a request event the context helpers use. */
const event = () => ({ sharedMap: new Map<string, unknown>() });

/** Services are only carried by the render, never called here: an object to check identity against. */
const services = { env: { marker: "services" } } as unknown as RequestServices;

describe("the request context", () => {
  it("is found on the request it was set on, and only there", () => {
    const ev = event();
    const other = event();
    const ctx: RequestContext = { code: "dupont", tags: new Set(["site:dupont"]), services };
    setRequestContext(ev, ctx);
    expect(findRequestContext(ev)).toBe(ctx);
    expect(requestContext(ev)).toBe(ctx);
    expect(findRequestContext(other)).toBeUndefined();
  });

  it("requestContext() throws on a request the tenant plugin did not see", () => {
    expect(() => requestContext(event())).toThrow(/request context missing/);
  });
});

describe("htmlAttributesFor", () => {
  it("reads back the attributes the layout set on this render's request", () => {
    const ev = event();
    setHtmlAttributes(ev, { style: "--primary: oklch(0.5 0.1 200)" });
    expect(htmlAttributesFor({ qwikcity: { ev } })).toEqual({ style: "--primary: oklch(0.5 0.1 200)" });
  });

  it("is empty when nothing was set or there is no request (a render outside Qwik City)", () => {
    expect(htmlAttributesFor({ qwikcity: { ev: event() } })).toEqual({});
    expect(htmlAttributesFor({})).toEqual({});
    expect(htmlAttributesFor(undefined)).toEqual({});
  });
});

/*
 * The plan: a server plugin that takes the context from `platform` as src/routes/plugin@tenant.ts does,
 * and endpoints that read it (no page route, so the SSR entry is never called).
 */
describe("createRenderer", () => {
  const plugin = {
    onRequest: (ev: RequestEvent) => {
      const platform = ev.platform as RenderPlatform;
      setRequestContext(ev, { code: platform.render!.code, tags: platform.render!.tags, services: platform.services! });
    },
  };
  const whoami = {
    onGet: (ev: RequestEvent) => {
      const ctx = requestContext(ev);
      ctx.tags.add(`site:${ctx.code}:page:whoami`);
      ev.cookie.set("a", "1", { path: "/" });
      ev.cookie.set("b", "2", { path: "/" });
      ev.json(200, {
        code: ctx.code,
        sameServices: ctx.services === services,
        ip: ev.clientConn.ip ?? null,
        url: ev.url.href,
      });
    },
  };
  const empty = { onGet: (ev: RequestEvent) => ev.send(204, "ignored") };
  const opts = {
    render: () => {
      throw new Error("no page route in this plan");
    },
    qwikCityPlan: {
      routes: [
        ["whoami/", [() => whoami]],
        ["empty/", [() => empty]],
      ],
      serverPlugins: [plugin],
      trailingSlash: true,
      basePathname: "/",
      cacheModules: true,
    },
  } as unknown as ServerRenderOptions;
  let mainThreadRenders = 0;
  const render = createRenderer(opts, services, () => mainThreadRenders++);

  it("hands the practice, its tag set and the services to the route, with the client address", async () => {
    const tags = new Set<string>();
    const response = await render(
      new Request("https://www.cabinet-dupont.fr/whoami/?x=1"),
      { code: "dupont", tags },
      "203.0.113.7",
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      code: "dupont",
      sameServices: true,
      ip: "203.0.113.7",
      url: "https://www.cabinet-dupont.fr/whoami/?x=1",
    });
    // The tags the route read land in the caller's set (what the page cache stores with the bytes).
    expect([...tags]).toEqual(["site:dupont:page:whoami"]);
    // This test renders on the main thread: the render counted it (the count a server with a pool keeps at 0).
    expect(mainThreadRenders).toBe(1);
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
  });

  it("keeps two concurrent renders' contexts apart", async () => {
    const a = new Set<string>();
    const b = new Set<string>();
    const [ra, rb] = await Promise.all([
      render(new Request("https://a.example/whoami/"), { code: "dupont", tags: a }),
      render(new Request("https://b.example/whoami/"), { code: "martin", tags: b }),
    ]);
    expect((await ra.json()).code).toBe("dupont");
    expect((await rb.json()).code).toBe("martin");
    expect([...a]).toEqual(["site:dupont:page:whoami"]);
    expect([...b]).toEqual(["site:martin:page:whoami"]);
  });

  it("gives a status that may not carry a body no body", async () => {
    const response = await render(new Request("https://www.cabinet-dupont.fr/empty/"), {
      code: "dupont",
      tags: new Set(),
    });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it("answers 404 when no route matches", async () => {
    const response = await render(new Request("https://www.cabinet-dupont.fr/nowhere/"), {
      code: "dupont",
      tags: new Set(),
    });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("Not Found");
  });
});
