/**
 * Issue 20: how right the toolkit's redirects are on two old sites unlike each other, each with a ground
 * truth of which old URL must reach which new page and which must be dropped: the Cabinet Dupont's
 * static `.html` site (old-site.ts) and the Dr Martin's WordPress site with plain permalinks, a blog and
 * documents (wordpress-site.ts). Crawl, assess and redirects run in process as an operator runs them,
 * with no hand edits; the figures are printed. Done when recall >= 90% and precision >= 95% on both. Every
 * ground-truth URL counts, crawled or not (measureAccuracy): a URL the crawl never found is still asked for.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../ops/migrate/cli";
import { call } from "../ops/operator/request";
import { readNotFoundFiles } from "../src/server/migration-watch/not-found-watch";
import type { CrawlEntry } from "../ops/migrate/files";
import { startOldSite } from "../ops/migrate/fixtures/old-site";
import { startWordPressSite, WORDPRESS_HOST, WORDPRESS_TRUTH } from "../ops/migrate/fixtures/wordpress-site";
import { JOOMLA_HOST, JOOMLA_SPELLINGS, JOOMLA_TRUTH, JOOMLA_UNKNOWN_QUERIES, startJoomlaSite } from "../ops/migrate/fixtures/joomla-site";
import { DRUPAL_HOST, DRUPAL_SPELLINGS, DRUPAL_TRUTH, DRUPAL_UNKNOWN_QUERIES, startDrupalSite } from "../ops/migrate/fixtures/drupal-site";
import { startWixSite, WIX_HOST, WIX_SPELLINGS, WIX_TRUTH, WIX_UNKNOWN_QUERIES } from "../ops/migrate/fixtures/wix-site";
import { SQUARESPACE_HOST, SQUARESPACE_SPELLINGS, SQUARESPACE_TRUTH, SQUARESPACE_UNKNOWN_QUERIES, startSquarespaceSite } from "../ops/migrate/fixtures/squarespace-site";
import { STATIC_HOST, STATIC_SPELLINGS, STATIC_TRUTH, STATIC_UNKNOWN_QUERIES, startStaticSite } from "../ops/migrate/fixtures/static-site";
import { startWordPressPrettySite, WPPRETTY_HOST, WPPRETTY_SPELLINGS, WPPRETTY_TRUTH, WPPRETTY_UNKNOWN_QUERIES } from "../ops/migrate/fixtures/wordpress-pretty-site";
import { JIMDO_HOST, JIMDO_SPELLINGS, JIMDO_TRUTH, JIMDO_UNKNOWN_QUERIES, startJimdoSite } from "../ops/migrate/fixtures/jimdo-site";
import { startTypo3Site, TYPO3_HOST, TYPO3_SPELLINGS, TYPO3_TRUTH, TYPO3_UNKNOWN_QUERIES } from "../ops/migrate/fixtures/typo3-site";
import { EMONSITE_HOST, EMONSITE_SPELLINGS, EMONSITE_TRUTH, EMONSITE_UNKNOWN_QUERIES, startEmonsiteSite } from "../ops/migrate/fixtures/emonsite-site";
import { WEBFLOW_HOST, WEBFLOW_SPELLINGS, WEBFLOW_TRUTH, WEBFLOW_UNKNOWN_QUERIES, startWebflowSite } from "../ops/migrate/fixtures/webflow-site";
import { SPIP_HOST, SPIP_SPELLINGS, SPIP_TRUTH, SPIP_UNKNOWN_QUERIES, startSpipSite } from "../ops/migrate/fixtures/spip-site";
import { startWeeblySite, WEEBLY_HOST, WEEBLY_SPELLINGS, WEEBLY_TRUTH, WEEBLY_UNKNOWN_QUERIES } from "../ops/migrate/fixtures/weebly-site";
import { BLOGGER_HOST, BLOGGER_SPELLINGS, BLOGGER_TRUTH, BLOGGER_UNKNOWN_QUERIES, startBloggerSite } from "../ops/migrate/fixtures/blogger-site";
import { GHOST_HOST, GHOST_SPELLINGS, GHOST_TRUTH, GHOST_UNKNOWN_QUERIES, startGhostSite } from "../ops/migrate/fixtures/ghost-site";
import { HUGO_HOST, HUGO_SPELLINGS, HUGO_TRUTH, HUGO_UNKNOWN_QUERIES, startHugoSite } from "../ops/migrate/fixtures/hugo-site";
import { IONOS_HOST, IONOS_SPELLINGS, IONOS_TRUTH, IONOS_UNKNOWN_QUERIES, startIonosSite } from "../ops/migrate/fixtures/ionos-site";
import { startWebselfSite, WEBSELF_HOST, WEBSELF_SPELLINGS, WEBSELF_TRUTH, WEBSELF_UNKNOWN_QUERIES } from "../ops/migrate/fixtures/webself-site";
import { CONCRETE_HOST, CONCRETE_SPELLINGS, CONCRETE_TRUTH, CONCRETE_UNKNOWN_QUERIES, startConcreteSite } from "../ops/migrate/fixtures/concrete-site";
import { DUDA_HOST, DUDA_SPELLINGS, DUDA_TRUTH, DUDA_UNKNOWN_QUERIES, startDudaSite } from "../ops/migrate/fixtures/duda-site";
import { DOTCLEAR_HOST, DOTCLEAR_SPELLINGS, DOTCLEAR_TRUTH, DOTCLEAR_UNKNOWN_QUERIES, startDotclearSite } from "../ops/migrate/fixtures/dotclear-site";
import { PLUXML_HOST, PLUXML_SPELLINGS, PLUXML_TRUTH, PLUXML_UNKNOWN_QUERIES, startPluxmlSite } from "../ops/migrate/fixtures/pluxml-site";
import { ODOO_HOST, ODOO_SPELLINGS, ODOO_TRUTH, ODOO_UNKNOWN_QUERIES, startOdooSite } from "../ops/migrate/fixtures/odoo-site";
import { POLYLANG_HOST, POLYLANG_SPELLINGS, POLYLANG_TRUTH, POLYLANG_UNKNOWN_QUERIES, startPolylangSite } from "../ops/migrate/fixtures/polylang-site";
import { startWebnodeSite, WEBNODE_HOST, WEBNODE_SPELLINGS, WEBNODE_TRUTH, WEBNODE_UNKNOWN_QUERIES } from "../ops/migrate/fixtures/webnode-site";
import { MODX_HOST, MODX_SPELLINGS, MODX_TRUTH, MODX_UNKNOWN_QUERIES, startModxSite } from "../ops/migrate/fixtures/modx-site";
import { GRAV_HOST, GRAV_SPELLINGS, GRAV_TRUTH, GRAV_UNKNOWN_QUERIES, startGravSite } from "../ops/migrate/fixtures/grav-site";
import { KIRBY_HOST, KIRBY_SPELLINGS, KIRBY_TRUTH, KIRBY_UNKNOWN_QUERIES, startKirbySite } from "../ops/migrate/fixtures/kirby-site";
import { GOOGLESITES_HOST, GOOGLESITES_SPELLINGS, GOOGLESITES_TRUTH, GOOGLESITES_UNKNOWN_QUERIES, startGoogleSitesSite } from "../ops/migrate/fixtures/googlesites-site";
import { startWpmlSite, WPML_HOST, WPML_SPELLINGS, WPML_TRUTH, WPML_UNKNOWN_QUERIES } from "../ops/migrate/fixtures/wpml-site";
import { SOLOCAL_HOST, SOLOCAL_SPELLINGS, SOLOCAL_TRUTH, SOLOCAL_UNKNOWN_QUERIES, startSolocalSite } from "../ops/migrate/fixtures/solocal-site";
import { SIMPLEBO_HOST, SIMPLEBO_SPELLINGS, SIMPLEBO_TRUTH, SIMPLEBO_UNKNOWN_QUERIES, startSimpleboSite } from "../ops/migrate/fixtures/simplebo-site";
import { JOOMLA4_HOST, JOOMLA4_SPELLINGS, JOOMLA4_TRUTH, JOOMLA4_UNKNOWN_QUERIES, startJoomla4Site } from "../ops/migrate/fixtures/joomla4-site";
import { SITEW_HOST, SITEW_SPELLINGS, SITEW_TRUTH, SITEW_UNKNOWN_QUERIES, startSitewSite } from "../ops/migrate/fixtures/sitew-site";
import { SITE123_HOST, SITE123_SPELLINGS, SITE123_TRUTH, SITE123_UNKNOWN_QUERIES, startSite123Site } from "../ops/migrate/fixtures/site123-site";
import { DRUPAL10_HOST, DRUPAL10_SPELLINGS, DRUPAL10_TRUTH, DRUPAL10_UNKNOWN_QUERIES, startDrupal10Site } from "../ops/migrate/fixtures/drupal10-site";
import { JEKYLL_HOST, JEKYLL_SPELLINGS, JEKYLL_TRUTH, JEKYLL_UNKNOWN_QUERIES, startJekyllSite } from "../ops/migrate/fixtures/jekyll-site";
import { startWebadorSite, WEBADOR_HOST, WEBADOR_SPELLINGS, WEBADOR_TRUTH, WEBADOR_UNKNOWN_QUERIES } from "../ops/migrate/fixtures/webador-site";
import { CRAFT_HOST, CRAFT_SPELLINGS, CRAFT_TRUTH, CRAFT_UNKNOWN_QUERIES, startCraftSite } from "../ops/migrate/fixtures/craft-site";
import { DNN_HOST, DNN_SPELLINGS, DNN_TRUTH, DNN_UNKNOWN_QUERIES, startDnnSite } from "../ops/migrate/fixtures/dnn-site";
import { GODADDY_HOST, GODADDY_SPELLINGS, GODADDY_TRUTH, GODADDY_UNKNOWN_QUERIES, startGodaddySite } from "../ops/migrate/fixtures/godaddy-site";
import { startUmbracoSite, UMBRACO_HOST, UMBRACO_SPELLINGS, UMBRACO_TRUTH, UMBRACO_UNKNOWN_QUERIES } from "../ops/migrate/fixtures/umbraco-site";
import { PHPSITE_HOST, PHPSITE_SPELLINGS, PHPSITE_TRUTH, PHPSITE_UNKNOWN_QUERIES, startPhpsiteSite } from "../ops/migrate/fixtures/phpsite-site";
import { CONTAO_HOST, CONTAO_SPELLINGS, CONTAO_TRUTH, CONTAO_UNKNOWN_QUERIES, startContaoSite } from "../ops/migrate/fixtures/contao-site";
import { EE_HOST, EE_SPELLINGS, EE_TRUTH, EE_UNKNOWN_QUERIES, startExpressionengineSite } from "../ops/migrate/fixtures/expressionengine-site";
import { PROCESSWIRE_HOST, PROCESSWIRE_SPELLINGS, PROCESSWIRE_TRUTH, PROCESSWIRE_UNKNOWN_QUERIES, startProcesswireSite } from "../ops/migrate/fixtures/processwire-site";
import { HOSTINGER_HOST, HOSTINGER_SPELLINGS, HOSTINGER_TRUTH, HOSTINGER_UNKNOWN_QUERIES, startHostingerSite } from "../ops/migrate/fixtures/hostinger-site";
import { SILVERSTRIPE_HOST, SILVERSTRIPE_SPELLINGS, SILVERSTRIPE_TRUTH, SILVERSTRIPE_UNKNOWN_QUERIES, startSilverstripeSite } from "../ops/migrate/fixtures/silverstripe-site";
import { TILDA_HOST, TILDA_SPELLINGS, TILDA_TRUTH, TILDA_UNKNOWN_QUERIES, startTildaSite } from "../ops/migrate/fixtures/tilda-site";
import { TEXTPATTERN_HOST, TEXTPATTERN_SPELLINGS, TEXTPATTERN_TRUTH, TEXTPATTERN_UNKNOWN_QUERIES, startTextpatternSite } from "../ops/migrate/fixtures/textpattern-site";
import { FRAMER_HOST, FRAMER_SPELLINGS, FRAMER_TRUTH, FRAMER_UNKNOWN_QUERIES, startFramerSite } from "../ops/migrate/fixtures/framer-site";
import { DOCVADIS_HOST, DOCVADIS_SPELLINGS, DOCVADIS_TRUTH, DOCVADIS_UNKNOWN_QUERIES, startDocvadisSite } from "../ops/migrate/fixtures/docvadis-site";
import { OVERBLOG_HOST, OVERBLOG_SPELLINGS, OVERBLOG_TRUTH, OVERBLOG_UNKNOWN_QUERIES, startOverblogSite } from "../ops/migrate/fixtures/overblog-site";
import { DIVI_HOST, DIVI_SPELLINGS, DIVI_TRUTH, DIVI_UNKNOWN_QUERIES, startDiviSite } from "../ops/migrate/fixtures/divi-site";
import { MOBIRISE_HOST, MOBIRISE_SPELLINGS, MOBIRISE_TRUTH, MOBIRISE_UNKNOWN_QUERIES, startMobiriseSite } from "../ops/migrate/fixtures/mobirise-site";
import { NOTION_HOST, NOTION_SPELLINGS, NOTION_TRUTH, NOTION_UNKNOWN_QUERIES, startNotionSite } from "../ops/migrate/fixtures/notion-site";
import { STRIKINGLY_HOST, STRIKINGLY_SPELLINGS, STRIKINGLY_TRUTH, STRIKINGLY_UNKNOWN_QUERIES, startStrikinglySite } from "../ops/migrate/fixtures/strikingly-site";
import { JOOMLA15_HOST, JOOMLA15_SPELLINGS, JOOMLA15_TRUTH, JOOMLA15_UNKNOWN_QUERIES, startJoomla15Site } from "../ops/migrate/fixtures/joomla15-site";
import { DUPONT_TRUTH, formatAccuracy, measureAccuracy, type GroundTruth } from "../ops/migrate/fixtures/accuracy";
import { answerRequest, normaliseRedirectPath, parseRedirects } from "../src/server/redirects/map";
import { judgedPagePath } from "../src/server/site/path-index";
import { newSitePaths } from "../ops/migrate/fixtures/hosted-site-checks";
import { startBackend, type DemoBackend } from "./support/demo-backend";
import { startFrontend, type Frontend } from "./support/frontend";
import { until } from "./support/until";
import { migrate, migrateInProcess } from "./support/migrate";
import type { ReviewData } from "../ops/migrate/redirect-map";

let backend: DemoBackend;
let root: string;

beforeAll(async () => {
  backend = await startBackend();
  root = mkdtempSync(join(tmpdir(), "migrate-accuracy-"));
});

afterAll(async () => {
  await backend?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

async function step(args: string[], dir = root): Promise<string> {
  const { code, out } = await migrateInProcess([...args, "--dir", dir]);
  expect(code, out).toBe(0);
  if (process.env.MIGRATE_ACCURACY_VERBOSE) console.log(out);
  return out;
}

/** One old site: how to serve it, its ground truth, and (for the sites written blind) its other spellings and unknown CMS URLs. */
interface OldSiteCase {
  code: string;
  url: string;
  start: () => Promise<{ port: number; close: () => Promise<void> }>;
  truth: GroundTruth;
  /** Other spellings of mapped old URLs (reordered parameters, `&amp;`, aliases, case...), by the URL of the truth. */
  spellings?: Record<string, string[]>;
  /** Old CMS URLs the old site never had: each must answer 404, never the home page. */
  unknownQueries?: string[];
}

interface SiteFigures {
  accuracy: ReturnType<typeof measureAccuracy>;
  spellings: { right: number; total: number; wrong: string[]; ofRightBase: { right: number; total: number } };
  homeAnswers: string[];
  /** Unknown old URLs, and how many answer one 404: the map's, or the site's own for a page path it has no page at. */
  unknown: { total: number; oneNotFound: number };
}

async function draft(site: OldSiteCase, dir = root): Promise<SiteFigures> {
  const server = await site.start();
  try {
    await step(["crawl", site.code, site.url, "--connect", `127.0.0.1:${server.port}`], dir);
  } finally {
    await server.close();
  }
  await step(["assess", site.code], dir);
  await step(["redirects", site.code, "--backend", `${backend.url}/api/v1/websites`], dir);
  const codeDir = join(dir, site.code);
  const crawl = JSON.parse(readFileSync(join(codeDir, "crawl.json"), "utf8")) as CrawlEntry[];
  const map = JSON.parse(readFileSync(join(codeDir, "redirects.json"), "utf8")) as Record<string, string | null>;
  const paths = crawl.map((e) => {
    const u = new URL(e.url);
    return `${u.pathname}${u.search}`;
  });
  const accuracy = measureAccuracy(site.code, paths, map, site.truth);
  // Every other spelling of a mapped old URL must answer one 301 to that URL's target, as the server answers it.
  const table = new Map([[site.code, parseRedirects(map, "redirects.json").map]]);
  const spellings = { right: 0, total: 0, wrong: [] as string[], ofRightBase: { right: 0, total: 0 } };
  for (const [url, others] of Object.entries(site.spellings ?? {})) {
    const expected = site.truth[url];
    const accepted = expected === null || expected === undefined ? [] : [expected].flat();
    // The URL grammar's own promise: when the map sends the old URL itself right, every spelling follows it.
    const base = answerRequest(table, site.code, url);
    const baseRight = (base?.status === 301 && accepted.includes(base.location.split("?")[0])) || accepted.includes(url);
    for (const spelling of others) {
      spellings.total++;
      if (baseRight) spellings.ofRightBase.total++;
      const answer = answerRequest(table, site.code, spelling);
      const target = answer?.status === 301 ? answer.location.split("?")[0] : null;
      // A spelling of a page the new site serves itself (`/?fbclid=...`, `/mentions-legales/?utm_source=...`) is that page.
      const platform = table.get(site.code)!.platform;
      const itself = answer === null && accepted.some((a) => normaliseRedirectPath(a, platform) === normaliseRedirectPath(spelling, platform) && spelling.split("?")[0].endsWith("/"));
      if ((target !== null && accepted.includes(target)) || itself) {
        spellings.right++;
        if (baseRight) spellings.ofRightBase.right++;
      }
      else spellings.wrong.push(`${spelling} -> ${answer === null ? "no answer of the map" : answer.status === 301 ? `301 ${answer.location}` : "404"} (expected ${accepted.join(" or ") || "404"})`);
    }
  }
  // An old URL the old site never had must never answer the home page: neither the page at its path when that
  // path is `/` (`/?option=...`: the map did not answer), nor a 301 to `/`. Counted apart: those answered by one
  // 404, by the map or, for a page path the map leaves to the site (with or without its trailing slash), by the
  // practice's 404 page when the new site has no page there (site/path-index.ts, judgedPagePath).
  const homeAnswers: string[] = [];
  let oneNotFound = 0;
  const published = newSitePaths(site.code);
  for (const url of site.unknownQueries ?? []) {
    const answer = answerRequest(table, site.code, url);
    const pagePath = answer === null ? judgedPagePath(url) : null;
    if (answer?.status === 404 || (pagePath !== null && !published.has(pagePath))) oneNotFound++;
    else {
      // An unknown URL sent to the home page, or one the site's home path would answer (`/?option=...`), is a soft
      // 404; a spelling of the home page itself (`/index.html`, whose form is "/" on every platform) is the home page,
      // whatever the old server answered it.
      const form = normaliseRedirectPath(url, table.get(site.code)!.platform);
      const home = (answer?.status === 301 && answer.location.split("?")[0] === "/") || (answer === null && form?.split("?")[0] === "/");
      if (home && form !== "/") homeAnswers.push(url);
    }
  }
  const figures = { accuracy, spellings, homeAnswers, unknown: { total: site.unknownQueries?.length ?? 0, oneNotFound } };
  console.log(formatFigures(site.code, figures));
  return figures;
}

function formatFigures(code: string, f: SiteFigures): string {
  const pct = (right: number, total: number) => (total ? `${((right / total) * 100).toFixed(1)}%` : "-");
  return [
    formatAccuracy(code, f.accuracy),
    `${code}: spellings of mapped URLs answering one 301 to the target: ${f.spellings.right}/${f.spellings.total} (${pct(f.spellings.right, f.spellings.total)}; of URLs the map sends right: ${f.spellings.ofRightBase.right}/${f.spellings.ofRightBase.total}); unknown old URLs answering the home page: ${f.homeAnswers.length}, answering one 404: ${f.unknown.oneNotFound}/${f.unknown.total}`,
    ...f.spellings.wrong.map((w) => `  spelling: ${w}`),
    ...f.homeAnswers.map((u) => `  home page answers: ${u}`),
  ].join("\n");
}

/** The issue's targets, on every site: >= 95% of proposed redirects right, >= 90% of must-map URLs, >= 95% of spellings, 0 home answers. */
function expectTargets(code: string, f: SiteFigures) {
  const report = formatFigures(code, f);
  expect(f.accuracy.unknown, report).toEqual([]);
  expect(f.accuracy.precision, report).toBeGreaterThanOrEqual(0.95);
  expect(f.accuracy.recall, report).toBeGreaterThanOrEqual(0.9);
  if (f.spellings.total) expect(f.spellings.right / f.spellings.total, report).toBeGreaterThanOrEqual(0.95);
  expect(f.homeAnswers, report).toEqual([]);
}

const DUPONT: OldSiteCase = { code: "dupont", url: "http://www.cabinet-dupont.fr", start: () => startOldSite(), truth: DUPONT_TRUTH };
const MARTIN: OldSiteCase = { code: "martin", url: `http://${WORDPRESS_HOST}`, start: () => startWordPressSite(), truth: WORDPRESS_TRUTH, unknownQueries: ["/?p=999", "/?page_id=404&lang=fr", "/index.php?p=77"] };

describe("the redirects the toolkit drafts, against each fake old site's ground truth", () => {
  it("the Cabinet Dupont's static site: recall >= 90% of must-map URLs, precision >= 95%", async () => {
    expectTargets("dupont", await draft(DUPONT));
  }, 30_000);

  it("the Dr Martin's WordPress site (plain permalinks, blog, documents): recall >= 90%, precision >= 95%, no unknown ?p= answered by the home page", async () => {
    expectTargets("martin", await draft(MARTIN));
  }, 30_000);
});

/**
 * Nine old sites written blind (by helpers who never read ops/migrate/), each with its ground truth decided
 * before the toolkit ran on it, other spellings of its mapped URLs, and CMS URLs it never had. The first four
 * (Joomla 3 -> bernard, Drupal 7 -> petit, Wix -> dupont, Squarespace -> martin) were seen by the toolkit's
 * author after their first run; the next two (a hand-made static site -> bernard, WordPress with pretty
 * permalinks -> petit) were held out: written while the toolkit was frozen, measured once, then used by the
 * matching rules of branch mig31. The last (Jimdo -> martin) was written while those rules were made and measured
 * once after them: 95.1% precision, 97.5% recall, 92.7% of spellings; one rule followed (a document's query, a
 * cache buster, is not its identity: src/server/redirects/grammar.ts), then 100% of spellings. The eighth (TYPO3
 * -> dupont) was written while branch mig-general's rules were made, and measured before and after them; the
 * ninth (e-monsite -> bernard) while mig-general2's were (their entries say the figures). Each is drafted in a directory of its own (codes repeat).
 *
 * Hard on every site: no unknown old URL answered by the home page. Held as floors: a spelling of an old URL
 * the map sends right reaches the same target in one 301 (the URL grammar's promise: 97% and more on every
 * site since a WordPress page's `?page_id=N` is read from its body class). Crawled URLs a blind truth does not
 * name are printed (the writer could not know every URL the crawler would find) and left out of the counts.
 * The issue's targets (>= 95% proposed right, >= 90% must-map right, >= 95% of spellings) are not met on every
 * site yet (issue 29 stays open): the figures are printed, and each site holds a floor a little under what it
 * measured after the latest matching rule (first set on 2026-11-26 after branch mig31's rules, raised with each
 * rule of branch mig-general since) so that matching can only get better. Lowered once, on 2026-11-27, for
 * Drupal's and Squarespace's former members, when nine blind truths of eleven had dropped theirs (decision 0063);
 * and again on 2026-11-27 for Wix's and Squarespace's overviews of the treatments, which their truths send to the
 * home page while thirteen of the fifteen truths holding one drop it (a redirect to the home page is a soft 404).
 * Raised on 2026-11-28 after the rules of decision 0063's amendment of that date, for the thirteen sites they moved
 * (Ghost, Duda, Dotclear, MODX, Grav, WPML, Solocal, Joomla 4, SITE123, Webador, DotNetNuke, Umbraco, the hand-made PHP
 * site): nothing was lowered.
 */
interface BlindCase extends OldSiteCase {
  /** Precision, recall, share of spellings in one 301, as last measured (floors, a little under the figures). */
  floor: { precision: number; recall: number; spellings: number; ofRightBase: number };
}
const BLIND: BlindCase[] = [
  { code: "bernard", url: `http://${JOOMLA_HOST}`, start: () => startJoomlaSite(), truth: JOOMLA_TRUTH, spellings: JOOMLA_SPELLINGS, unknownQueries: JOOMLA_UNKNOWN_QUERIES, floor: { precision: 1.0, recall: 0.98, spellings: 0.98, ofRightBase: 1.0 } },
  { code: "petit", url: `http://${DRUPAL_HOST}`, start: () => startDrupalSite(), truth: DRUPAL_TRUTH, spellings: DRUPAL_SPELLINGS, unknownQueries: DRUPAL_UNKNOWN_QUERIES, floor: { precision: 1.0, recall: 0.96, spellings: 0.95, ofRightBase: 0.99 } },
  // (Its 2019 post of new hours dropped, the one truth of nineteen that drops an announcement of lasting hours.)
  { code: "dupont", url: `http://${WIX_HOST}`, start: () => startWixSite(), truth: WIX_TRUTH, spellings: WIX_SPELLINGS, unknownQueries: WIX_UNKNOWN_QUERIES, floor: { precision: 0.98, recall: 0.96, spellings: 0.96, ofRightBase: 1.0 } },
  { code: "martin", url: `http://${SQUARESPACE_HOST}`, start: () => startSquarespaceSite(), truth: SQUARESPACE_TRUTH, spellings: SQUARESPACE_SPELLINGS, unknownQueries: SQUARESPACE_UNKNOWN_QUERIES, floor: { precision: 1.0, recall: 0.91, spellings: 0.92, ofRightBase: 1.0 } },
  // (Its gallery's index to the page of the equipment, the one truth of seventeen that sends a gallery of the premises
  // anywhere: no redirect since the sixth batch, its photos' pages still go there.)
  { code: "bernard", url: `http://${STATIC_HOST}`, start: () => startStaticSite(), truth: STATIC_TRUTH, spellings: STATIC_SPELLINGS, unknownQueries: STATIC_UNKNOWN_QUERIES, floor: { precision: 0.97, recall: 0.97, spellings: 0.97, ofRightBase: 1.0 } },
  { code: "petit", url: `http://${WPPRETTY_HOST}`, start: () => startWordPressPrettySite(), truth: WPPRETTY_TRUTH, spellings: WPPRETTY_SPELLINGS, unknownQueries: WPPRETTY_UNKNOWN_QUERIES, floor: { precision: 0.92, recall: 1.0, spellings: 1.0, ofRightBase: 1.0 } },
  { code: "martin", url: `http://${JIMDO_HOST}`, start: () => startJimdoSite(), truth: JIMDO_TRUTH, spellings: JIMDO_SPELLINGS, unknownQueries: JIMDO_UNKNOWN_QUERIES, floor: { precision: 1.0, recall: 1.0, spellings: 1.0, ofRightBase: 1.0 } },
  // Written blind on 2026-11-26 (a TYPO3 10 site of dupont, ops/migrate/fixtures/typo3-site.ts). Measured once on the
  // toolkit as it stood (88.5/79.3/61.7: precision, recall, spellings), once after branch mig-general's matching
  // rules, written without it (90.6/82.8/61.7); then the TYPO3 grammar followed (89.5/87.9/83.0; of a right base 39/41).
  { code: "dupont", url: `http://${TYPO3_HOST}`, start: () => startTypo3Site(), truth: TYPO3_TRUTH, spellings: TYPO3_SPELLINGS, unknownQueries: TYPO3_UNKNOWN_QUERIES, floor: { precision: 0.98, recall: 0.98, spellings: 0.95, ofRightBase: 0.95 } },
  // Written blind on 2026-11-26 (an e-monsite site of bernard, ops/migrate/fixtures/emonsite-site.ts), while branch
  // mig-general2's rules were made without it. Measured once on the toolkit as it stood: 76.5/63.4/65.8 (every blog
  // post was taken for a listing: its chrome was on every post it linked to); then a section's own boilerplate
  // (ops/migrate/boilerplate.ts): 76.2/78.0/81.6; with mig-general2's rules (which raised the seen sites by 3 to 17
  // points): 76.7/80.5/81.6; a past notice keeps no intent (ops/migrate/redirect-map.ts): 78.6/80.5/81.6; no booking
  // in an agenda, the old team's index to the team page, listings judged on a page's own words (decision 0063):
  // 81.8/87.8/100; a gallery goes to the equipment's page only when its album shows equipment (decision 0063, amended
  // 2026-11-27: its album of the rooms was sent there): 92.3/87.8/100; a page named by the equipment or the hygiene it
  // presents ("Hygiène et stérilisation") goes to the equipment's page, as SPIP's truth says too: 94.9/90.2/100.
  { code: "bernard", url: `http://${EMONSITE_HOST}`, start: () => startEmonsiteSite(), truth: EMONSITE_TRUTH, spellings: EMONSITE_SPELLINGS, unknownQueries: EMONSITE_UNKNOWN_QUERIES, floor: { precision: 1.0, recall: 0.95, spellings: 1.0, ofRightBase: 1.0 } },
  // Written blind on 2026-11-26 evening (a Webflow site of petit, ops/migrate/fixtures/webflow-site.ts) by a helper that
  // read no file of the toolkit. First measured on the toolkit as it stood (d77135a): 79.5/83.3/98.4 (precision
  // 35/44, recall 35/42, spellings 61/62); its unknown URLs answer no single 404 (0/6). It is no longer unseen: rules
  // made since from what it showed, each kept only where no other site lost: a hub's page whose text is clearly one
  // detail page's goes to the detail (match.ts), 84.1/88.1/100; the contact page stands in for a missing emergency
  // page only for the service, not a condition (decision 0063, amended 2026-11-27), 86.0/88.1/100; a post announcing
  // new opening hours goes to the page giving them (as Weebly's truth says too), 86.4/90.5/100; an album of the rooms
  // alone goes nowhere, 88.4/90.5/100; a way of calming anxious patients (hypnosis) goes to the page speaking of their
  // fear, as Drupal's and WordPress's truths say too, 88.6/92.9/100.
  { code: "petit", url: `http://${WEBFLOW_HOST}`, start: () => startWebflowSite(), truth: WEBFLOW_TRUTH, spellings: WEBFLOW_SPELLINGS, unknownQueries: WEBFLOW_UNKNOWN_QUERIES, floor: { precision: 1.0, recall: 1.0, spellings: 1.0, ofRightBase: 1.0 } },
  // Written blind on 2026-11-26 night (a SPIP 3.2 site of dupont, ops/migrate/fixtures/spip-site.ts) by a helper that
  // read no file of the toolkit. Measured once, on the toolkit as it stood (27af7c7): 91.7/42.3/36.2 (no SPIP grammar:
  // "static"; nearly every page taken for a listing of the others: its "Dans la même rubrique" and "Dernières
  // brèves" lists of titles). Then SPIP's grammar and own URLs, link labels not counted as excerpts, a page with 30
  // triples of its own no listing, the old team's index to the team page (decision 0063): 87.0/90.4/91.4; a page a
  // breadcrumb names above others heads a section ("Nos soins": no counterpart, not the home page): 90.4/90.4/91.4.
  { code: "dupont", url: `http://${SPIP_HOST}`, start: () => startSpipSite(), truth: SPIP_TRUTH, spellings: SPIP_SPELLINGS, unknownQueries: SPIP_UNKNOWN_QUERIES, floor: { precision: 1.0, recall: 1.0, spellings: 1.0, ofRightBase: 1.0 } },
  // Written blind on 2026-11-27 (a Weebly site of martin, ops/migrate/fixtures/weebly-site.ts) by a helper that read no
  // file of the toolkit. Measured once, on the toolkit as it stood (6fb5dd5): 81.1/87.8/100 (recognised as a static
  // site; its blog page's copy `/blog.html` sent by a member's name in its latest post to that member's page). Then a
  // copy of a listing is a listing (ops/migrate/redirect-map.ts): 84.3/87.8/100; a post announcing new opening hours
  // goes to the page giving them (ops/migrate/match.ts, as Webflow's truth says too): 84.6/89.8/100; an album of the
  // rooms alone goes nowhere: 86.3/89.8/100; an old offer for a job the new site offers no more goes nowhere (its
  // 2019 assistant's offer; martin looks for a dentist): 88.0/89.8/100. What it still gets wrong is where the blind
  // truths split (a former member's page, the treatments' overview: decision 0063) and a "mois sans tabac" post.
  { code: "martin", url: `http://${WEEBLY_HOST}`, start: () => startWeeblySite(), truth: WEEBLY_TRUTH, spellings: WEEBLY_SPELLINGS, unknownQueries: WEEBLY_UNKNOWN_QUERIES, floor: { precision: 0.95, recall: 0.95, spellings: 1.0, ofRightBase: 1.0 } },
  // Written blind on 2026-11-27 (a Blogger site of dupont, ops/migrate/fixtures/blogger-site.ts) by a helper that read
  // no file of the toolkit, after this session's rules. Measured once, on the toolkit as it stood (46bdf9b):
  // 85.7/47.4/73.7 (recognised as static: every post, 40 to 60 words beside a sidebar of the other posts' titles and
  // snippets, taken for a listing). Then Blogger's grammar (src/server/redirects/grammar.ts: a post or a page is its
  // path, `?m=1` and `showComment` dropped; `/search`, feeds and archives its listings) and its items
  // (ops/migrate/platform.ts): 86.8/86.8/94.7; an old offer for a job the new site offers no more goes nowhere (a
  // secretary's; dupont looks for an assistant): 89.2/86.8/94.7. Left: spellings the old site did not serve
  // (`/p/Urgences.html`, a page without `.html`: Blogger is strict, the map lower-cases and drops the suffix for every
  // platform), the treatments' overview, a child's first visit.
  { code: "dupont", url: `http://${BLOGGER_HOST}`, start: () => startBloggerSite(), truth: BLOGGER_TRUTH, spellings: BLOGGER_SPELLINGS, unknownQueries: BLOGGER_UNKNOWN_QUERIES, floor: { precision: 0.95, recall: 1.0, spellings: 1.0, ofRightBase: 1.0 } },
  // Written blind on 2026-11-27 (a Ghost 5 site of bernard, ops/migrate/fixtures/ghost-site.ts) by a helper that read
  // no file of the toolkit, after this session's rules. Measured once, on the toolkit as it stood (34007c7):
  // 75.8/69.4/78.7 (recognised as static; `?ref=`, AMP views and unknown queries, which Ghost ignores, kept apart).
  // Then Ghost's grammar (every query dropped, `/amp/` the post, its tags, authors, pagination and uploads its own
  // paths): 75.8/69.4/87.2 (every spelling of a URL the map sends right: 41/41). What it gets wrong is matching: posts
  // sent by weak guesses (a phrase, a word), former members, the practice's presentation for "Le cabinet.html", a dead
  // link; authors' pages and a children's page its truth sends to the members (decided by the writer as judgement calls).
  { code: "bernard", url: `http://${GHOST_HOST}`, start: () => startGhostSite(), truth: GHOST_TRUTH, spellings: GHOST_SPELLINGS, unknownQueries: GHOST_UNKNOWN_QUERIES, floor: { precision: 0.97, recall: 0.94, spellings: 1.0, ofRightBase: 1.0 } },
  // Written blind on 2026-11-27 (a Hugo site of petit, ops/migrate/fixtures/hugo-site.ts: sections, taxonomies, feeds,
  // five alias pages that refresh to a renamed page, a case-sensitive static host) by a helper that read no file of
  // the toolkit; modelled on webflow-site.ts, the one fixture it was allowed to read, it reused 25 of its 58 titles and
  // 13 of its 66 longer texts (the same practice): a measure of Hugo's URLs more than of unseen text. Measured once on
  // the toolkit as it stood (9e04703): 85.1/87.0/95.7. Then Hugo is a platform (every query dropped; taxonomies,
  // pagination and feeds its own paths) and a meta refresh a redirect (ops/migrate/crawl.ts): 85.7/91.3/100; a
  // listing only the platform makes goes nowhere by its topic's intent (`/tags/equipe/`), a children's page not to a
  // page for every patient by a weak guess, a former member's page nowhere (decision 0063, amended): 91.3/91.3/100.
  // Left: `/Contact/`, a dead spelling the map folds to the contact page (kept: it harms nobody), the medical
  // questionnaire (its truth drops it; fourteen others send theirs to the first visit), a post about bone loss.
  { code: "petit", url: `http://${HUGO_HOST}`, start: () => startHugoSite(), truth: HUGO_TRUTH, spellings: HUGO_SPELLINGS, unknownQueries: HUGO_UNKNOWN_QUERIES, floor: { precision: 0.95, recall: 0.97, spellings: 1.0, ofRightBase: 1.0 } },
  // Written blind on 2026-11-27 (an IONOS MyWebsite site of dupont on the CM4all builder, ops/migrate/fixtures/ionos-site.ts)
  // by a helper that read no file of the toolkit and wrote every text itself (2 of its 72 titles are also Webflow's:
  // "Mentions légales", "Honoraires et remboursements"), after every rule above. Measured once on the toolkit as it
  // stood (465e254): 82.9/73.9/90.4. Then CM4all is a platform (every query dropped, `/.cm4all/` its uploads):
  // 82.9/73.9/92.3; a first visit's page, a step-free access and a booking page in the imperative are intents:
  // 84.1/80.4/92.3; a treatment's page named by a stem of the hub's field, its text as close to a detail page:
  // 86.4/82.6/92.3. Left: an adult's orthodontics sent to the hub, care the new site does not publish sent by weak
  // guesses, the aligners' posts under the bar.
  { code: "dupont", url: `http://${IONOS_HOST}`, start: () => startIonosSite(), truth: IONOS_TRUTH, spellings: IONOS_SPELLINGS, unknownQueries: IONOS_UNKNOWN_QUERIES, floor: { precision: 0.93, recall: 0.95, spellings: 1.0, ofRightBase: 1.0 } },
  // Written blind on 2026-11-27 (a Webself site of martin, ops/migrate/fixtures/webself-site.ts) by a helper that read no
  // file of the toolkit and wrote every text itself (one title also Webflow's: "Mentions légales"), after every rule of
  // this session and its outside review. Measured once on the toolkit as it stood (18acf6a): 90.9/83.3/95.0. Then the
  // home page's names (`/accueil.html`) are the home page, new regular hours no notice of their time, and new hours
  // named by an hour ("jusqu'à 20h") the directions' page: 91.1/85.4/97.5. Left: an assistant's old offer its truth
  // sends to the jobs page (Weebly's, of the same practice, drops its own), posts under the bar (air polishing, a
  // denture, whitening kits), a page named "page-3" about fees, weak guesses for care the new site does not publish.
  // (Recall 0.93: its "Remboursements" page, /page-3.html, took the prices' intent for a while this session; the second
  // review showed "Remboursements : ce qui change au 1er octobre" taking it too, so the word is the scores' again.)
  { code: "martin", url: `http://${WEBSELF_HOST}`, start: () => startWebselfSite(), truth: WEBSELF_TRUTH, spellings: WEBSELF_SPELLINGS, unknownQueries: WEBSELF_UNKNOWN_QUERIES, floor: { precision: 0.97, recall: 0.93, spellings: 0.97, ofRightBase: 0.97 } },
  // Written blind on 2026-11-27 (later) by three helpers that read no file of the toolkit and wrote every text
  // themselves, each with its ground truth, committed before the toolkit ran on them: a Concrete CMS site of bernard
  // (ops/migrate/fixtures/concrete-site.ts), a Duda site of petit (duda-site.ts), a Dotclear site of dupont
  // (dotclear-site.ts). Measured once on the toolkit as it stood (8de9b7e): Concrete 86.0/78.2/84.6, Duda 81.8/80.0/84.5,
  // Dotclear 84.4/74.5/70.3. Then Concrete's and Dotclear's URL grammars (a page's `?cID=`, a file's id on any download
  // route, a query that is a path), listings read in the platform's grammar, an H1 most pages share taken for the
  // site's name (the post's own heading instead), a title's part its headline is about, no overview sent home, the old
  // jobs page to the new one and the roles the jobs page says it seeks: 90.2/83.6/96.9, 86.0/82.2/84.5, 87.0/78.4/100.
  // Left: posts and care pages whose reworded text puts the right guess under the bar, truths' calls between a hub and
  // its detail, PDFs by their names, two Concrete spellings (`/download_file/view/88`) of a file id no page names.
  { code: "bernard", url: `http://${CONCRETE_HOST}`, start: () => startConcreteSite(), truth: CONCRETE_TRUTH, spellings: CONCRETE_SPELLINGS, unknownQueries: CONCRETE_UNKNOWN_QUERIES, floor: { precision: 0.98, recall: 0.96, spellings: 0.96, ofRightBase: 0.96 } },
  { code: "petit", url: `http://${DUDA_HOST}`, start: () => startDudaSite(), truth: DUDA_TRUTH, spellings: DUDA_SPELLINGS, unknownQueries: DUDA_UNKNOWN_QUERIES, floor: { precision: 0.97, recall: 0.95, spellings: 1.0, ofRightBase: 1.0 } },
  { code: "dupont", url: `http://${DOTCLEAR_HOST}`, start: () => startDotclearSite(), truth: DOTCLEAR_TRUTH, spellings: DOTCLEAR_SPELLINGS, unknownQueries: DOTCLEAR_UNKNOWN_QUERIES, floor: { precision: 0.96, recall: 0.94, spellings: 1.0, ofRightBase: 1.0 } },
  // Written blind on 2026-11-27 (a third batch, after the rules above) by three more helpers, with their truths, committed
  // before the toolkit ran on them: a PluXml site of martin (pluxml-site.ts), an Odoo 16 site of bernard (odoo-site.ts),
  // a bilingual WordPress with Polylang of dupont (polylang-site.ts). Measured once on the toolkit as it stood (796bd24
  // and the og:title rule): PluXml 93.2/74.5/53.8, Odoo 87.9/56.9/44.9, Polylang 95.1/78.0/90.7. Then PluXml's and
  // Odoo's URL grammars (an object by its number; a post, a job, an attachment by its id; `/page/`, `/fr_FR/`), a
  // translation following its French version (hreflang), no weak guess for a subject the new site never names, a
  // booking app's pages and a form's thank-you page, a news post announcing an equipment: 93.5/78.2/84.6,
  // 88.6/76.5/100, 95.7/88.0/98.1. Left: PluXml's posts under the bar (a PDF offer, the bone graft the new site folds
  // into implants), Odoo's posts of reworded advice and its PDFs.
  { code: "martin", url: `http://${PLUXML_HOST}`, start: () => startPluxmlSite(), truth: PLUXML_TRUTH, spellings: PLUXML_SPELLINGS, unknownQueries: PLUXML_UNKNOWN_QUERIES, floor: { precision: 1.0, recall: 0.96, spellings: 1.0, ofRightBase: 1.0 } },
  { code: "bernard", url: `http://${ODOO_HOST}`, start: () => startOdooSite(), truth: ODOO_TRUTH, spellings: ODOO_SPELLINGS, unknownQueries: ODOO_UNKNOWN_QUERIES, floor: { precision: 0.95, recall: 0.92, spellings: 1.0, ofRightBase: 1.0 } },
  { code: "dupont", url: `http://${POLYLANG_HOST}`, start: () => startPolylangSite(), truth: POLYLANG_TRUTH, spellings: POLYLANG_SPELLINGS, unknownQueries: POLYLANG_UNKNOWN_QUERIES, floor: { precision: 1.0, recall: 0.98, spellings: 1.0, ofRightBase: 1.0 } },
  // A fourth batch, written blind after every rule above (and the outside review's fixes): Webnode (dupont), MODX
  // Revolution (martin), Grav (petit). First runs: 79.6/83.0/91.5, 86.4/80.9/58.1, 92.5/75.5/91.1. Then a title's
  // subject as the run of parts its headline meets (Webnode's posts had gone to the legal notice by the site's name
  // after '::'), Grav's colon parameters, a listing's further page by `?page=N`: 85.1/85.1/97.9, 88.4/80.9/58.1,
  // 92.5/75.5/93.3. MODX's spellings by `?id=N` name pages by an id no page of the site shows (only a few links use
  // it): the map cannot know them without asking the old site for every id, hence its low floor of spellings.
  { code: "dupont", url: `http://${WEBNODE_HOST}`, start: () => startWebnodeSite(), truth: WEBNODE_TRUTH, spellings: WEBNODE_SPELLINGS, unknownQueries: WEBNODE_UNKNOWN_QUERIES, floor: { precision: 0.95, recall: 0.95, spellings: 0.97, ofRightBase: 0.97 } },
  { code: "martin", url: `http://${MODX_HOST}`, start: () => startModxSite(), truth: MODX_TRUTH, spellings: MODX_SPELLINGS, unknownQueries: MODX_UNKNOWN_QUERIES, floor: { precision: 0.97, recall: 0.95, spellings: 1.0, ofRightBase: 1.0 } },
  { code: "petit", url: `http://${GRAV_HOST}`, start: () => startGravSite(), truth: GRAV_TRUTH, spellings: GRAV_SPELLINGS, unknownQueries: GRAV_UNKNOWN_QUERIES, floor: { precision: 0.95, recall: 0.89, spellings: 1.0, ofRightBase: 1.0 } },
  // A fifth batch, written blind after every rule above: Kirby (bernard), Google Sites (petit), a French/Spanish
  // WordPress with WPML (martin). First runs: 79.5/68.9/74.3, 82.7/91.5/93.8, 85.7/82.8/83.7. Then "mode d'emploi"
  // (in a name or a URL) names no job, Google's `authuser` is a session's parameter, a reflexive verb's elided s in a
  // URL names no team, the page about the practice by its title's topic before a dash, a tag page holding one post
  // is that post's copy: 81.6/68.9/74.3, 82.7/91.5/100, 94.4/87.9/93.9. Left: Kirby's posts and care pages of reworded
  // text under the bar, its hub-versus-need calls ("Les gencives" to the bleeding-gums need page, not the hub), Google
  // Sites' dead spellings (a final slash, a capital: 404s on the old site, which the map sends on). On 2026-11-27 a page
  // on the European Health Insurance Card goes to the prices, as Polylang's truth says too: WPML 98.2/96.6/93.9 ->
  // 98.3/98.3/100 (its Spanish-only page and its three spellings), Polylang 100/96.0 -> 100/98.0 (its English page).
  { code: "bernard", url: `http://${KIRBY_HOST}`, start: () => startKirbySite(), truth: KIRBY_TRUTH, spellings: KIRBY_SPELLINGS, unknownQueries: KIRBY_UNKNOWN_QUERIES, floor: { precision: 0.97, recall: 0.93, spellings: 0.97, ofRightBase: 0.97 } },
  { code: "petit", url: `http://${GOOGLESITES_HOST}`, start: () => startGoogleSitesSite(), truth: GOOGLESITES_TRUTH, spellings: GOOGLESITES_SPELLINGS, unknownQueries: GOOGLESITES_UNKNOWN_QUERIES, floor: { precision: 0.92, recall: 0.97, spellings: 1.0, ofRightBase: 1.0 } },
  { code: "martin", url: `http://${WPML_HOST}`, start: () => startWpmlSite(), truth: WPML_TRUTH, spellings: WPML_SPELLINGS, unknownQueries: WPML_UNKNOWN_QUERIES, floor: { precision: 1.0, recall: 0.98, spellings: 1.0, ofRightBase: 1.0 } },
  // A sixth batch, written blind after every rule above: Solocal's hosted site (martin), Simplébo (petit), Joomla 4.4
  // (dupont). First runs: 90.7/87.5/93.0, 87.2/80.4/82.0, 82.7/78.2/71.2. Then the rules of decision 0063's sixth
  // amendment (a treatment's section, joined subjects, listed options, a CMS id the old site answered with its home
  // page, the practical information page, galleries and tours, "dent" alone, lasting hours, advice posts): 91.1/91.1/93.0,
  // 89.4/82.4/90.0, 90.4/85.5/94.2. Left: Solocal's posts by their number alone (`/actualites/1086.html`), the
  // aftercare leaflets, "anesthésie" and "aéropolissage" posts whose words are on the price list too.
  { code: "martin", url: `http://${SOLOCAL_HOST}`, start: () => startSolocalSite(), truth: SOLOCAL_TRUTH, spellings: SOLOCAL_SPELLINGS, unknownQueries: SOLOCAL_UNKNOWN_QUERIES, floor: { precision: 0.98, recall: 0.98, spellings: 0.97, ofRightBase: 0.97 } },
  { code: "petit", url: `http://${SIMPLEBO_HOST}`, start: () => startSimpleboSite(), truth: SIMPLEBO_TRUTH, spellings: SIMPLEBO_SPELLINGS, unknownQueries: SIMPLEBO_UNKNOWN_QUERIES, floor: { precision: 0.95, recall: 0.9, spellings: 0.98, ofRightBase: 0.98 } },
  // (Precision 98.1 -> 96.4 on 2026-11-28: its filled dentist's offer, "(poste pourvu)", was skipped as a notice of its
  // time by the words of the cards beside it, no longer read as its own; it now goes to the jobs page, where six other
  // blind truths send a filled offer (Kirby's of the same title, Google Sites', the tenth batch's four) and this truth
  // and Simplébo's drop it.)
  { code: "dupont", url: `http://${JOOMLA4_HOST}`, start: () => startJoomla4Site(), truth: JOOMLA4_TRUTH, spellings: JOOMLA4_SPELLINGS, unknownQueries: JOOMLA4_UNKNOWN_QUERIES, floor: { precision: 0.96, recall: 0.96, spellings: 0.96, ofRightBase: 0.96 } },
  // A seventh batch, written blind after the sixth batch's rules and the review's fixes: SiteW (bernard), SITE123
  // (dupont), Drupal 10 (martin). First runs: 93.3/89.4/76.7, 90.2/82.2/87.3, 89.3/89.3/98.3. Then an escaped URL's
  // words read decoded (SITE123 keeps accents in its slugs, `/l-%C3%A9quipe`): SITE123 90.9/88.9/94.4; then an old
  // URL's accents folded in its key (SITE123 answers them without) and SiteW's grammar (a page by its code, whatever
  // its name): SiteW 93.3/89.4/90.7, SITE123 90.9/88.9/100.
  // (Recall 0.89, not 0.91: its child's first visit goes nowhere now, as six blind truths of eight decide; its truth is
  // one of the two that take the first visit page.)
  { code: "bernard", url: `http://${SITEW_HOST}`, start: () => startSitewSite(), truth: SITEW_TRUTH, spellings: SITEW_SPELLINGS, unknownQueries: SITEW_UNKNOWN_QUERIES, floor: { precision: 0.97, recall: 0.93, spellings: 1.0, ofRightBase: 1.0 } },
  { code: "dupont", url: `http://${SITE123_HOST}`, start: () => startSite123Site(), truth: SITE123_TRUTH, spellings: SITE123_SPELLINGS, unknownQueries: SITE123_UNKNOWN_QUERIES, floor: { precision: 0.97, recall: 0.97, spellings: 1.0, ofRightBase: 1.0 } },
  { code: "martin", url: `http://${DRUPAL10_HOST}`, start: () => startDrupal10Site(), truth: DRUPAL10_TRUTH, spellings: DRUPAL10_SPELLINGS, unknownQueries: DRUPAL10_UNKNOWN_QUERIES, floor: { precision: 0.97, recall: 0.97, spellings: 1.0, ofRightBase: 1.0 } },
  // An eighth batch, written blind after the care pages' need rule (b38a2ef): Jekyll on GitHub Pages (petit), Webador
  // (martin), DotNetNuke (dupont). First runs: 97.9/95.8/100, 92.5/89.1/89.7, 100/15.8/13.5 (DNN's whole page sits in
  // ASP.NET's one form, which was read as a form to fill: no text). Then a form around the headline read as the page
  // (DNN 96.0/84.2/61.5), Webador's grammar (a post by its number: 92.6/90.9/100), DNN's (a tab, an item, an article,
  // a document by its id: 96.0/84.2/86.5).
  { code: "petit", url: `http://${JEKYLL_HOST}`, start: () => startJekyllSite(), truth: JEKYLL_TRUTH, spellings: JEKYLL_SPELLINGS, unknownQueries: JEKYLL_UNKNOWN_QUERIES, floor: { precision: 0.97, recall: 0.97, spellings: 1.0, ofRightBase: 1.0 } },
  { code: "martin", url: `http://${WEBADOR_HOST}`, start: () => startWebadorSite(), truth: WEBADOR_TRUTH, spellings: WEBADOR_SPELLINGS, unknownQueries: WEBADOR_UNKNOWN_QUERIES, floor: { precision: 0.96, recall: 0.98, spellings: 1.0, ofRightBase: 1.0 } },
  { code: "dupont", url: `http://${DNN_HOST}`, start: () => startDnnSite(), truth: DNN_TRUTH, spellings: DNN_SPELLINGS, unknownQueries: DNN_UNKNOWN_QUERIES, floor: { precision: 1.0, recall: 0.92, spellings: 1.0, ofRightBase: 1.0 } },
  // A ninth batch, written blind after the rules above and their review (the toolkit at 909261c): GoDaddy's builder
  // (petit), Umbraco 7 (bernard), a hand-made PHP site with query routing (dupont). First runs: 85.4/87.2/93.5,
  // 93.5/86.0/64.5, 77.2/84.6/87.8. On 2026-11-27 (decision 0063's last amendment) the PHP site is no WordPress (its
  // news pages' `&p=2` alone named it so; WordPress needs its folders) and its ids are PHP's intval(): `id=03` is `id=3`
  // (its spellings 43/49 -> 44/49, every one of a URL the map sends right).
  { code: "petit", url: `http://${GODADDY_HOST}`, start: () => startGodaddySite(), truth: GODADDY_TRUTH, spellings: GODADDY_SPELLINGS, unknownQueries: GODADDY_UNKNOWN_QUERIES, floor: { precision: 0.94, recall: 1.0, spellings: 1.0, ofRightBase: 1.0 } },
  { code: "bernard", url: `http://${UMBRACO_HOST}`, start: () => startUmbracoSite(), truth: UMBRACO_TRUTH, spellings: UMBRACO_SPELLINGS, unknownQueries: UMBRACO_UNKNOWN_QUERIES, floor: { precision: 0.96, recall: 0.96, spellings: 1.0, ofRightBase: 1.0 } },
  { code: "dupont", url: `http://${PHPSITE_HOST}`, start: () => startPhpsiteSite(), truth: PHPSITE_TRUTH, spellings: PHPSITE_SPELLINGS, unknownQueries: PHPSITE_UNKNOWN_QUERIES, floor: { precision: 0.92, recall: 0.88, spellings: 0.95, ofRightBase: 1.0 } },
  // Written blind on 2026-11-28 (a Craft CMS 3 site of bernard, ops/migrate/fixtures/craft-site.ts). First run: 91.8/93.8/66.7
  // (precision 45/49, recall 45/48, spellings 28/42, of a right base 28/42: Craft's `index.php?p=` and `/?p=` spellings 404).
  // Then Craft's grammar (its routing parameter holding a URI is that path, a preview's parameters dropped): 91.8/93.8/97.6
  // (spellings 41/42; left: `/contact/?objet=rendez-vous`, the target itself, which the server leaves to the new site).
  { code: "bernard", url: `http://${CRAFT_HOST}`, start: () => startCraftSite(), truth: CRAFT_TRUTH, spellings: CRAFT_SPELLINGS, unknownQueries: CRAFT_UNKNOWN_QUERIES, floor: { precision: 0.91, recall: 0.93, spellings: 0.97, ofRightBase: 0.97 } },
  // Written blind on 2026-11-28 (a Contao 4.13 site of petit, ops/migrate/fixtures/contao-site.ts). First run: 92.6/92.6/65.9
  // (precision 50/54, recall 50/54, spellings 27/41, of a right base 27/41: Contao's `/index.php/` and `?auto_item=` spellings 404).
  // Then Contao's grammar (the front controller in the path dropped, a reader's `?auto_item=` its item's URL): 92.6/92.6/100;
  // then where to park is the directions ("Où se garer ?", as WPML's "Horaires, accès et stationnement"): 92.7/94.4/100.
  { code: "petit", url: `http://${CONTAO_HOST}`, start: () => startContaoSite(), truth: CONTAO_TRUTH, spellings: CONTAO_SPELLINGS, unknownQueries: CONTAO_UNKNOWN_QUERIES, floor: { precision: 0.92, recall: 0.94, spellings: 1.0, ofRightBase: 1.0 } },
  // A tenth batch, written blind on 2026-11-28 after every rule above (the toolkit at 0201aef): ExpressionEngine 2 (martin),
  // ProcessWire 3 (petit), Hostinger Website Builder (bernard), SilverStripe 3 (dupont); none of the four a platform the
  // toolkit knew (each taken for a static site). First runs: 100/96.2/64.5, 91.7/93.6/71.9, 97.0/71.1/93.4, 97.8/93.6/88.5.
  // Then every platform's front controller (`/index.php/x`, `/index.php?/x`, `?it=x`, `?url=/x`: the page at that path;
  // SilverStripe's `stage=Live` the page): EE 64.5 -> 85.5 % of spellings (left: its default group's `/site`, its entry
  // ids `/soins/21`), ProcessWire 71.9 -> 86.0 (left: old paths its PagePathHistory answered, which no page links, and
  // a post the map sends wrong), SilverStripe 88.5 -> 100; a post's "À lire aussi" cards no longer make it a listing
  // (Hostinger: recall 71.1 -> 84.4), works at the practice a notice of their time (Hostinger's precision 95.0). Then the
  // ids a page's markup prints, confirmed by asking the old site (decision 0052, 2026-11-28): EE 85.5 -> 93.5 % (its
  // care pages' `soin-21` and its posts' `entry_id`; its team's and offers' ids, printed nowhere, and `/site` left).
  { code: "martin", url: `http://${EE_HOST}`, start: () => startExpressionengineSite(), truth: EE_TRUTH, spellings: EE_SPELLINGS, unknownQueries: EE_UNKNOWN_QUERIES, floor: { precision: 1.0, recall: 0.96, spellings: 0.93, ofRightBase: 0.93 } },
  { code: "petit", url: `http://${PROCESSWIRE_HOST}`, start: () => startProcesswireSite(), truth: PROCESSWIRE_TRUTH, spellings: PROCESSWIRE_SPELLINGS, unknownQueries: PROCESSWIRE_UNKNOWN_QUERIES, floor: { precision: 0.91, recall: 0.93, spellings: 0.85, ofRightBase: 0.92 } },
  // Hostinger: on 2026-11-28 (decision 0063's amendment "conditions and their hub"), its "La parodontite" reaches the
  // detail page treating it, not the periodontics hub its field's stem led to: 95.1/86.7 -> 97.6/88.9, floors raised.
  { code: "bernard", url: `http://${HOSTINGER_HOST}`, start: () => startHostingerSite(), truth: HOSTINGER_TRUTH, spellings: HOSTINGER_SPELLINGS, unknownQueries: HOSTINGER_UNKNOWN_QUERIES, floor: { precision: 0.97, recall: 0.88, spellings: 1.0, ofRightBase: 1.0 } },
  { code: "dupont", url: `http://${SILVERSTRIPE_HOST}`, start: () => startSilverstripeSite(), truth: SILVERSTRIPE_TRUTH, spellings: SILVERSTRIPE_SPELLINGS, unknownQueries: SILVERSTRIPE_UNKNOWN_QUERIES, floor: { precision: 0.97, recall: 0.93, spellings: 1.0, ofRightBase: 1.0 } },
  // An eleventh batch, written blind on 2026-11-28 after the tenth batch's rules and the eleventh's classes (the toolkit
  // at d7e09cd): Textpattern 4 (bernard) and Tilda (martin), both taken for static sites. First runs: 91.7/88.0/69.0 and
  // 100/96.0/85.1. Both fall short on the same class: a page's id spellings that no crawled page prints (Textpattern's
  // `/?id=55`, `/actualites/55/anything`, `/file_download/3/any-name`; Tilda's `/page3901223.html` for a page with an
  // address). Then the id grammar learned by asking the old site (ops/migrate/probe.ts): Textpattern 69.0 -> 100 % of
  // spellings; Tilda's `/page<id>.html` is no `/prefix/N/slug` and stays open. Then the id each page prints
  // (`data-tilda-page-id`), its `/page<id>.html` confirmed by asking the old site: Tilda 85.1 -> 100 %.
  // Textpattern: on 2026-11-28 (decision 0063's amendment "conditions and their hub"), its post "Parodontite et diabète"
  // reaches the detail page treating periodontitis, as its truth says: 91.7/88.0 -> 93.8/90.0, floors raised.
  { code: "bernard", url: `http://${TEXTPATTERN_HOST}`, start: () => startTextpatternSite(), truth: TEXTPATTERN_TRUTH, spellings: TEXTPATTERN_SPELLINGS, unknownQueries: TEXTPATTERN_UNKNOWN_QUERIES, floor: { precision: 0.93, recall: 0.9, spellings: 1.0, ofRightBase: 1.0 } },
  { code: "martin", url: `http://${TILDA_HOST}`, start: () => startTildaSite(), truth: TILDA_TRUTH, spellings: TILDA_SPELLINGS, unknownQueries: TILDA_UNKNOWN_QUERIES, floor: { precision: 1.0, recall: 0.96, spellings: 1.0, ofRightBase: 1.0 } },
  // A twelfth batch, written blind on 2026-11-28 after the id forms above (the toolkit at 0a3833c with decision 0052's
  // id forms, not yet committed): Framer (bernard). First run: 90.2/86.0/100 (taken for a static site; its wrong and
  // missed lines are posts of a member or an offer sent to the subject's page, a filled offer to the open one, and
  // three pages matched under the threshold).
  { code: "bernard", url: `http://${FRAMER_HOST}`, start: () => startFramerSite(), truth: FRAMER_TRUTH, spellings: FRAMER_SPELLINGS, unknownQueries: FRAMER_UNKNOWN_QUERIES, floor: { precision: 0.9, recall: 0.86, spellings: 1.0, ofRightBase: 1.0 } },
  // And Docvadis (petit): first run 88.2/25.9/22.2 (of a right base 9/14), taken for a static site whose every page is a
  // listing: its thin posts and pages are quoted whole by the listings they link to, and the home page is the
  // practice's folder (`/cabinet-petit/`) the root redirects to. On 2026-11-28 (decision 0063's amendment of that day:
  // `/page/` is a listing's folder only before a number, a headline several pages share is no page's name, a title's
  // site parts peeled from both ends, the page the root redirects to is the home page): 94.5/89.7/73.3 (of a right
  // base 33/42); then a servlet's `;jsessionid=` path parameter dropped on every platform (grammar.ts): spellings 84.4
  // (38/45). Left: a filled job's ad (the split), the consent form, emergencies, a news item by its id alone or a
  // former title (`/actualites/20388.html`, `/fiche_sante/1290/peur_du_dentiste.html`).
  { code: "petit", url: `http://${DOCVADIS_HOST}`, start: () => startDocvadisSite(), truth: DOCVADIS_TRUTH, spellings: DOCVADIS_SPELLINGS, unknownQueries: DOCVADIS_UNKNOWN_QUERIES, floor: { precision: 0.94, recall: 0.89, spellings: 0.84, ofRightBase: 0.9 } },
  // A thirteenth batch, written blind on 2026-11-28 after the Docvadis rules (the toolkit at 44308e9): OverBlog (dupont).
  // First run: 100/92.7/67.4 (of a right base 31/43), taken for a static site; its misses are the old platform's
  // spellings, which no crawled page links (`/article-<slug>-<id>.html`, `/pages/<Title>-<id>.html`: the id alone
  // names the page, and the old site answers them with a 301 to the new URL).
  { code: "dupont", url: `http://${OVERBLOG_HOST}`, start: () => startOverblogSite(), truth: OVERBLOG_TRUTH, spellings: OVERBLOG_SPELLINGS, unknownQueries: OVERBLOG_UNKNOWN_QUERIES, floor: { precision: 1.0, recall: 0.92, spellings: 0.67, ofRightBase: 0.72 } },
  // And WordPress 6 with Divi (martin), after the review mends of the Docvadis rules (8bb92b3). First run:
  // 88.9/93.0/77.8 (of a right base 42/47), recognised as WordPress; wrong: its author archives (which the old site
  // sends to its home page) and a tag page under the permalink's front (`/blog/author/x/`, `/blog/tag/equipe/`), the
  // centre's page sent to the team, emergencies (the split); spellings: `?name=`, `?soin=`, `?membre=` (WordPress's query
  // vars) of posts and pages under `/blog/`, `/soins/`, `/equipe/`. On 2026-11-28 (decision 0052's amendment "WordPress's
  // front and query vars": archives under the front are the platform's, a URL the old site sends home is the home page
  // only when it spells it, a query var names the one key ending in its slug): 95.2/93.0/87.0 (of a right base 47/47).
  // Then its "Infos pratiques", whose text dates its Saturday hours ("depuis septembre 2023"), no longer a dated notice
  // (decision 0063's amendment of 2026-11-28, "notices of lasting changes"): 95.3/95.3/92.6 (of a right base 50/50).
  { code: "martin", url: `http://${DIVI_HOST}`, start: () => startDiviSite(), truth: DIVI_TRUTH, spellings: DIVI_SPELLINGS, unknownQueries: DIVI_UNKNOWN_QUERIES, floor: { precision: 0.95, recall: 0.95, spellings: 0.92, ofRightBase: 1.0 } },
  // A fourteenth batch, written blind on 2026-11-28 after the WordPress rules (the toolkit at 42fb5ab): Mobirise (petit),
  // a flat static export. First run: 88.0/93.6/100, 4 of 6 unknown URLs one 404; wrong: a dead link in another case
  // (the grammar reads a static site's paths without case), two advice pages with no counterpart sent to the whitening
  // page, a filled offer to the open one and emergencies (both where the truths split), a 2017 leftover to the detail.
  { code: "petit", url: `http://${MOBIRISE_HOST}`, start: () => startMobiriseSite(), truth: MOBIRISE_TRUTH, spellings: MOBIRISE_SPELLINGS, unknownQueries: MOBIRISE_UNKNOWN_QUERIES, floor: { precision: 0.88, recall: 0.93, spellings: 1.0, ofRightBase: 1.0 } },
  // And Notion published through Super (bernard). First run: 91.4/86.5/81.2 (of a right base 56/64), taken for a static
  // site; its spellings left are a Notion page's id in its three forms (`/<32 hex>`, the dashed UUID, `Title-<id>`),
  // which no crawled page links but the sitemap's id-only pages; wrong: a category page of the news, a condition sent
  // to its hub, emergencies (the split). On 2026-11-28 (decision 0052's amendment "Notion's page ids": the platform
  // recognised, a page's id in every spelling one form, the id its markup prints a name of it): 91.4/86.5/92.8 (of a
  // right base 64/64), unknown ids one 404 (6/6); left: the practical information page, skipped as a dated notice.
  // Then (decision 0063's amendment of 2026-11-28, "conditions and their hub; notices of lasting changes") that page,
  // whose text dates its Wednesday closing ("depuis avril 2024"), is no notice, and "Soigner une parodontite" reaches
  // the detail page treating it, not the hub: 94.6/94.6/100 (of a right base 69/69).
  { code: "bernard", url: `http://${NOTION_HOST}`, start: () => startNotionSite(), truth: NOTION_TRUTH, spellings: NOTION_SPELLINGS, unknownQueries: NOTION_UNKNOWN_QUERIES, floor: { precision: 0.94, recall: 0.94, spellings: 1.0, ofRightBase: 1.0 } },
  // A fifteenth batch, written blind on 2026-11-28 after Notion's ids (the toolkit at a40ebda): Strikingly (martin).
  // First run: 93.2/91.1/100 (taken for a static site): a summer offer sent to its treatment, a post to the hub where
  // the truth names a detail or the equipment, emergencies (the split); three posts and a page under the threshold.
  { code: "martin", url: `http://${STRIKINGLY_HOST}`, start: () => startStrikinglySite(), truth: STRIKINGLY_TRUTH, spellings: STRIKINGLY_SPELLINGS, unknownQueries: STRIKINGLY_UNKNOWN_QUERIES, floor: { precision: 0.93, recall: 0.91, spellings: 1.0, ofRightBase: 1.0 } },
  // And Joomla 1.5 (dupont), after the conditions' rule (the toolkit at 7d0b2b4). First run: 84.2/92.3/91.7 (of a right
  // base 33/33), recognised as Joomla: its categories' blog pages (`/actualites/6-vie-du-cabinet.html`, their feeds and
  // further pages) read as the article of the same number (Joomla's SEF `/<item>/<id>-<alias>`), a launch notice sent to
  // the legal notice, and the cares' menu pages (`/soins/implantologie.html`) unmatched. After Joomla's categories (a
  // numbered segment with numbered children is a category, its blog page no article; a list's `.feed` no page: decision
  // 0052, amended 2026-11-28): 98.0/92.3/91.7, the launch notice and the cares' menu pages left.
  { code: "dupont", url: `http://${JOOMLA15_HOST}`, start: () => startJoomla15Site(), truth: JOOMLA15_TRUTH, spellings: JOOMLA15_SPELLINGS, unknownQueries: JOOMLA15_UNKNOWN_QUERIES, floor: { precision: 0.97, recall: 0.92, spellings: 0.91, ofRightBase: 1.0 } },
];

describe("the sites written blind: no home-page answer, spellings of a right redirect in one 301; the issue's targets printed, floors held", () => {
  // The figures pooled over the blind sites that ran, printed once they all have (the README's sentence).
  const pooled = { sites: 0, met: 0, right: 0, proposed: 0, mapped: 0, mustMap: 0, spelled: 0, spellings: 0, spelledOfRight: 0, spellingsOfRight: 0 };
  const share = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)}% (${a}/${b})`;
  afterAll(() => {
    const p = pooled;
    console.log(
      `pooled over ${p.sites} blind sites (the issue's targets met on ${p.met}): proposed redirects right ${share(p.right, p.proposed)}, ` +
        `must-map URLs ${share(p.mapped, p.mustMap)}, spellings in one 301 ${share(p.spelled, p.spellings)} (of URLs the map sends right ${share(p.spelledOfRight, p.spellingsOfRight)})`,
    );
  });

  it.each(BLIND.map((site) => [`${site.code} (${site.url})`, site] as const))("%s", async (_name, site) => {
    const dir = mkdtempSync(join(tmpdir(), `migrate-blind-${site.code}-`));
    try {
      const f = await draft(site, dir);
      const report = formatFigures(site.code, f);
      const met = f.accuracy.precision >= 0.95 && f.accuracy.recall >= 0.9 && (!f.spellings.total || f.spellings.right / f.spellings.total >= 0.95);
      console.log(`${site.code} (${site.url}): the issue's targets ${met ? "met" : "NOT met"}`);
      Object.assign(pooled, {
        sites: pooled.sites + 1,
        met: pooled.met + (met ? 1 : 0),
        right: pooled.right + f.accuracy.right,
        proposed: pooled.proposed + f.accuracy.proposed,
        mapped: pooled.mapped + f.accuracy.mapped,
        mustMap: pooled.mustMap + f.accuracy.mustMap,
        spelled: pooled.spelled + f.spellings.right,
        spellings: pooled.spellings + f.spellings.total,
        spelledOfRight: pooled.spelledOfRight + f.spellings.ofRightBase.right,
        spellingsOfRight: pooled.spellingsOfRight + f.spellings.ofRightBase.total,
      });
      expect(f.homeAnswers, report).toEqual([]);
      expect(f.spellings.ofRightBase.right / Math.max(1, f.spellings.ofRightBase.total), report).toBeGreaterThanOrEqual(site.floor.ofRightBase);
      expect(f.accuracy.precision, report).toBeGreaterThanOrEqual(site.floor.precision);
      expect(f.accuracy.recall, report).toBeGreaterThanOrEqual(site.floor.recall);
      if (f.spellings.total) expect(f.spellings.right / f.spellings.total, report).toBeGreaterThanOrEqual(site.floor.spellings);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("review: the operator walks the unmatched and low-confidence URLs, a key each, on the command line", () => {
  it("takes a guess with Enter, refuses a path that is no page, sends one to a typed page, drops one, and quits keeping what was decided", async () => {
    const dir = mkdtempSync(join(tmpdir(), "migrate-review-"));
    try {
      await draft(MARTIN, dir);
      const data = JSON.parse(readFileSync(join(dir, "martin", "redirects-review.json"), "utf8")) as ReviewData;
      const items = data.items.filter((i) => i.guess);
      expect(items.length, "the draft leaves something to review").toBeGreaterThanOrEqual(2);
      const typed = data.pages.find((p) => p !== items[1].guess!.target && p !== "/")!;
      // Item 1: Enter (its guess). Item 2: a path that is no page (refused, asked again), then a page. Item 3 (if any): d. Then q.
      const keys = ["", "/no-such-page/", typed, ...(data.items.length > 2 ? ["d"] : []), "q"].join("\n") + "\n";
      const run = await migrate(["review", "martin", "--dir", dir], {}, keys);
      expect(run.code, run.out).toBe(0);
      expect(run.out).toContain("/no-such-page/ is no page of the new site");
      const map = JSON.parse(readFileSync(join(dir, "martin", "redirects.json"), "utf8")) as Record<string, string | null>;
      expect(map[data.items[0].path]).toBe(data.items[0].guess!.target);
      expect(map[data.items[1].path]).toBe(typed);
      if (data.items.length > 2) expect(map[data.items[2].path]).toBeNull();
      expect(parseRedirects(map, "redirects.json").errors).toEqual([]);
      // The next run starts with what is left.
      const again = await migrate(["review", "martin", "--dir", dir], {}, "q\n");
      expect(again.out).toMatch(new RegExp(`review: ${data.items.length - Math.min(3, data.items.length)} old URLs to look at \\(${Math.min(3, data.items.length)} already reviewed\\)`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("verify on the built product serving the WordPress site's drafted map", () => {
  let frontend: Frontend;
  beforeAll(async () => {
    frontend = await startFrontend({ backendUrl: backend.url, env: { ENVIRONMENT: "prod", MIGRATIONS_DIR: root, NOT_FOUND_FLUSH_MS: "200" } });
    // The home page's first render, before verify times each request (a loaded machine took over 10 s for it).
    await until(async () => (await call(`http://127.0.0.1:${frontend.port}`, "www.centre-dentaire-martin.fr", "/").catch(() => null))?.status === 200, "the home page rendered");
  }, 60_000);
  afterAll(() => frontend?.stop());

  it("no false failure: a skipped wp-login.php, a skipped /?cat=3 answered by one 404; a Markdown report", async () => {
    const lines: string[] = [];
    const io = { log: (line: string) => void lines.push(line), progress: () => {}, progressDone: () => {} };
    const code = await main(["verify", "martin", "http://www.centre-dentaire-martin.fr", "--connect", `127.0.0.1:${frontend.port}`, "--dir", root], io);
    const out = lines.join("\n");
    expect(code, out).toBe(0);
    // One 404 at once (a WordPress-only path the map does not know), not the site's slash redirect then 404.
    expect(out).toMatch(/ok\s+skipped page answers 404\s+\/wp-login.php\s+status 404\n/);
    // An old WordPress query the map does not redirect answers 404 itself, not the home page (a soft 404).
    expect(out).toMatch(/ok\s+skipped page answers 404\s+\/\?cat=3\s+status 404/);
    expect(out).toMatch(/ok\s+redirect\s+\/\?page_id=12\s+301 to \/parodontologie\//);
    expect(out).toMatch(/ok\s+target answers 200\s+\/tarifs\/\s+status 200 \(the target of \/wp-content\/uploads\/2018\/05\/grille-tarifaire.pdf\)/);
    const md = readFileSync(join(root, "martin", "verify-report.md"), "utf8");
    expect(md).toMatch(/\*\*\d+ passed, 0 failed\*\*/);
    expect(md).toContain("## Failures\n\nNone.");
    expect(md).toMatch(/\| ok \| redirect \| `\/\?p=34` \| 301 to \/gencives-qui-saignent\/ \|/);
  }, 60_000);

  it("watch: the old URLs still requested that answer 404, most requested first, with the matcher's best guess", async () => {
    const host = "www.centre-dentaire-martin.fr";
    const ask = async (path: string, times: number) => {
      // Asked again and again: the later ones are answered by the cache's fast path (the cached 404 page).
      for (let i = 0; i < times; i++) expect((await call(`http://127.0.0.1:${frontend.port}`, host, path)).status).toBe(404);
    };
    await ask("/implants-dentaires-bordeaux/", 4);
    // (Not `/greffe-de-gencive.html`: the WordPress page "Greffe de gencive" was also its slug, now mapped.)
    await ask("/greffe-gencive-laser.html?utm_source=newsletter", 2);
    await ask("/ancien-formulaire/?email=jeanne@example.fr", 1);
    // Flushed every 200 ms by the server (NOT_FOUND_FLUSH_MS): polled until every request is counted.
    const counted = () => readNotFoundFiles(root, "martin");
    await until(
      () => counted().get("/greffe-gencive-laser.html") === 2 && counted().get("/implants-dentaires-bordeaux/") === 4 && counted().has("/ancien-formulaire/"),
      "every 404 counted",
    );
    const lines: string[] = [];
    const io = { log: (line: string) => void lines.push(line), progress: () => {}, progressDone: () => {} };
    const code = await main(["watch", "martin", "--backend", `${backend.url}/api/v1/websites`, "--dir", root], io);
    const out = lines.join("\n");
    expect(code, out).toBe(0);
    const rows = out.split("\n").filter((l) => /^\d+\s+\//.test(l));
    expect(rows[0]).toMatch(/^4\s+\/implants-dentaires-bordeaux\/\s+\/implantologie\/ \(0\.\d+\)/);
    // Tracking parameters are not part of the URL counted.
    expect(rows[1]).toMatch(/^2\s+\/greffe-gencive-laser.html\s+\/parodontologie\/greffe-gencive\/ \(0\.\d+\)/);
    // A visitor's own values in a query are never kept.
    expect(out).toMatch(/^1\s+\/ancien-formulaire\/\s/m);
    expect(out).not.toContain("jeanne");
  }, 30_000);
});
