/**
 * The practice list (tenants/practices.json): the single source of truth for registered hosts. The
 * reverse-proxy server names are generated from the same file (ops/deploy/nginx). It is validated at start:
 * a duplicate or a malformed host would otherwise route a visitor to the wrong practice.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { normaliseHost } from "./host";

/** Practice codes are one DNS label, so that {code}.{env}.{preview_domain} is a valid host. */
export const PRACTICE_CODE = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const entrySchema = z.looseObject({
  code: z.string().regex(PRACTICE_CODE, "must be lower-case letters, digits and inner hyphens"),
  domains: z.array(z.string()),
});

export interface Practice {
  code: string;
  domains: string[];
}

export interface Registry {
  practices: Practice[];
  /** Normalised host -> practice code. */
  byHost: Map<string, string>;
}

export class RegistryError extends Error {
  constructor(source: string, problems: string[]) {
    super(`Invalid practice list ${source}:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "RegistryError";
  }
}

/** Validates the parsed JSON of the practice list; throws RegistryError naming every problem. */
export function parseRegistry(json: unknown, source = "tenants/practices.json"): Registry {
  const parsed = z.array(entrySchema).safeParse(json);
  if (!parsed.success) {
    throw new RegistryError(
      source,
      parsed.error.issues.map((i) => `${i.path.length ? `[${i.path.join("].[")}] ` : ""}${i.message}`),
    );
  }
  const problems: string[] = [];
  const codes = new Set<string>();
  const byHost = new Map<string, string>();
  const practices: Practice[] = [];
  for (const entry of parsed.data) {
    if (codes.has(entry.code)) problems.push(`duplicate code "${entry.code}"`);
    codes.add(entry.code);
    const domains: string[] = [];
    for (const raw of entry.domains) {
      const host = normaliseHost(raw);
      if (!host || host !== raw.trim().toLowerCase().replace(/\.$/, "")) {
        problems.push(`practice "${entry.code}": malformed host "${raw}" (a bare host name, no scheme, port or path)`);
        continue;
      }
      const owner = byHost.get(host);
      if (owner) problems.push(`host "${host}" is listed by both "${owner}" and "${entry.code}"`);
      byHost.set(host, entry.code);
      domains.push(host);
    }
    practices.push({ code: entry.code, domains });
  }
  if (problems.length) throw new RegistryError(source, problems);
  return { practices, byHost };
}

/** Reads and validates the practice list file. */
export function loadRegistry(file: string): Registry {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new RegistryError(file, [`cannot be read: ${(error as Error).message}`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new RegistryError(file, [`is not valid JSON: ${(error as Error).message}`]);
  }
  return parseRegistry(json, file);
}

/** What every code that is not on the practice list counts as (preview hosts of unlisted codes, typos). */
export const UNLISTED = "other";

/**
 * A practice code as a key of anything bounded per practice (render admission's queues, the 404 watch):
 * a listed code stands for itself, every other code is UNLISTED. Preview hosts accept any well-formed
 * code (`<code>.<env>.<preview domain>`), so a visitor can invent codes without end: together they get one
 * share, never one each.
 */
export function listedOrUnlisted(registry: Pick<Registry, "practices">): (code: string) => string {
  const listed = new Set(registry.practices.map((p) => p.code));
  return (code) => (listed.has(code) ? code : UNLISTED);
}
