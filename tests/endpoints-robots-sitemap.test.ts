/**
 * Robots.txt and sitemap.xml in both environments (ENVIRONMENT=dev: not indexable; prod:
 * indexable), on the real server with the demo backend.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SECRET, startFrontend, type Frontend } from "./support/frontend";
import { http } from "./support/http";
import { backendJson, startBackend, type DemoBackend } from "./support/demo-backend";

let backend: DemoBackend;
let dev: Frontend;
let prod: Frontend;

beforeAll(async () => {
  backend = await startBackend();
  [dev, prod] = await Promise.all([
    startFrontend({ backendUrl: backend.url }),
    startFrontend({ backendUrl: backend.url, env: { ENVIRONMENT: "prod" } }),
  ]);
  // Content changes below reach the prod frontend's cache through the revalidation webhook.
  await backendJson(backend, "/admin/settings", {
    method: "PUT",
    body: JSON.stringify({ frontendUrl: prod.url, revalidationSecret: DEFAULT_SECRET }),
  });
});

afterAll(async () => {
  await Promise.all([dev?.stop(), prod?.stop()]);
  await backend?.close();
});

interface PageSummary {
  slug: string;
  path: string;
  kind: string;
  updated_at: string;
}

const api = <T>(path: string) => backendJson<T>(backend, `/api/v1/websites${path}`);

describe("not indexable (ENVIRONMENT=dev)", () => {
  it("robots.txt disallows everything, with the noindex header", async () => {
    const res = await http(dev.url, `dupont.dev.localhost:${dev.port}`, "/robots.txt");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain/);
    expect(res.body).toBe("User-agent: *\nDisallow: /\n");
    expect(res.headers["x-robots-tag"]).toBe("noindex");
  });

  it("the same on a registered domain", async () => {
    const res = await http(dev.url, "www.cabinet-dupont.fr", "/robots.txt");
    expect(res.body).toBe("User-agent: *\nDisallow: /\n");
  });

  it("sitemap.xml is served, with the noindex header, listing the preview host's own URLs", async () => {
    const res = await http(dev.url, `dupont.dev.localhost:${dev.port}`, "/sitemap.xml");
    expect(res.status).toBe(200);
    expect(res.headers["x-robots-tag"]).toBe("noindex");
    expect(res.body).toContain(`<loc>http://dupont.dev.localhost:${dev.port}/</loc>`);
    expect(res.body).not.toContain("www.cabinet-dupont.fr");
  });
});

describe("indexable (ENVIRONMENT=prod)", () => {
  it("robots.txt allows crawling and names the sitemap on the primary domain", async () => {
    const res = await http(prod.url, "www.cabinet-dupont.fr", "/robots.txt");
    expect(res.status).toBe(200);
    expect(res.body).toBe("User-agent: *\nAllow: /\nDisallow: /api/contact\n\nSitemap: https://www.cabinet-dupont.fr/sitemap.xml\n");
    expect(res.headers["x-robots-tag"]).toBeUndefined();
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
  });

  it("robots.txt names the primary domain whatever host asked (an alias)", async () => {
    const res = await http(prod.url, "cabinet-dupont.fr", "/robots.txt");
    expect(res.body).toContain("Sitemap: https://www.cabinet-dupont.fr/sitemap.xml");
  });

  it("a preview-only practice (no primary domain) names the requested origin", async () => {
    const res = await http(prod.url, "petit.prod.localhost", "/robots.txt");
    expect(res.body).toContain("Sitemap: http://petit.prod.localhost/sitemap.xml");
  });

  it("robots.txt of the inactive practice is a 404", async () => {
    expect((await http(prod.url, "www.cabinet-leroy.fr", "/robots.txt")).status).toBe(404);
  });

  it.each(["dupont", "martin", "bernard"])(
    "%s: the sitemap lists every published page, member page and job page with lastmod",
    async (code) => {
      const config = await api<{ domain: { primary_domain: string } }>(`/sites/${code}/config/`);
      const { pages } = await api<{ pages: PageSummary[] }>(`/sites/${code}/pages/`);
      const { members } = await api<{ members: { slug: string }[] }>(`/sites/${code}/team/`);
      const { jobs } = await api<{ jobs: { slug: string; published_at: string }[] }>(`/sites/${code}/jobs/`);
      const origin = `https://${config.domain.primary_domain}`;
      const team = pages.find((p) => p.kind === "team")!;
      const jobsPage = pages.find((p) => p.kind === "jobs")!;
      const expected = [
        ...pages.map((p) => [`${origin}${p.path}`, p.updated_at]),
        ...members.map((m) => [`${origin}${team.path}${m.slug}/`, team.updated_at]),
        ...jobs.map((j) => [`${origin}${jobsPage.path}${j.slug}/`, j.published_at]),
      ];
      expect(members.length + jobs.length).toBeGreaterThan(0);

      const res = await http(prod.url, config.domain.primary_domain, "/sitemap.xml");
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe("application/xml; charset=utf-8");
      expect(res.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')).toBe(true);
      const listed = [...res.body.matchAll(/<url><loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod><\/url>/g)].map((m) => [m[1], m[2]]);
      expect(listed.sort()).toEqual(expected.sort());
    },
  );

  it("leaves out a draft and shows it once published", async () => {
    const draft = "all-on-4";
    const before = await http(prod.url, "www.cabinet-dupont.fr", "/sitemap.xml");
    expect(before.body).not.toContain(`/${draft}/`);
    await backendJson(backend, `/admin/sites/dupont/pages/${draft}/publish`, { method: "POST" });
    try {
      const after = await http(prod.url, "www.cabinet-dupont.fr", "/sitemap.xml");
      expect(after.body).toContain(`/${draft}/</loc>`);
    } finally {
      await backendJson(backend, "/admin/reset", { method: "POST" });
    }
  });

  it("the pages carry no analytics script (none given at build) and no error-tracking listener (no DSN)", async () => {
    const res = await http(prod.url, "www.cabinet-dupont.fr", "/");
    expect(res.status).toBe(200);
    expect(res.body).not.toContain("data-website-id");
    expect(res.body).not.toContain("data-error-tracking");
  });
});
