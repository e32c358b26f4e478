/**
 * Step 5, verify: after cutover (or before, with --connect), every old URL of crawl.json is requested
 * on the new site: a mapped URL answers exactly one 301 to its mapped page, which answers 200 (no
 * chain, no loop); a skipped page answers 404; an old URL the new site serves itself answers 200. Then
 * /sitemap.xml must list every page reached, no page may carry a noindex meta or X-Robots-Tag, and
 * robots.txt must allow crawling them and name the sitemap. A table on the terminal, a JSON report
 * (verify-report.json beside the map, or --report FILE); exit status 1 when any check fails.
 */
import { join } from "node:path";
import robotsParser from "robots-parser";
import { answerRequest, parseRedirects } from "../../src/server/redirects/map";
import { call, header, target, type Answer } from "../operator/request";
import { connectOption, urlArgument, type Parsed, type StepSpec } from "./args";
import { readAssessment } from "./assess";
import { ASSESSMENT_FILE, migrationDir, practiceCode, readCrawl, VERIFY_REPORT_FILE, writeFileAtomic, writeJson } from "./files";
import type { StepIo } from "./io";
import { pathOf, readPage, readSitemap } from "./page";
import { readMap } from "./redirect-map";
import { formatTable } from "./table";

export const verifySpec: StepSpec = {
  name: "verify",
  positionals: ["code", "site-url"],
  options: ["connect", "report", "dir"],
  usage: `verify <code> <site-url> [--connect HOST:PORT] [--report FILE] [--dir DIR]
  Requests every old URL of crawl.json on the new site and checks the redirects (one 301 to the mapped
  page, which answers 200), the skipped pages (404), /sitemap.xml, noindex and robots.txt. Prints a
  table, writes a JSON report, exits 1 when a check fails.
  --connect H:P   send the requests to H:P with the site's Host (as curl --connect-to), before DNS moves
  --report FILE   where the JSON report goes (default <dir>/<code>/${VERIFY_REPORT_FILE})
  --dir DIR       the migrations directory (default $MIGRATIONS_DIR, else migrations)`,
};

export interface Check {
  check: string;
  subject: string;
  ok: boolean;
  detail: string;
}

const MAX_HOPS = 5;

export async function runVerify(parsed: Parsed, io: StepIo): Promise<number> {
  const code = practiceCode(parsed.positional.code);
  const site = urlArgument(parsed.positional["site-url"], "the site URL");
  const connect = connectOption(parsed);
  const dir = migrationDir(code, parsed.options.dir);
  const entries = readCrawl(dir);
  const map = readMap(dir);
  const verdicts = readAssessment(join(dir, ASSESSMENT_FILE));
  const table = new Map([[code, parseRedirects(map, "redirects.json").map]]);
  const { base, host } = target(site, connect);
  const get = (path: string) => call(base, host, path, { headers: { accept: "text/html" } });
  const checks: Check[] = [];
  const add = (check: string, subject: string, ok: boolean, detail: string) => checks.push({ check, subject, ok, detail });
  /** A Location as a path on the site, or null when it leaves the site's host. */
  const onSite = (location: string) => {
    const url = new URL(location, site);
    return url.host === site.host ? `${url.pathname}${url.search}` : null;
  };

  // The pages reached (200), with their answer, for the sitemap and noindex checks.
  const pages = new Map<string, Answer>();
  const fetchPage = async (path: string) => {
    if (!pages.has(path)) pages.set(path, await get(path));
    return pages.get(path)!;
  };

  /** An old URL with a query answered by the new site's page at its path (`/?cat=3`: `/`), else null. */
  const servedPageOf = (path: string) => {
    const q = path.indexOf("?");
    return q === -1 ? null : path.slice(0, q);
  };
  /** Where the site's own redirects from `path` lead (on the site, MAX_HOPS at most). */
  const followOnSite = async (path: string, first: Answer) => {
    const hops = [path];
    let answer = first;
    for (let i = 0; i < MAX_HOPS && answer.status >= 300 && answer.status < 400; i++) {
      const next = onSite(header(answer, "location"));
      if (next === null || hops.includes(next)) break;
      hops.push(next);
      answer = await get(next);
    }
    return { final: answer, hops };
  };

  for (const path of [...new Set(entries.map((e) => pathOf(e.url)))]) {
    const mapped = answerRequest(table, code, path);
    const expected = mapped?.status === 301 ? mapped.location : null;
    // Skipped in the assessment, or dropped by the map (a null entry, an old CMS query URL it does not know).
    const skip = mapped?.status === 404 || (verdicts.size ? verdicts.get(path)?.verdict === "skip" : !entries.some((e) => pathOf(e.url) === path && e.status === 200));
    let answer: Answer;
    try {
      answer = await get(path);
    } catch (error) {
      add("old URL", path, false, `request failed: ${(error as Error).message}`);
      continue;
    }
    const location = header(answer, "location");
    if (expected) {
      if (answer.status !== 301) {
        add("redirect", path, false, `expected 301 to ${expected}, got ${answer.status}${location ? ` to ${location}` : ""}`);
        continue;
      }
      const to = onSite(location);
      if (to !== expected) {
        add("redirect", path, false, `301 to ${location}, expected ${expected}`);
        continue;
      }
      add("redirect", path, true, `301 to ${to}`);
      // The target must be the page itself: no second hop, no loop.
      const hops = [path, to];
      let current = to;
      let final: Answer | null = null;
      for (let i = 0; i < MAX_HOPS; i++) {
        const a = await fetchPage(current);
        const next = a.status >= 300 && a.status < 400 ? onSite(header(a, "location")) : null;
        if (next === null) {
          final = a;
          break;
        }
        if (hops.includes(next)) {
          hops.push(next);
          break;
        }
        hops.push(next);
        current = next;
      }
      if (final && hops.length === 2) add("target answers 200", to, final.status === 200, `status ${final.status} (the target of ${path})`);
      else add("no chain or loop", path, false, hops.join(" -> ") + (final ? ` (then ${final.status})` : " (loop)"));
    } else if (skip) {
      // The site's own spelling redirect first is no failure (`/wp-login.php` -> `/wp-login.php/`, then 404).
      const { final, hops } = await followOnSite(path, answer);
      const via = hops.length > 1 ? ` after ${hops.slice(1).join(" -> ")}` : "";
      const page = servedPageOf(path);
      if (final.status === 200 && page && hops.length === 1) {
        // `/?cat=3`: the page `/` answers whatever its query says; nothing to redirect, nothing lost.
        add("skipped page answers 404", path, true, `status 200: the page ${page} itself (the query is ignored)`);
      } else {
        add("skipped page answers 404", path, final.status === 404 || final.status === 410, `status ${final.status}${via}`);
      }
    } else {
      // Not in the map: the new site serves this URL itself (its own page), under its path without the query,
      // or reaches it in one 301 of its own (`/contact` -> `/contact/`).
      const page = servedPageOf(path) ?? path;
      if (answer.status === 200) {
        pages.set(page, answer);
        add("served by the new site", path, true, page === path ? "status 200" : `status 200: the page ${page} (the query is ignored)`);
        continue;
      }
      const to = answer.status === 301 ? onSite(location) : null;
      const reached = to === null ? null : await fetchPage(to);
      const ok = reached?.status === 200;
      const detail = ok ? `301 to ${to}, which answers 200` : `status ${answer.status}${location ? ` to ${location}` : ""}${reached ? ` (then ${reached.status})` : ""}: neither redirected nor skipped`;
      add("served by the new site", path, ok, detail);
    }
  }

  // Only the pages that answered 200 matter from here on, each once under its path (a page reached with a
  // query, `/?x=1`, is the page `/` in the sitemap).
  const live = [...new Map([...pages].filter(([, a]) => a.status === 200).map(([p, a]) => [p.split("?")[0], a]))];

  const sitemap = await get("/sitemap.xml").catch((error: Error) => error);
  if (sitemap instanceof Error || sitemap.status !== 200) {
    add("sitemap", "/sitemap.xml", false, sitemap instanceof Error ? sitemap.message : `status ${sitemap.status}`);
  } else {
    const listed = new Set(
      readSitemap(sitemap.text)
        .locs.map((loc) => new URL(loc, site))
        .filter((u) => u.host === site.host)
        .map((u) => `${u.pathname}${u.search}`),
    );
    add("sitemap", "/sitemap.xml", listed.size > 0, `${listed.size} URLs on ${site.host}`);
    for (const [path] of live) add("listed in the sitemap", path, listed.has(path), listed.has(path) ? "listed" : "missing from /sitemap.xml");
  }

  for (const [path, answer] of live) {
    const robotsHeader = header(answer, "x-robots-tag");
    const meta = readPage(answer.text, new URL(path, site).href).noindex;
    const ok = !/noindex/i.test(robotsHeader) && !meta;
    add("indexable", path, ok, ok ? "no noindex" : [robotsHeader && `X-Robots-Tag: ${robotsHeader}`, meta && "meta robots noindex"].filter(Boolean).join(", "));
  }

  const robotsAnswer = await get("/robots.txt").catch((error: Error) => error);
  if (robotsAnswer instanceof Error || robotsAnswer.status !== 200) {
    add("robots.txt", "/robots.txt", false, robotsAnswer instanceof Error ? robotsAnswer.message : `status ${robotsAnswer.status}`);
  } else {
    const robotsUrl = new URL("/robots.txt", site).href;
    const robots = robotsParser(robotsUrl, robotsAnswer.text);
    const blocked = ["/", ...live.map(([p]) => p)].filter((p) => robots.isAllowed(new URL(p, site).href, "Googlebot") === false);
    add("robots.txt allows crawling", "/robots.txt", blocked.length === 0, blocked.length ? `disallows ${blocked.join(", ")}` : `${live.length + 1} pages allowed`);
    const sitemaps = robots.getSitemaps();
    const named = sitemaps.some((s) => {
      const u = new URL(s, site);
      return u.host === site.host && u.pathname === "/sitemap.xml";
    });
    add("robots.txt names the sitemap", "/robots.txt", named, sitemaps.length ? sitemaps.join(", ") : "no Sitemap line");
  }

  const failed = checks.filter((c) => !c.ok);
  io.log(formatTable(["result", "check", "URL", "detail"], checks.map((c) => [c.ok ? "ok" : "FAIL", c.check, c.subject, c.detail])));
  const report = parsed.options.report ?? join(dir, VERIFY_REPORT_FILE);
  writeJson(report, { code, site: site.origin, connect: connect ?? null, passed: checks.length - failed.length, failed: failed.length, checks });
  const markdown = report.replace(/(\.json)?$/, ".md");
  writeFileAtomic(markdown, renderVerifyReport(code, site.origin, checks));
  io.log(`verify: ${checks.length - failed.length} passed, ${failed.length} failed; report written to ${report} and ${markdown}`);
  return failed.length ? 1 : 0;
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();

/** The report for people (the JSON is for tools): the failures first, then every check. */
export function renderVerifyReport(code: string, origin: string, checks: Check[]): string {
  const failed = checks.filter((c) => !c.ok);
  const row = (c: Check) => `| ${c.ok ? "ok" : "**FAIL**"} | ${cell(c.check)} | \`${cell(c.subject)}\` | ${cell(c.detail)} |`;
  return [
    `# ${code}: verification of ${origin}`,
    "",
    `Written by \`npm run migrate -- verify ${code}\`: **${checks.length - failed.length} passed, ${failed.length} failed**.`,
    "",
    "## Failures",
    "",
    ...(failed.length ? ["| result | check | URL | detail |", "|---|---|---|---|", ...failed.map(row)] : ["None."]),
    "",
    "## Every check",
    "",
    "| result | check | URL | detail |",
    "|---|---|---|---|",
    ...checks.map(row),
    "",
  ].join("\n");
}
