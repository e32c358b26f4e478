/**
 * The pre-pass output on disk and the seed at start, in three files:
 *
 *   pages.bin      the pages, one record after another (cache/disk/record.ts: headers, tags and the
 *                  precompressed bodies), appended as each render finishes
 *   index.jsonl    one line per page: key, practice, origin, path, tags, where its record is in pages.bin
 *   summary.json   the environment, the practices rendered and skipped; written last
 *
 * Written as a stream (PrepassWriter): no page is held once written, so the pre-pass's memory does not
 * grow with the number of practices. The server never reads it whole either: seedFromPrepass() reads the
 * index line by line into the warm tier on disk (cache/disk/disk-pages.ts), which serves each page from
 * pages.bin when it is first asked for.
 */
import { createReadStream, existsSync, mkdirSync, openSync, closeSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync, writevSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import type { Env } from "../env";
import type { PageEntry } from "../cache/entry";
import { encodeRecord } from "../cache/disk/record";
import type { AttachedRecord, DiskPages } from "../cache/disk/disk-pages";

export const PREPASS_FORMAT = 2;

const PAGES = "pages.bin";
const INDEX = "index.jsonl";
const SUMMARY = "summary.json";

/** One line of index.jsonl. */
export interface PrepassIndexLine {
  key: string;
  code: string;
  origin: string;
  url: string;
  tags: string[];
  offset: number;
  length: number;
}

export interface PrepassSummary {
  /** The ENVIRONMENT the pages were rendered for (robots meta, canonical rules depend on it). */
  environment: string;
  renderedAt: string;
  practices: { code: string; host: string; pages: number; failed: number }[];
  skipped: { code: string; reason: string }[];
}

interface StoredSummary extends PrepassSummary {
  format: number;
  pages: number;
}

/**
 * Writes the output as pages are rendered, into a directory beside the target that replaces it only once
 * complete (finish()): a half-written directory is never seeded.
 */
export class PrepassWriter {
  private readonly target: string;
  private readonly tmp: string;
  private readonly pages: number;
  private readonly index: number;
  private offset = 0;
  /** Pages written so far. */
  count = 0;

  constructor(dir: string) {
    this.target = resolve(dir);
    this.tmp = `${this.target}.tmp-${process.pid}`;
    rmSync(this.tmp, { recursive: true, force: true });
    mkdirSync(this.tmp, { recursive: true });
    this.pages = openSync(join(this.tmp, PAGES), "w");
    this.index = openSync(join(this.tmp, INDEX), "w");
  }

  append(entry: PageEntry): void {
    const { parts, length } = encodeRecord(entry);
    let written = 0;
    while (written < length) {
      // writev may write less than asked (a signal, a full pipe): the rest follows.
      const n = writevSync(this.pages, rest(parts, written));
      written += n;
    }
    const { key, code, origin, url } = entry.target;
    const line: PrepassIndexLine = { key, code, origin, url, tags: entry.tags, offset: this.offset, length };
    writeSync(this.index, `${JSON.stringify(line)}\n`);
    this.offset += length;
    this.count++;
  }

  /** Writes the summary and puts the output in place of the previous one. */
  finish(summary: PrepassSummary): void {
    this.closeFiles();
    const stored: StoredSummary = { format: PREPASS_FORMAT, pages: this.count, ...summary };
    writeFileSync(join(this.tmp, SUMMARY), JSON.stringify(stored));
    rmSync(this.target, { recursive: true, force: true });
    mkdirSync(dirname(this.target), { recursive: true });
    renameSync(this.tmp, this.target);
  }

  /** Leaves the previous output as it was. */
  abort(): void {
    this.closeFiles();
    rmSync(this.tmp, { recursive: true, force: true });
  }

  private closeFiles(): void {
    for (const fd of [this.pages, this.index]) {
      try {
        closeSync(fd);
      } catch {
        /* closed already */
      }
    }
  }
}

/** The buffers of `parts` from byte `from` on. */
function rest(parts: Buffer[], from: number): Buffer[] {
  const out: Buffer[] = [];
  for (const part of parts) {
    if (from >= part.length) from -= part.length;
    else {
      out.push(from ? part.subarray(from) : part);
      from = 0;
    }
  }
  return out;
}

export function removePrepass(dir: string): void {
  rmSync(resolve(dir), { recursive: true, force: true });
}

/** The output's summary, or null when there is none; throws when it is of another format. */
export function readPrepassSummary(dir: string): (PrepassSummary & { pages: number }) | null {
  const file = join(resolve(dir), SUMMARY);
  if (!existsSync(file)) return null;
  const { format, ...summary } = JSON.parse(readFileSync(file, "utf8")) as StoredSummary;
  if (format !== PREPASS_FORMAT) throw new Error(`pre-pass format ${format}, expected ${PREPASS_FORMAT}`);
  return summary;
}

/** The index's lines, one at a time (never the whole file in memory). */
export async function* prepassIndex(dir: string): AsyncGenerator<PrepassIndexLine> {
  const lines = createInterface({ input: createReadStream(join(resolve(dir), INDEX)), crlfDelay: Infinity });
  for await (const line of lines) if (line) yield JSON.parse(line) as PrepassIndexLine;
}

/** The pages file, for the warm tier to read records from. */
export function prepassPagesFile(dir: string): string {
  return join(resolve(dir), PAGES);
}

/**
 * Seeds the pages on disk at start, so the first visitor after a deploy gets a HIT: the index is read line by
 * line, the pages stay on disk until asked for. `pages` is the warm tier of one instance on its own, or, with
 * several instances sharing Redis, the build's pages the shared store admits one by one (cache/page-cache.ts:
 * a pre-pass page carries no tag versions). Pages rendered for another ENVIRONMENT are not used: their
 * robots meta and canonical links would be wrong here.
 */
export async function seedFromPrepass(
  pages: DiskPages,
  env: Env,
  log: (line: string) => void = console.log,
  /** Whether the shared store admits each page before it is served (services.ts decides: CACHE_URL). */
  admitted = false,
): Promise<number> {
  let summary: ReturnType<typeof readPrepassSummary>;
  try {
    summary = readPrepassSummary(env.PREPASS_DIR);
  } catch (error) {
    log(`page cache: pre-pass output unreadable (${(error as Error).message}); pages render on first request`);
    return 0;
  }
  if (!summary) {
    log(`page cache: no pre-pass output in ${env.PREPASS_DIR}; pages render on first request`);
    return 0;
  }
  if (summary.environment !== env.ENVIRONMENT) {
    log(
      `page cache: pre-pass rendered for ENVIRONMENT=${summary.environment}, this server runs ` +
        `${env.ENVIRONMENT}: not seeding; pages render on first request`,
    );
    return 0;
  }
  let seeded: number;
  try {
    const readSince = Date.parse(summary.renderedAt);
    if (!Number.isFinite(readSince)) throw new Error(`summary.json's renderedAt is no date: ${summary.renderedAt}`);
    seeded = await pages.attach(prepassPagesFile(env.PREPASS_DIR), attachedRecords(env.PREPASS_DIR), readSince);
  } catch (error) {
    log(`page cache: pre-pass output unreadable (${(error as Error).message}); pages render on first request`);
    return 0;
  }
  const practices = summary.practices.filter((p) => p.pages > 0).length;
  log(
    `page cache: seeded ${seeded} pages of ${practices} practices from the build pre-pass (${summary.renderedAt}), ` +
      (admitted
        ? "each read from disk on first request and served once Redis admitted it (none of its tags changed since)"
        : "read from disk on first request"),
  );
  return seeded;
}

async function* attachedRecords(dir: string): AsyncGenerator<AttachedRecord> {
  for await (const line of prepassIndex(dir)) yield { key: line.key, offset: line.offset, length: line.length, tags: line.tags };
}
