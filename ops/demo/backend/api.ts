/**
 * The public read API and the contact endpoint, mounted at /api/v1/websites (content-backend-api.md).
 *
 * Routing is strict: paths match exactly as the contract writes them, trailing slash included, so a
 * frontend that drops the slash finds out here rather than against the real backend.
 */
import express, { type Request, type Response, type Router } from "express";
import { contactHandler } from "./contact.js";
import type { JobsResponse, NavItem, PagesResponse, Practice, TeamResponse } from "./payload-types.js";
import type { SiteRecord } from "./model.js";
import { buildNav, publishedPages, toConfig, toPage, toSummary, withAbsoluteMedia } from "./serialize.js";
import type { DemoState } from "./state.js";

export const API_BASE = "/api/v1/websites";

export function notFound(res: Response): void {
  res.status(404).json({ detail: "Not found." });
}

export function apiRouter(state: DemoState): Router {
  const router = express.Router({ strict: true });
  const origin = (): string => state.settings.publicOrigin;

  /** Registers a GET for an active practice; unknown and inactive practices answer 404 alike. */
  const read = <P extends Record<string, string>>(
    path: string,
    render: (site: SiteRecord, params: P) => object | undefined,
  ): void => {
    router.get(path, (req: Request<P>, res: Response) => {
      const site = state.activeSite(req.params.code ?? "");
      const body = site ? render(site, req.params) : undefined;
      if (body === undefined) notFound(res);
      else res.json(body);
    });
  };

  read("/sites/:code/config/", (site) => toConfig(site, origin()));

  read("/sites/:code/practice/", (site): Practice => site.practice);

  read("/sites/:code/team/", (site): TeamResponse => withAbsoluteMedia({ members: site.team }, origin()));

  read("/sites/:code/nav/", (site): { items: NavItem[] } => ({ items: buildNav(site) }));

  read("/sites/:code/pages/", (site): PagesResponse => ({ pages: publishedPages(site).map(toSummary) }));

  read<{ code: string; slug: string }>("/sites/:code/pages/:slug/", (site, { slug }) => {
    const page = site.pages.find((p) => p.slug === slug && p.status === "published");
    return page ? toPage(page, origin()) : undefined; // drafts are as invisible as unknown slugs
  });

  read("/sites/:code/jobs/", (site): JobsResponse => ({ jobs: site.jobs }));

  router.post("/sites/:code/contact/", express.json({ limit: "100kb" }), contactHandler(state));

  router.use((_req, res) => notFound(res));
  return router;
}
