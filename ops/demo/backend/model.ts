/**
 * The demo backend's own records: what it stores, as opposed to what it serves (payload-types.ts).
 *
 * Records hold payload-shaped data (config and pages with every field present) with two differences that
 * the serializers (serialize.ts) remove:
 * - media URLs are origin-relative ("/media/dupont/hero.webp"), because the public origin is only known
 *   once the server listens (port 0) and may differ from the listening address;
 * - pages carry editorial fields the API never shows (publication status, navigation label).
 */
import type { Block, Job, Page, Practice, SiteConfig, TeamMember, Theme } from "./payload-types.js";

export type PageStatus = "published" | "draft";

export interface PageRecord extends Required<Page> {
  blocks: Block[];
  status: PageStatus;
  /** Short label used by the derived navigation; the title when null. */
  nav_label: string | null;
}

/** The stored config: every field present, the theme as the backend defines it (the frontend reads it unchecked). */
export interface SiteConfigRecord extends Required<Omit<SiteConfig, "theme">> {
  theme: Theme;
}

export interface SiteRecord {
  config: SiteConfigRecord;
  practice: Practice;
  team: TeamMember[];
  jobs: Job[];
  /** In editorial order; the navigation follows it. */
  pages: PageRecord[];
  /** Created by POST /admin/synthetic (benchmarks), removed by DELETE /admin/synthetic and reset. */
  synthetic: boolean;
}

export type FaultMode = "none" | "error500" | "slow" | "malformed" | "throttle";

export interface Fault {
  mode: Exclude<FaultMode, "none">;
  /** Milliseconds to wait before answering, for mode "slow". */
  delayMs: number;
  /** Substring of the request path; null matches every API and media request. */
  match: string | null;
  /** Share of the matching calls that get the fault (1: all; 0.05 for a soak's 5% failing calls). */
  rate: number;
}

export interface ContactSubmissionRecord {
  code: string;
  receivedAt: string;
  /** The request body as received (after JSON parsing). */
  body: unknown;
  dropped: boolean;
  /** Why the submission was dropped; null when accepted. */
  reason: "honeypot" | "too_fast" | null;
}

export interface WebhookResult {
  /** False when no frontend URL is configured: nothing was sent. */
  sent: boolean;
  /** HTTP status the frontend answered, or null when not sent or on network error/timeout. */
  status: number | null;
  error?: string;
  tags: string[];
}

export interface WebhookDelivery extends WebhookResult {
  url: string | null;
  at: string;
}
