/**
 * The migration toolkit's entry: `npm run migrate -- <step> ...`, one step per stage of moving a
 * practice's old website to this product (README "Migrating a practice"). Exit status: 0 when the step
 * passed, 1 when a check failed or the step could not finish, 2 on bad usage.
 */
import { parseArgs, UsageError, type Parsed, type StepSpec } from "./args";
import { StepError } from "./files";
import { consoleIo, type StepIo } from "./io";
import { crawlSpec, runCrawl } from "./crawl";
import { assessSpec, runAssess } from "./assess";
import { redirectsSpec, runRedirects } from "./redirect-map";
import { reviewSpec, runReview } from "./review";
import { gateSpec, runGate } from "./gate";
import { verifySpec, runVerify } from "./verify";
import { watchSpec, runWatch } from "./watch";

const STEPS: Record<string, [StepSpec, (parsed: Parsed, io: StepIo) => Promise<number>]> = {
  crawl: [crawlSpec, runCrawl],
  assess: [assessSpec, runAssess],
  redirects: [redirectsSpec, runRedirects],
  review: [reviewSpec, runReview],
  gate: [gateSpec, runGate],
  verify: [verifySpec, runVerify],
  watch: [watchSpec, runWatch],
};

const OVERVIEW = `usage: npm run migrate -- <step> [arguments] (--help on each step)

  crawl <code> <old-site-url>   crawl the old site: migrations/<code>/crawl.json
  assess <code>                 verdict per page: migrations/<code>/content-assessment.md
  redirects <code>              draft the redirect map: migrations/<code>/redirects.json
  review <code>                 walk the unmatched and low-confidence old URLs, a key each: writes the map
  gate <code> <site-url>        Lighthouse mobile on each page kind, before cutover
  verify <code> <site-url>      after cutover: redirects, sitemap, indexing, robots.txt
  watch <code>                  after cutover: old URLs still requested that answer 404, with best guesses`;

export async function main(argv: string[], io: StepIo = consoleIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    console.log(OVERVIEW);
    return name === undefined ? 2 : 0;
  }
  const step = STEPS[name];
  if (!step) {
    console.error(`migrate: unknown step ${JSON.stringify(name)}\n\n${OVERVIEW}`);
    return 2;
  }
  const [spec, run] = step;
  try {
    const parsed = parseArgs(spec, rest);
    if (parsed.help) {
      console.log(`usage: npm run migrate -- ${spec.usage}`);
      return 0;
    }
    return await run(parsed, io);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`migrate ${name}: ${error.message}\n\nusage: npm run migrate -- ${spec.usage}`);
      return 2;
    }
    if (error instanceof StepError) {
      console.error(`migrate ${name}: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.on("SIGINT", () => {
    // The crawl saves its progress on the way out (its exit hook): the next run resumes.
    console.error("\nmigrate: interrupted");
    process.exit(130);
  });
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(`migrate: ${(error as Error).stack ?? error}`);
      process.exit(1);
    },
  );
}
