/**
 * The in-memory store: practices (deep clones of the fixtures), contact submissions, request counts,
 * the active fault and the webhook log. One instance per server, so tests can run several side by side.
 */
import { FIXTURE_SITES } from "./fixtures/index.js";
import { buildSyntheticSite, syntheticCode } from "./fixtures/synthetic.js";
import type { ContactSubmissionRecord, Fault, SiteRecord, WebhookDelivery } from "./model.js";

export interface DemoSettings {
  /** Origin written into media URLs, e.g. "http://127.0.0.1:4000". */
  publicOrigin: string;
  /** Where revalidation webhooks go; null sends none. */
  frontendUrl: string | null;
  revalidationSecret: string | null;
  webhookTimeoutMs: number;
}

/** Synthetic sets are capped so a typo in a benchmark cannot exhaust the process's memory. */
export const SYNTHETIC_LIMITS = { practices: 5000, pages: 1000, total: 500_000 } as const;

const WEBHOOK_LOG_SIZE = 200;

export class DemoState {
  readonly sites = new Map<string, SiteRecord>();
  submissions: ContactSubmissionRecord[] = [];
  requests = new Map<string, number>();
  fault: Fault | null = null;
  webhooks: WebhookDelivery[] = [];

  constructor(readonly settings: DemoSettings) {
    this.reset();
  }

  /** Restores the fixtures and forgets everything else; the settings (origin, webhook target) survive. */
  reset(): void {
    this.sites.clear();
    for (const site of FIXTURE_SITES) this.sites.set(site.config.code, structuredClone(site));
    this.submissions = [];
    this.requests.clear();
    this.fault = null;
    this.webhooks = [];
  }

  /** The practice as the public API sees it: unknown and inactive practices are both absent. */
  activeSite(code: string): SiteRecord | undefined {
    const site = this.sites.get(code);
    return site?.config.is_active ? site : undefined;
  }

  countRequest(key: string): void {
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
  }

  logWebhook(delivery: WebhookDelivery): void {
    this.webhooks.push(delivery);
    if (this.webhooks.length > WEBHOOK_LOG_SIZE) this.webhooks.splice(0, this.webhooks.length - WEBHOOK_LOG_SIZE);
  }

  /** Replaces any previous synthetic set with `practices` new ones of `pages` pages each. */
  createSynthetic(practices: number, pages: number): string[] {
    this.removeSynthetic();
    const codes: string[] = [];
    for (let i = 1; i <= practices; i++) {
      const site = buildSyntheticSite(i, pages);
      this.sites.set(site.config.code, site);
      codes.push(syntheticCode(i));
    }
    return codes;
  }

  removeSynthetic(): number {
    let removed = 0;
    for (const [code, site] of this.sites) {
      if (site.synthetic) {
        this.sites.delete(code);
        removed += 1;
      }
    }
    return removed;
  }
}
