/**
 * Whether a path is no page of its practice, decided from the practice's page list before anything
 * renders (docs/decisions/0020-cached-404.md): the same resolution the page route uses (resolvePage), run in
 * a render worker against its read cache, so an unknown path costs a few map lookups, not a render.
 *
 * Only paths the catch-all page route ([...path]) would answer are checked: with a trailing slash, or a
 * page-shaped path without it (Qwik City would redirect it to the slashed path: judged on that path, an unknown
 * one answers the practice's 404 at once, not a 301 to a 404), no query, a page of the routes' allow-list
 * (tenancy/routes.ts). Anything unclear (a backend failure, an inactive practice) answers null and the path is
 * rendered as before.
 */
import type { BackendClient } from "../backend";
import { judgedPagePath, type PathIndex, type PathLookups, type PathTarget } from "./path-index";
import { resolvePage } from "./page-view";
import { readSiteShell } from "./shell";
import { routeOf } from "../tenancy/routes";

export async function unknownPageTags(backend: BackendClient, target: PathTarget): Promise<string[] | null> {
  if (target.url.includes("?") || target.url === "/") return null;
  const url = target.url.endsWith("/") ? target.url : judgedPagePath(target.url);
  if (url === null) return null;
  // The path as the router sees it (dot segments resolved), not as sent.
  const path = new URL(url, target.origin).pathname;
  if (routeOf("GET", path) !== "page" || path.endsWith("/q-data.json")) return null;
  const ctx = { code: target.code, tags: new Set<string>() };
  try {
    const shell = await readSiteShell(backend, ctx);
    const resolution = await resolvePage(backend, ctx, shell, path);
    return resolution.type === "not_found" ? [...ctx.tags] : null;
  } catch {
    return null;
  }
}

/**
 * The practice's path index for its cached 404 page (./path-index.ts): every page's path, and every slug
 * the page route resolves a last segment by (pages', and team members' and jobs' when the practice has a
 * team or jobs page, as resolvePage reads them), with the tags of those reads. Null when a read fails: the
 * 404 page is then stored without one and every unknown path takes the long way.
 */
export async function readPathIndex(backend: BackendClient, code: string): Promise<{ index: PathIndex; tags: string[] } | null> {
  const ctx = { code, tags: new Set<string>() };
  try {
    const { pages } = await backend.pages(ctx, code);
    const [team, jobs] = await Promise.all([
      pages.some((p) => p.kind === "team") ? backend.team(ctx, code) : null,
      pages.some((p) => p.kind === "jobs") ? backend.jobs(ctx, code) : null,
    ]);
    const slugs = [
      ...pages.map((p) => p.slug),
      ...(team?.members.map((m) => m.slug) ?? []),
      ...(jobs?.jobs.map((j) => j.slug) ?? []),
    ];
    return { index: { pagePaths: new Set(pages.map((p) => p.path)), slugs: new Set(slugs) }, tags: [...ctx.tags] };
  } catch {
    return null;
  }
}

/** What the cache's renders ask of a practice's paths (render-pool/target.ts), from this backend client. */
export function pathLookups(backend: BackendClient): PathLookups {
  return {
    unknownPage: (target) => unknownPageTags(backend, target),
    pathIndex: (code) => readPathIndex(backend, code),
  };
}
