/**
 * Step 3b, review: a walk over the old URLs the draft left unmatched or matched with a low confidence
 * (redirects-review.json, written by the redirects step), one at a time with its best guess; a key decides
 * each and the map (redirects.json) is written at once, validated as the server loads it. Quitting half-way
 * keeps what was decided; the next run starts with the URLs not yet reviewed. redirects-review.md stays for
 * those who prefer to edit the map by hand.
 *
 *   Enter or y   take the best guess          d   drop it: the old URL answers 404
 *   /path/       send it to that page          n   leave it as drafted, next
 *   q            save and quit
 */
import { join } from "node:path";
import { formatProblem, parseRedirects, PLATFORM_KEY } from "../../src/server/redirects/map";
import type { Parsed, StepSpec } from "./args";
import { migrationDir, practiceCode, readJsonInput, REDIRECTS_FILE, REVIEW_DATA_FILE, StepError, writeJson } from "./files";
import type { StepIo } from "./io";
import { readMap, type ReviewData } from "./redirect-map";

export const reviewSpec: StepSpec = {
  name: "review",
  positionals: ["code"],
  options: ["dir"],
  flags: ["all"],
  usage: `review <code> [--all] [--dir DIR]
  Walks the old URLs the redirects step left unmatched or matched with a low confidence, each with its best
  guess: Enter (or y) takes it, d drops the old URL (404), a path such as /contact/ sends it there, n leaves it,
  q saves and quits. <dir>/<code>/redirects.json is written after each decision. --all walks the URLs already
  reviewed too.
  --dir DIR   the migrations directory (default $MIGRATIONS_DIR, else migrations)`,
};

export async function runReview(parsed: Parsed, io: StepIo): Promise<number> {
  const code = practiceCode(parsed.positional.code);
  const dir = migrationDir(code, parsed.options.dir);
  const dataFile = join(dir, REVIEW_DATA_FILE);
  const data = readJsonInput(dataFile, "redirects") as ReviewData;
  if (!Array.isArray(data?.items) || !Array.isArray(data.pages)) throw new StepError(`${dataFile} is not a review written by the redirects step: run it again`);
  const ask = io.ask;
  if (!ask) throw new StepError("review needs a terminal to ask on");
  const map = readMap(dir);
  const pages = new Set(data.pages);
  const todo = data.items.filter((item) => parsed.flags.has("all") || !item.reviewed);
  let decided = 0;
  /** Writes the map with one entry changed, if it still loads; the problem otherwise. */
  const write = (path: string, target: string | null): string | null => {
    const next = { ...map, [path]: target };
    const { errors } = parseRedirects(next, join(dir, REDIRECTS_FILE));
    if (errors.length) return errors.map(formatProblem).join("; ");
    map[path] = target;
    const sorted = Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a === PLATFORM_KEY ? -1 : b === PLATFORM_KEY ? 1 : a < b ? -1 : 1)));
    writeJson(join(dir, REDIRECTS_FILE), sorted);
    return null;
  };
  const markReviewed = (path: string) => {
    for (const item of data.items) if (item.path === path) item.reviewed = true;
    writeJson(dataFile, data);
  };

  io.log(`review: ${todo.length} old URLs to look at (${data.items.length - todo.length} already reviewed). Enter/y: take the guess, d: drop (404), /path/: that page, n: next, q: quit`);
  for (const [i, item] of todo.entries()) {
    const now = map[item.path];
    io.log("");
    io.log(`[${i + 1}/${todo.length}] ${item.path}${item.title ? `  "${item.title}"` : ""}`);
    io.log(`  now: ${now === undefined || now === null ? "404 (no redirect)" : `301 to ${now}`}`);
    io.log(item.guess ? `  best guess: ${item.guess.target} (confidence ${item.guess.confidence}, ${item.guess.by})` : "  no guess");
    for (;;) {
      const answer = await ask("  > ");
      if (answer === null || answer.trim() === "q") {
        io.log(`review: ${decided} decided; ${REDIRECTS_FILE} saved. Run review again to go on.`);
        return 0;
      }
      const key = answer.trim();
      let target: string | null | undefined;
      if (key === "" || key === "y") {
        if (!item.guess) {
          io.log("  no guess to take: type a path, d, n or q");
          continue;
        }
        target = item.guess.target;
      } else if (key === "d") target = null;
      else if (key === "n") target = undefined;
      else if (key.startsWith("/")) {
        if (!pages.has(key)) {
          io.log(`  ${key} is no page of the new site (${data.pages.slice(0, 8).join(", ")}${data.pages.length > 8 ? "..." : ""})`);
          continue;
        }
        target = key;
      } else {
        io.log("  Enter/y, d, /path/, n or q");
        continue;
      }
      if (target !== undefined) {
        const problem = write(item.path, target);
        if (problem) {
          io.log(`  not written: ${problem}`);
          continue;
        }
        io.log(target === null ? "  dropped: 404" : `  written: 301 to ${target}`);
        decided++;
      }
      markReviewed(item.path);
      break;
    }
  }
  io.log(`review: done, ${decided} decided; ${join(dir, REDIRECTS_FILE)} written`);
  return 0;
}
