/**
 * The admin API (/admin/...): what an editor would do in the real backend, plus test controls.
 *
 * Every content change sends the revalidation webhook and answers only once the frontend has answered
 * (or the 5 s timeout has passed), with the outcome in `webhook`, so a test can edit, then read the page.
 */
import { randomUUID } from "node:crypto";
import express, { type Request, type Response, type Router } from "express";
import { z } from "zod";
import type { Block } from "./payload-types.js";
import type { PageRecord, SiteRecord, WebhookResult } from "./model.js";
import { toSummary } from "./serialize.js";
import { SYNTHETIC_LIMITS, type DemoState } from "./state.js";
import { sendRevalidation } from "./webhook.js";
import { MAX_TAGS as WEBHOOK_MAX_TAGS } from "../../../src/server/backend/tags.js";

// --- Request bodies. Shapes are checked, not contract ranges: tests may push odd values on purpose
// --- (a hue of 999, a block of an unknown type) to exercise the frontend's defences.

const mediaSchema = z.object({
  url: z.string(),
  width: z.number(),
  height: z.number(),
  alt: z.string(),
  mime_type: z.enum(["image/webp", "image/png", "image/jpeg", "image/svg+xml"]),
  srcset: z.array(z.object({ url: z.string(), width: z.number() })),
});

const blockSchema = z.object({ type: z.string().min(1), id: z.string().min(1).optional(), value: z.unknown() });

const pagePatchSchema = z.strictObject({
  title: z.string().min(1).optional(),
  blocks: z.array(blockSchema).optional(),
  seo: z
    .strictObject({
      title: z.string().nullable().optional(),
      description: z.string().optional(),
      og_image: mediaSchema.nullable().optional(),
    })
    .optional(),
});

const configPatchSchema = z.strictObject({
  name: z.string().min(1).optional(),
  theme: z
    .strictObject({
      primary_hue: z.number().optional(),
      primary_chroma: z.number().optional(),
      accent_hue: z.number().optional(),
      accent_chroma: z.number().optional(),
    })
    .optional(),
  seo: z
    .strictObject({
      site_title: z.string().optional(),
      default_description: z.string().optional(),
      default_og_image: mediaSchema.nullable().optional(),
    })
    .optional(),
  domain: z
    .strictObject({ primary_domain: z.string().nullable().optional(), aliases: z.array(z.string()).optional() })
    .optional(),
  logo: mediaSchema.nullable().optional(),
  favicon: mediaSchema.nullable().optional(),
  analytics_website_id: z.string().nullable().optional(),
  enabled_services: z.array(z.string()).optional(),
});

const activeSchema = z.strictObject({ is_active: z.boolean() });

const faultSchema = z.strictObject({
  mode: z.enum(["none", "error500", "slow", "malformed", "throttle"]),
  delayMs: z.number().int().min(0).max(600_000).optional(),
  match: z.string().min(1).optional(),
  rate: z.number().min(0).max(1).optional(),
});

const syntheticSchema = z.strictObject({
  practices: z.number().int().min(1).max(SYNTHETIC_LIMITS.practices),
  pages: z.number().int().min(1).max(SYNTHETIC_LIMITS.pages),
});

const settingsSchema = z.strictObject({
  frontendUrl: z.url().nullable().optional(),
  revalidationSecret: z.string().nullable().optional(),
  publicOrigin: z.url().optional(),
  webhookTimeoutMs: z.number().int().min(1).max(60_000).optional(),
});

const DEFAULT_SLOW_MS = 10_000;

// ---------------------------------------------------------------------------------------------

function parse<T>(schema: z.ZodType<T>, req: Request, res: Response): T | undefined {
  const result = schema.safeParse(req.body ?? {});
  if (result.success) return result.data;
  res.status(400).json({ error: "invalid body", issues: z.flattenError(result.error) });
  return undefined;
}

/** ISO timestamp strictly after `previous`, so every edit visibly moves updated_at even within one ms. */
function bumpedTimestamp(previous: string): string {
  const now = Date.now();
  const prev = Date.parse(previous);
  return new Date(Number.isNaN(prev) || now > prev ? now : prev + 1).toISOString();
}

const withoutUndefined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

export function adminRouter(state: DemoState): Router {
  const router = express.Router();
  router.use(express.json({ limit: "20mb" }));

  const findSite = (req: Request<{ code: string }>, res: Response): SiteRecord | undefined => {
    const site = state.sites.get(req.params.code); // inactive practices too: the admin sees everything
    if (!site) res.status(404).json({ error: `unknown practice ${req.params.code}` });
    return site;
  };

  const findPage = (
    req: Request<{ code: string; slug: string }>,
    res: Response,
  ): [SiteRecord, PageRecord] | undefined => {
    const site = findSite(req, res);
    if (!site) return undefined;
    const page = site.pages.find((p) => p.slug === req.params.slug);
    if (!page) {
      res.status(404).json({ error: `unknown page ${req.params.slug} at ${req.params.code}` });
      return undefined;
    }
    return [site, page];
  };

  const pageTags = (code: string, slug: string): string[] => [`page:${slug}`, `site:${code}:page:${slug}`];

  router.patch("/sites/:code/pages/:slug", async (req: Request<{ code: string; slug: string }>, res) => {
    const found = findPage(req, res);
    const patch = found && parse(pagePatchSchema, req, res);
    if (!found || !patch) return;
    const [site, page] = found;
    if (patch.title !== undefined) page.title = patch.title;
    if (patch.blocks !== undefined) {
      page.blocks = patch.blocks.map((b): Block => ({ type: b.type, id: b.id ?? randomUUID(), value: b.value }));
    }
    if (patch.seo !== undefined) page.seo = { ...page.seo, ...withoutUndefined(patch.seo) };
    page.updated_at = bumpedTimestamp(page.updated_at);
    const webhook = await sendRevalidation(state, pageTags(site.config.code, page.slug));
    res.json({ ok: true, page: { ...toSummary(page), status: page.status }, webhook });
  });

  for (const action of ["publish", "unpublish"] as const) {
    router.post(`/sites/:code/pages/:slug/${action}`, async (req: Request<{ code: string; slug: string }>, res) => {
      const found = findPage(req, res);
      if (!found) return;
      const [site, page] = found;
      page.status = action === "publish" ? "published" : "draft";
      page.updated_at = bumpedTimestamp(page.updated_at);
      // The pages list, the navigation and the sitemap depend on which pages are published: site-wide tag too.
      const tags = [...pageTags(site.config.code, page.slug), `site:${site.config.code}`];
      const webhook = await sendRevalidation(state, tags);
      res.json({ ok: true, page: { ...toSummary(page), status: page.status }, webhook });
    });
  }

  router.post("/sites/:code/active", async (req: Request<{ code: string }>, res) => {
    const site = findSite(req, res);
    const body = site && parse(activeSchema, req, res);
    if (!site || !body) return;
    site.config.is_active = body.is_active;
    site.config.updated_at = bumpedTimestamp(site.config.updated_at);
    const webhook = await sendRevalidation(state, [`site:${site.config.code}`]);
    res.json({ ok: true, code: site.config.code, is_active: site.config.is_active, webhook });
  });

  router.patch("/sites/:code/config", async (req: Request<{ code: string }>, res) => {
    const site = findSite(req, res);
    const patch = site && parse(configPatchSchema, req, res);
    if (!site || !patch) return;
    const c = site.config;
    const { theme, seo, domain, ...flat } = patch;
    Object.assign(c, withoutUndefined(flat));
    if (theme) c.theme = { ...c.theme, ...withoutUndefined(theme) };
    if (seo) c.seo = { ...c.seo, ...withoutUndefined(seo) };
    if (domain) c.domain = { ...c.domain, ...withoutUndefined(domain) };
    if (patch.name !== undefined) site.practice.name = patch.name;
    c.updated_at = bumpedTimestamp(c.updated_at);
    const webhook = await sendRevalidation(state, [`site:${c.code}`]);
    res.json({ ok: true, config: c, webhook });
  });

  router.get("/contact-submissions", (req, res) => {
    const code = typeof req.query.code === "string" ? req.query.code : null;
    res.json({ submissions: code ? state.submissions.filter((s) => s.code === code) : state.submissions });
  });

  router.get("/stats", (_req, res) => {
    res.json({ requests: Object.fromEntries(state.requests) });
  });

  router.post("/stats/reset", (_req, res) => {
    state.requests.clear();
    res.json({ ok: true });
  });

  router.get("/faults", (_req, res) => {
    res.json({ fault: state.fault ?? { mode: "none" } });
  });

  router.post("/faults", (req, res) => {
    const body = parse(faultSchema, req, res);
    if (!body) return;
    state.fault =
      body.mode === "none"
        ? null
        : { mode: body.mode, delayMs: body.delayMs ?? DEFAULT_SLOW_MS, match: body.match ?? null, rate: body.rate ?? 1 };
    res.json({ ok: true, fault: state.fault ?? { mode: "none" } });
  });

  router.post("/reset", async (_req, res) => {
    // Every practice known before or after the reset may have changed: the frontend hears of each, as it
    // would of an edit (a reset without a webhook left the frontend serving the edited pages until the TTL).
    const codes = new Set(state.sites.keys());
    state.reset();
    for (const code of state.sites.keys()) codes.add(code);
    const tags = [...codes].map((code) => `site:${code}`);
    const webhooks: WebhookResult[] = [];
    for (let i = 0; i < tags.length; i += WEBHOOK_MAX_TAGS) webhooks.push(await sendRevalidation(state, tags.slice(i, i + WEBHOOK_MAX_TAGS)));
    res.json({ ok: true, webhooks });
  });

  router.post("/synthetic", (req, res) => {
    const body = parse(syntheticSchema, req, res);
    if (!body) return;
    if (body.practices * body.pages > SYNTHETIC_LIMITS.total) {
      res.status(400).json({ error: `at most ${SYNTHETIC_LIMITS.total} synthetic pages in total` });
      return;
    }
    res.json({ codes: state.createSynthetic(body.practices, body.pages) });
  });

  router.delete("/synthetic", (_req, res) => {
    res.json({ ok: true, removed: state.removeSynthetic() });
  });

  router.get("/webhooks", (_req, res) => {
    res.json({ deliveries: state.webhooks });
  });

  router.get("/settings", (_req, res) => {
    const { revalidationSecret, ...visible } = state.settings;
    res.json({ ...visible, revalidationSecretSet: revalidationSecret !== null });
  });

  /** Lets a test point the webhook at a frontend it started after the backend (both on port 0). */
  router.put("/settings", (req, res) => {
    const body = parse(settingsSchema, req, res);
    if (!body) return;
    Object.assign(state.settings, withoutUndefined(body));
    state.settings.publicOrigin = state.settings.publicOrigin.replace(/\/+$/, "");
    const { revalidationSecret, ...visible } = state.settings;
    res.json({ ok: true, ...visible, revalidationSecretSet: revalidationSecret !== null });
  });

  router.use((_req, res) => {
    res.status(404).json({ error: "unknown admin route" });
  });
  return router;
}
