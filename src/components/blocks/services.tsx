import type { ServiceLink } from "~/server/site/blocks";
import { headingId } from "./types";

/** Links to service hubs (a services block, or the services a need page names). */
export const ServicesBlock = ({ id, heading, items }: { id: string; heading: string | null; items: ServiceLink[] }) =>
  items.length ? (
    <section class="block block-services" aria-labelledby={heading ? headingId(id) : undefined}>
      <div class="container">
        {heading && <h2 id={headingId(id)}>{heading}</h2>}
        <ul class="service-grid">
          {items.map((s) => (
            <li key={s.slug}>
              <a class="service-link" href={s.href}>
                {s.title}
                <span aria-hidden="true" class="arrow">
                  →
                </span>
              </a>
            </li>
          ))}
        </ul>
      </div>
    </section>
  ) : null;
