/**
 * Contract tests of the demo content backend: it must serve content-backend-api.md to the letter, since
 * the frontend's own tests and demos run against it.
 *
 * Run: npx vitest run ops/demo/backend
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { startDemoBackend, type RunningDemoBackend } from "./app.js";
// What the frontend parses (its output types): the served payloads are read as the frontend reads them.
import { PAGE_KINDS, type Media, type NavItem, type Page } from "../../../src/server/backend/schemas.js";
import type { BlockType } from "../../../src/server/site/blocks.js";
import type { ContactSubmissionRecord, WebhookDelivery, WebhookResult } from "./model.js";

// ---------------------------------------------------------------------------------------------
// The contract as runtime schemas (strict about what it states, tolerant of extra fields).

const isoUtc = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
const absoluteMediaUrl = z.string().regex(/^http:\/\/127\.0\.0\.1:\d+\/media\/[a-z0-9/_-]+\.(webp|png|jpg|svg)$/);

const mediaSchema = z.object({
  url: absoluteMediaUrl,
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  alt: z.string(),
  mime_type: z.enum(["image/webp", "image/png", "image/jpeg", "image/svg+xml"]),
  srcset: z.array(z.object({ url: absoluteMediaUrl, width: z.number().int().positive() })),
});

const configSchema = z.object({
  code: z.string(),
  name: z.string().min(1),
  is_active: z.literal(true),
  theme: z.object({
    primary_hue: z.number().min(0).max(360),
    primary_chroma: z.number().min(0).max(0.37),
    accent_hue: z.number().min(0).max(360),
    accent_chroma: z.number().min(0).max(0.37),
  }),
  seo: z.object({
    site_title: z.string().min(1),
    default_description: z.string().min(1),
    default_og_image: mediaSchema.nullable(),
  }),
  domain: z.object({ primary_domain: z.string().nullable(), aliases: z.array(z.string()) }),
  logo: mediaSchema,
  favicon: mediaSchema.nullable(),
  analytics_website_id: z.string().nullable(),
  enabled_services: z.array(z.string()),
  updated_at: isoUtc,
});

const hhmm = z.string().regex(/^\d{2}:\d{2}$/);
const practiceSchema = z.object({
  name: z.string().min(1),
  address: z.object({ street: z.string(), postal_code: z.string(), city: z.string(), country: z.string().length(2) }),
  geo: z.object({ lat: z.number(), lng: z.number() }).nullable(),
  phone: z.string().min(1),
  email: z.string().nullable(),
  hours: z.array(
    z.object({
      day: z.enum(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]),
      opens: hhmm,
      closes: hhmm,
    }),
  ),
  access_info: z.string(),
  parking: z.string(),
  transit: z.string(),
  booking_url: z.string().nullable(),
});

const teamSchema = z.object({
  members: z.array(
    z.object({
      slug: z.string(),
      name: z.string(),
      role: z.string(),
      photo: mediaSchema.nullable(),
      bio: z.string(),
      skills: z.array(z.string()),
      booking_url: z.string().nullable(),
    }),
  ),
});

const navItemSchema: z.ZodType<NavItem> = z.lazy(() =>
  z.object({ label: z.string().min(1), href: z.string().nullable(), children: z.array(navItemSchema) }),
);

const summaryShape = {
  slug: z.string().min(1),
  path: z.string().regex(/^\/([a-z0-9-]+\/)*$/),
  title: z.string().min(1),
  kind: z.enum(PAGE_KINDS),
  level: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  parent: z.string().nullable(),
  updated_at: isoUtc,
};
const pagesSchema = z.object({ pages: z.array(z.object(summaryShape)) });

const link = z.object({ label: z.string(), href: z.string() });
/** One schema per block type the frontend renders (the type makes tsc name a missing or extra one). */
const blockValueSchemas: Record<BlockType, z.ZodType> = {
  hero: z.object({ heading: z.string(), subheading: z.string(), image: mediaSchema.nullable(), cta: link.nullable() }),
  rich_text: z.object({ html: z.string().min(1) }),
  image: z.object({ image: mediaSchema, caption: z.string() }),
  cards: z.object({
    heading: z.string(),
    items: z.array(
      z.object({ title: z.string(), text: z.string(), href: z.string().nullable(), image: mediaSchema.nullable() }),
    ),
  }),
  faq: z.object({ heading: z.string(), items: z.array(z.object({ question: z.string(), answer_html: z.string() })) }),
  price_list: z.object({
    heading: z.string(),
    items: z.array(z.object({ label: z.string(), price: z.string(), note: z.string().nullable() })),
  }),
  cta: z.object({ heading: z.string(), text: z.string(), label: z.string(), href: z.string() }),
  team: z.object({ heading: z.string(), members: z.union([z.literal("all"), z.array(z.string())]) }),
  hours: z.object({ heading: z.string() }),
  map: z.object({ heading: z.string() }),
  services: z.object({ heading: z.string(), items: z.array(z.string()) }),
};

const KNOWN_BLOCK_TYPES = Object.keys(blockValueSchemas) as BlockType[];
const isKnownBlockType = (type: string): type is BlockType => Object.hasOwn(blockValueSchemas, type);

const pageSchema = z.object({
  ...summaryShape,
  service: z.string().nullable(),
  seo: z.object({ title: z.string().nullable(), description: z.string(), og_image: mediaSchema.nullable() }),
  blocks: z.array(z.object({ type: z.string().min(1), id: z.string().min(1), value: z.unknown() })),
  related_services: z.array(z.string()),
});

const jobsSchema = z.object({
  jobs: z.array(
    z.object({
      slug: z.string(),
      title: z.string(),
      contract: z.string(),
      location: z.string(),
      description_html: z.string(),
      published_at: isoUtc,
    }),
  ),
});

// ---------------------------------------------------------------------------------------------
// A stand-in frontend that records revalidation webhooks.

interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

const SECRET = "test-revalidation-secret";
const received: ReceivedWebhook[] = [];
let frontendDelayMs = 0;

let frontend: Server;
let frontendUrl: string;
let backend: RunningDemoBackend;
let api: string;

beforeAll(async () => {
  frontend = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: JSON.parse(raw) });
      const ok = req.headers["x-revalidate-secret"] === SECRET;
      setTimeout(() => {
        res.writeHead(ok ? 200 : 401, { "Content-Type": "application/json" }).end(JSON.stringify({ revalidated: ok }));
      }, frontendDelayMs);
    });
  });
  await new Promise<void>((resolve) => frontend.listen(0, "127.0.0.1", resolve));
  frontendUrl = `http://127.0.0.1:${(frontend.address() as AddressInfo).port}`;
  backend = await startDemoBackend({ port: 0, frontendUrl, revalidationSecret: SECRET, webhookTimeoutMs: 1000 });
  api = backend.apiUrl;
});

afterAll(async () => {
  await backend?.close();
  frontend?.closeAllConnections();
  await new Promise<void>((resolve) => frontend?.close(() => resolve()));
});

beforeEach(async () => {
  await admin("POST", "/reset");
  await admin("PUT", "/settings", { frontendUrl, revalidationSecret: SECRET, webhookTimeoutMs: 1000 });
  received.length = 0;
  frontendDelayMs = 0;
});

// ---------------------------------------------------------------------------------------------
// Helpers

async function getJson(path: string): Promise<{ status: number; body: unknown; headers: Headers }> {
  const res = await fetch(`${api}${path}`);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : null };
}

async function read<T>(path: string, schema: z.ZodType<T>): Promise<T> {
  const { status, body } = await getJson(path);
  expect(status, path).toBe(200);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error(`${path} breaks the contract: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** The union of the admin API's answers; each test reads the fields of the route it called. */
interface AdminBody {
  ok?: boolean;
  error?: string;
  webhook?: WebhookResult;
  is_active?: boolean;
  submissions?: ContactSubmissionRecord[];
  requests?: Record<string, number>;
  codes?: string[];
  removed?: number;
  deliveries?: WebhookDelivery[];
}

async function admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: AdminBody }> {
  const res = await fetch(`${backend.url}/admin${path}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as AdminBody };
}

function postContact(code: string, body: unknown): Promise<Response> {
  return fetch(`${api}/sites/${code}/contact/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** Raw HTTP GET, because fetch() normalises "../" out of URLs before sending them. */
function rawGet(path: string): Promise<number> {
  const { hostname, port } = new URL(backend.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method: "GET" }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

function collectMedia(value: unknown, out: Media[] = []): Media[] {
  if (Array.isArray(value)) value.forEach((v) => collectMedia(v, out));
  else if (value !== null && typeof value === "object") {
    if (mediaSchema.safeParse(value).success) out.push(value as Media);
    else Object.values(value).forEach((v) => collectMedia(v, out));
  }
  return out;
}

const ACTIVE = ["dupont", "martin", "bernard", "petit"] as const;
const validContact = {
  name: "Jeanne Martin",
  email: "jeanne.martin@example.org",
  phone: "+33 6 12 34 56 78",
  message: "Bonjour, je souhaite un rendez-vous pour un détartrage.",
  consent: true,
  website: "",
  elapsed_ms: 5321,
  page: "/contact/",
};

// ---------------------------------------------------------------------------------------------

describe("read endpoints", () => {
  it.each(ACTIVE)("%s serves every endpoint in the contract's shapes", async (code) => {
    const config = await read(`/sites/${code}/config/`, configSchema);
    expect(config.code).toBe(code);
    await read(`/sites/${code}/practice/`, practiceSchema);
    const team = await read(`/sites/${code}/team/`, teamSchema);
    expect(team.members.length).toBeGreaterThanOrEqual(3);
    expect(team.members.some((m) => m.booking_url !== null)).toBe(true);
    expect(team.members.some((m) => m.photo !== null)).toBe(true);
    const jobs = await read(`/sites/${code}/jobs/`, jobsSchema);
    expect(jobs.jobs.length).toBeGreaterThanOrEqual(1);

    const { pages } = await read(`/sites/${code}/pages/`, pagesSchema);
    const slugs = pages.map((p) => p.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    const home = pages.find((p) => p.slug === "home");
    expect(home).toMatchObject({ path: "/", kind: "home", level: 0, parent: null });
    for (const slug of [
      "contact",
      "mentions-legales",
      "politique-confidentialite",
      "philosophie",
      "technologies",
      "tarifs",
      "acces",
      "equipe",
      "recrutement",
    ]) {
      expect(slugs, slug).toContain(slug);
    }
    expect(new Set(pages.map((p) => p.kind))).toEqual(new Set(PAGE_KINDS));

    // Hubs are the enabled services; each has at least two details under its path.
    const hubs = pages.filter((p) => p.kind === "service_hub");
    expect(hubs.map((h) => h.slug)).toEqual(config.enabled_services);
    expect(hubs.length).toBeGreaterThanOrEqual(2);
    for (const hub of hubs) {
      expect(hub).toMatchObject({ level: 1, parent: null, path: `/${hub.slug}/` });
      const details = pages.filter((p) => p.parent === hub.slug);
      expect(details.length).toBeGreaterThanOrEqual(2);
      for (const d of details)
        expect(d).toMatchObject({ kind: "service_detail", level: 2, path: `/${hub.slug}/${d.slug}/` });
    }
    expect(pages.filter((p) => p.kind === "need").length).toBeGreaterThanOrEqual(2);
    for (const p of pages.filter((p) => p.level === 1)) expect(p.path).toBe(`/${p.slug}/`);

    // Every listed page is served, and its known blocks have the contract's value shapes.
    const blockTypes = new Set<string>();
    for (const summary of pages) {
      const page = (await read(`/sites/${code}/pages/${summary.slug}/`, pageSchema)) as unknown as Page;
      expect({
        ...page,
        service: undefined,
        seo: undefined,
        blocks: undefined,
        related_services: undefined,
      }).toMatchObject(summary);
      if (page.kind === "service_hub" || page.kind === "service_detail") expect(page.service).not.toBeNull();
      if (page.kind === "need") {
        expect(page.related_services.length).toBeGreaterThan(0);
        for (const s of page.related_services) expect(config.enabled_services).toContain(s);
      }
      expect(page.blocks.length).toBeGreaterThan(0);
      for (const b of page.blocks) {
        blockTypes.add(b.type);
        if (!isKnownBlockType(b.type)) continue;
        expect(blockValueSchemas[b.type].safeParse(b.value).success, `${code}/${page.slug} ${b.type}`).toBe(true);
      }
    }
    for (const t of KNOWN_BLOCK_TYPES) expect(blockTypes, t).toContain(t);
  });

  it("covers the four logo formats across the active practices and uses distinct themes", async () => {
    const configs = await Promise.all(ACTIVE.map((c) => read(`/sites/${c}/config/`, configSchema)));
    expect(new Set(configs.map((c) => c.logo.mime_type))).toEqual(
      new Set(["image/svg+xml", "image/png", "image/jpeg", "image/webp"]),
    );
    expect(new Set(configs.map((c) => c.theme.primary_hue)).size).toBe(ACTIVE.length);
    expect(new Set(configs.map((c) => c.name)).size).toBe(ACTIVE.length);
  });

  it("shares page slugs across practices and includes a block of an unknown type", async () => {
    for (const code of ["dupont", "martin", "petit"]) {
      const page = await read(`/sites/${code}/pages/implant-unitaire/`, pageSchema);
      expect(page.path).toBe("/implantologie/implant-unitaire/");
    }
    const tech = await read("/sites/dupont/pages/technologies/", pageSchema);
    expect(tech.blocks.map((b) => b.type)).toContain("carousel");
    expect(tech.blocks.filter((b) => !isKnownBlockType(b.type)).map((b) => b.type)).toEqual(["carousel"]);
  });

  it("derives the navigation from published pages, at most two levels deep", async () => {
    const { items } = await read("/sites/dupont/nav/", z.object({ items: z.array(navItemSchema) }));
    expect(items.map((i) => i.label)).toEqual(["Le Cabinet", "Nos Soins", "Votre Besoin", "Recrutement", "Contact"]);
    expect(items.slice(0, 3).every((i) => i.href === null)).toBe(true);
    const { pages } = await read("/sites/dupont/pages/", pagesSchema);
    const paths = new Set(pages.map((p) => p.path));
    const walk = (list: NavItem[], depth: number): void => {
      for (const item of list) {
        if (item.href !== null) expect(paths, item.href).toContain(item.href);
        if (item.children.length > 0) expect(depth).toBeLessThan(2);
        walk(item.children, depth + 1);
      }
    };
    walk(items, 0);
    const soins = items.find((i) => i.label === "Nos Soins");
    expect(soins?.children.map((c) => c.href)).toEqual(["/implantologie/", "/orthodontie/"]);
    expect(soins?.children[0]?.children.map((c) => c.href)).toContain("/implantologie/implant-unitaire/");
  });

  it("hides drafts: 404 and absent from the list and the navigation", async () => {
    for (const [code, slug] of [
      ["dupont", "all-on-4"],
      ["martin", "actualites"],
      ["bernard", "urgence-dentaire"],
      ["petit", "facettes"],
    ]) {
      expect((await getJson(`/sites/${code}/pages/${slug}/`)).status, `${code}/${slug}`).toBe(404);
      const { pages } = await read(`/sites/${code}/pages/`, pagesSchema);
      expect(pages.map((p) => p.slug)).not.toContain(slug);
    }
    const nav = JSON.stringify((await getJson("/sites/dupont/nav/")).body);
    expect(nav).not.toContain("all-on-4");
  });

  it("answers 404 on every endpoint for inactive and unknown practices, and for unknown slugs", async () => {
    for (const code of ["leroy", "nobody"]) {
      for (const path of ["config/", "practice/", "team/", "nav/", "pages/", "pages/home/", "jobs/"]) {
        expect((await getJson(`/sites/${code}/${path}`)).status, `${code}/${path}`).toBe(404);
      }
      expect((await postContact(code, validContact)).status).toBe(404);
    }
    expect((await getJson("/sites/dupont/pages/no-such-page/")).status).toBe(404);
    // Paths are exactly as written in the contract, trailing slash included.
    expect((await getJson("/sites/dupont/config")).status).toBe(404);
  });
});

describe("media", () => {
  it("serves every media file named in the payloads with the announced type and size", async () => {
    const all: Media[] = [];
    for (const code of ACTIVE) {
      all.push(...collectMedia((await getJson(`/sites/${code}/config/`)).body));
      all.push(...collectMedia((await getJson(`/sites/${code}/team/`)).body));
      const { pages } = await read(`/sites/${code}/pages/`, pagesSchema);
      for (const p of pages) all.push(...collectMedia((await getJson(`/sites/${code}/pages/${p.slug}/`)).body));
    }
    const files = new Map<string, { mime: string; width: number; height?: number }>();
    for (const m of all) {
      files.set(m.url, { mime: m.mime_type, width: m.width, height: m.height });
      for (const v of m.srcset) files.set(v.url, { mime: m.mime_type, width: v.width });
    }
    expect(files.size).toBeGreaterThan(30);
    expect([...files.keys()].every((u) => u.startsWith(`${backend.url}/media/`))).toBe(true);
    for (const [url, expected] of files) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get("content-type"), url).toBe(expected.mime);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(Number(res.headers.get("content-length")), url).toBe(bytes.length);
      expect(bytes.length, url).toBeLessThan(64 * 1024);
      if (expected.mime !== "image/svg+xml") {
        const meta = await sharp(bytes).metadata();
        expect(meta.width, url).toBe(expected.width);
        if (expected.height !== undefined) expect(meta.height, url).toBe(expected.height);
      }
    }
  });

  it("uses the configured public origin in media URLs", async () => {
    await admin("PUT", "/settings", { publicOrigin: "https://cms.example.org/" });
    const { body } = await getJson("/sites/dupont/config/");
    expect((body as { logo: Media }).logo.url).toBe("https://cms.example.org/media/dupont/logo.svg");
    await admin("PUT", "/settings", { publicOrigin: backend.url });
  });

  it("answers 404 for unknown files and refuses traversal", async () => {
    expect((await fetch(`${backend.url}/media/dupont/nothing.webp`)).status).toBe(404);
    expect((await fetch(`${backend.url}/media/dupont/`)).status).toBe(404);
    expect(await rawGet("/media/../app.ts")).toBe(404);
    expect(await rawGet("/media/dupont/../../app.ts")).toBe(404);
    expect(await rawGet("/media/%2e%2e/app.ts")).toBe(404);
    expect(await rawGet("/media/..%2f..%2fpackage.json")).toBe(404);
    expect(await rawGet("/media/%2e%2e%5capp.ts")).toBe(404);
    const head = await fetch(`${backend.url}/media/martin/logo.png`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("image/png");
  });
});

describe("contact", () => {
  it("accepts a valid submission and records it", async () => {
    const res = await postContact("dupont", validContact);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ status: "received" });
    const { body } = await admin("GET", "/contact-submissions?code=dupont");
    expect(body.submissions).toHaveLength(1);
    expect(body.submissions?.[0]).toMatchObject({ code: "dupont", dropped: false, reason: null, body: validContact });
  });

  it("accepts a null or missing phone", async () => {
    expect((await postContact("martin", { ...validContact, phone: null })).status).toBe(201);
    const { phone: _phone, ...withoutPhone } = validContact;
    expect((await postContact("martin", withoutPhone)).status).toBe(201);
  });

  it("answers 400 with field errors for invalid fields", async () => {
    const res = await postContact("dupont", { ...validContact, email: "not-an-email", consent: false, name: "" });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: Record<string, string[]> };
    expect(Object.keys(body.errors).sort()).toEqual(["consent", "email", "name"]);
    for (const messages of Object.values(body.errors)) expect(messages[0]).toEqual(expect.any(String));

    const missing = await postContact("dupont", {});
    expect(missing.status).toBe(400);
    const missingBody = (await missing.json()) as { errors: Record<string, string[]> };
    expect(Object.keys(missingBody.errors)).toEqual(
      expect.arrayContaining(["name", "email", "message", "consent", "elapsed_ms"]),
    );

    const notJson = await fetch(`${api}/sites/dupont/contact/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{oops",
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toHaveProperty("errors");

    const { body: subs } = await admin("GET", "/contact-submissions");
    expect(subs.submissions).toHaveLength(0);
  });

  it("drops honeypot and too-fast submissions silently, with the same 201", async () => {
    const honeypot = await postContact("bernard", { ...validContact, website: "http://spam.example" });
    expect(honeypot.status).toBe(201);
    expect(await honeypot.json()).toEqual({ status: "received" });
    const tooFast = await postContact("bernard", { ...validContact, elapsed_ms: 800 });
    expect(tooFast.status).toBe(201);
    expect(await tooFast.json()).toEqual({ status: "received" });
    const { body } = await admin("GET", "/contact-submissions?code=bernard");
    expect(body.submissions?.map((s) => [s.dropped, s.reason])).toEqual([
      [true, "honeypot"],
      [true, "too_fast"],
    ]);
  });
});

describe("admin API and webhook", () => {
  it("PATCH page updates it and delivers the webhook before answering", async () => {
    const before = await read("/sites/dupont/pages/implant-unitaire/", pageSchema);
    const blocks = [{ type: "rich_text", value: { html: "<p>Nouveau texte.</p>" } }];
    const res = await admin("PATCH", "/sites/dupont/pages/implant-unitaire", {
      title: "Implant unitaire (mis à jour)",
      blocks,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ok: true,
      webhook: { sent: true, status: 200, tags: ["page:implant-unitaire", "site:dupont:page:implant-unitaire"] },
    });
    // The webhook has been received by the time the admin call returns.
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      path: "/webhooks/revalidate/",
      body: { tags: ["page:implant-unitaire", "site:dupont:page:implant-unitaire"] },
    });
    expect(received[0]?.headers["x-revalidate-secret"]).toBe(SECRET);
    expect(received[0]?.headers["content-type"]).toContain("application/json");

    const after = await read("/sites/dupont/pages/implant-unitaire/", pageSchema);
    expect(after.title).toBe("Implant unitaire (mis à jour)");
    expect(after.blocks).toEqual([
      { type: "rich_text", id: expect.any(String), value: { html: "<p>Nouveau texte.</p>" } },
    ]);
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    // The same slug at another practice is untouched.
    expect((await read("/sites/martin/pages/implant-unitaire/", pageSchema)).title).toBe(before.title);
  });

  it("publish and unpublish change the list and the navigation, with the site tag", async () => {
    const pub = await admin("POST", "/sites/dupont/pages/all-on-4/publish");
    expect(pub.body.webhook?.tags).toEqual(["page:all-on-4", "site:dupont:page:all-on-4", "site:dupont"]);
    expect((await getJson("/sites/dupont/pages/all-on-4/")).status).toBe(200);
    expect(JSON.stringify((await getJson("/sites/dupont/nav/")).body)).toContain("/implantologie/all-on-4/");

    const unpub = await admin("POST", "/sites/dupont/pages/implant-unitaire/unpublish");
    expect(unpub.body.webhook?.status).toBe(200);
    expect((await getJson("/sites/dupont/pages/implant-unitaire/")).status).toBe(404);
    const { pages } = await read("/sites/dupont/pages/", pagesSchema);
    expect(pages.map((p) => p.slug)).not.toContain("implant-unitaire");
    expect(received.map((r) => r.body)).toEqual([{ tags: pub.body.webhook?.tags }, { tags: unpub.body.webhook?.tags }]);
  });

  it("toggles is_active with the site tag", async () => {
    const on = await admin("POST", "/sites/leroy/active", { is_active: true });
    expect(on.body).toMatchObject({ ok: true, is_active: true, webhook: { status: 200, tags: ["site:leroy"] } });
    const config = await read("/sites/leroy/config/", configSchema);
    expect(config.logo.mime_type).toBe("image/webp");
    await read("/sites/leroy/pages/", pagesSchema);

    await admin("POST", "/sites/dupont/active", { is_active: false });
    expect((await getJson("/sites/dupont/config/")).status).toBe(404);
    expect((await getJson("/sites/dupont/pages/home/")).status).toBe(404);
    expect((await admin("POST", "/sites/dupont/active", { is_active: "yes" })).status).toBe(400);
  });

  it("PATCH config merges a partial config and sends the site tag", async () => {
    const res = await admin("PATCH", "/sites/martin/config", { theme: { primary_hue: 10 }, name: "Centre Martin" });
    expect(res.body.webhook).toMatchObject({ status: 200, tags: ["site:martin"] });
    const config = await read("/sites/martin/config/", configSchema);
    expect(config.theme).toMatchObject({ primary_hue: 10, primary_chroma: 0.1, accent_hue: 45 });
    expect(config.name).toBe("Centre Martin");
    expect((await admin("PATCH", "/sites/martin/config", { theme: { primary_hue: "red" } })).status).toBe(400);
    expect((await admin("PATCH", "/sites/nobody/config", { name: "x" })).status).toBe(404);
  });

  it("reports webhook rejection, unreachable frontend, timeout and no target", async () => {
    // The log holds the reset's own delivery (beforeEach) and the four below.
    const logged = (await admin("GET", "/webhooks")).body.deliveries?.length ?? 0;
    await admin("PUT", "/settings", { revalidationSecret: "wrong" });
    const rejected = await admin("PATCH", "/sites/dupont/pages/tarifs", { title: "Tarifs 2027" });
    expect(rejected.body.webhook).toMatchObject({ sent: true, status: 401 });

    await admin("PUT", "/settings", { frontendUrl: "http://127.0.0.1:9", revalidationSecret: SECRET });
    const unreachable = await admin("PATCH", "/sites/dupont/pages/tarifs", { title: "Tarifs" });
    expect(unreachable.body.webhook).toMatchObject({
      sent: true,
      status: null,
      error: expect.stringContaining("fetch failed"),
    });

    await admin("PUT", "/settings", { frontendUrl, webhookTimeoutMs: 200 });
    frontendDelayMs = 1000;
    const slow = await admin("PATCH", "/sites/dupont/pages/tarifs", { title: "Tarifs" });
    expect(slow.body.webhook).toMatchObject({ status: null, error: "timeout after 200 ms" });

    await admin("PUT", "/settings", { frontendUrl: null });
    const none = await admin("PATCH", "/sites/dupont/pages/tarifs", { title: "Tarifs" });
    expect(none.body.webhook).toEqual({ sent: false, status: null, tags: ["page:tarifs", "site:dupont:page:tarifs"] });

    const log = await admin("GET", "/webhooks");
    expect(log.body.deliveries).toHaveLength(logged + 4);
  });

  it("counts API and media requests; reset clears the counts", async () => {
    await admin("POST", "/stats/reset");
    await getJson("/sites/dupont/config/");
    await getJson("/sites/dupont/config/");
    await getJson("/sites/leroy/config/");
    await fetch(`${backend.url}/media/dupont/logo.svg`);
    const { body } = await admin("GET", "/stats");
    expect(body.requests).toEqual({
      "GET /api/v1/websites/sites/dupont/config/": 2,
      "GET /api/v1/websites/sites/leroy/config/": 1,
      "GET /media/dupont/logo.svg": 1,
    });
    await admin("POST", "/stats/reset");
    expect((await admin("GET", "/stats")).body.requests).toEqual({});
  });

  it("injects faults: error500, slow, malformed, throttle; none clears", async () => {
    await admin("POST", "/faults", { mode: "error500", match: "/sites/dupont/" });
    expect((await getJson("/sites/dupont/config/")).status).toBe(500);
    expect((await getJson("/sites/martin/config/")).status).toBe(200);

    await admin("POST", "/faults", { mode: "slow", delayMs: 300 });
    const started = Date.now();
    expect((await getJson("/sites/martin/config/")).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);

    await admin("POST", "/faults", { mode: "malformed", match: "/nav/" });
    expect(await getJson("/sites/dupont/nav/")).toMatchObject({ status: 200, body: { code: 42 } });
    expect(configSchema.safeParse((await getJson("/sites/dupont/config/")).body).success).toBe(true);

    await admin("POST", "/faults", { mode: "throttle" });
    expect((await postContact("dupont", validContact)).status).toBe(429);

    await admin("POST", "/faults", { mode: "none" });
    expect((await getJson("/sites/dupont/nav/")).status).toBe(200);
    expect((await admin("POST", "/faults", { mode: "explode" })).status).toBe(400);
    expect((await admin("POST", "/faults", { mode: "error500", rate: 1.5 })).status).toBe(400);
  });

  it("fails only a share of the calls with a fault rate", async () => {
    await admin("POST", "/faults", { mode: "error500", match: "/sites/martin/", rate: 0.25 });
    const statuses = await Promise.all(Array.from({ length: 200 }, async () => (await getJson("/sites/martin/config/")).status));
    const failed = statuses.filter((s) => s === 500).length;
    expect(statuses.filter((s) => s !== 500 && s !== 200)).toEqual([]);
    // 50 expected; the bounds are beyond six standard deviations of a binomial(200, 0.25).
    expect(failed).toBeGreaterThan(15);
    expect(failed).toBeLessThan(85);
    await admin("POST", "/faults", { mode: "none" });
  });

  it("reset restores fixtures and clears faults, submissions and synthetic practices", async () => {
    await admin("PATCH", "/sites/dupont/pages/home", { title: "Changed" });
    await admin("POST", "/sites/leroy/active", { is_active: true });
    await admin("POST", "/faults", { mode: "error500", match: "/sites/bernard/" });
    await postContact("petit", validContact);
    await admin("POST", "/synthetic", { practices: 2, pages: 3 });

    received.length = 0;
    expect((await admin("POST", "/reset")).status).toBe(200);
    // The frontend hears of every practice the reset touched, the synthetic ones it removed included.
    const tags = received.flatMap((r) => (r.body as { tags: string[] }).tags);
    for (const code of ["dupont", "martin", "bernard", "petit", "leroy", "synth-0001", "synth-0002"]) expect(tags).toContain(`site:${code}`);
    expect((await read("/sites/dupont/pages/home/", pageSchema)).title).toBe("Accueil");
    expect((await getJson("/sites/leroy/config/")).status).toBe(404);
    expect((await getJson("/sites/bernard/config/")).status).toBe(200);
    expect((await admin("GET", "/contact-submissions")).body.submissions).toEqual([]);
    expect((await getJson("/sites/synth-0001/config/")).status).toBe(404);
  });

  it("creates and removes deterministic synthetic practices", async () => {
    const res = await admin("POST", "/synthetic", { practices: 3, pages: 12 });
    expect(res.body.codes).toEqual(["synth-0001", "synth-0002", "synth-0003"]);
    for (const code of res.body.codes ?? []) {
      await read(`/sites/${code}/config/`, configSchema);
      const { pages } = await read(`/sites/${code}/pages/`, pagesSchema);
      expect(pages).toHaveLength(12);
      expect(pages[0]).toMatchObject({ slug: "home", path: "/" });
      for (const p of pages.slice(0, 6)) await read(`/sites/${code}/pages/${p.slug}/`, pageSchema);
      await read(`/sites/${code}/nav/`, z.object({ items: z.array(navItemSchema) }));
    }
    const again = await admin("POST", "/synthetic", { practices: 3, pages: 12 });
    expect(again.body.codes).toEqual(res.body.codes);
    expect((await getJson("/sites/synth-0002/pages/")).body).toEqual((await getJson("/sites/synth-0003/pages/")).body);

    expect((await admin("DELETE", "/synthetic")).body).toEqual({ ok: true, removed: 3 });
    expect((await getJson("/sites/synth-0001/config/")).status).toBe(404);
    expect((await getJson("/sites/dupont/config/")).status).toBe(200);
    expect((await admin("POST", "/synthetic", { practices: 0, pages: 1 })).status).toBe(400);
  });
});
