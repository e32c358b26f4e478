import type { PracticeView } from "~/server/site/site";
import { headingId, type BlockOf } from "./types";

/** The address and how to get there; a link opens the visitor's route planner (no embedded map to load). */
export const MapBlock = ({ block, practice }: { block: BlockOf<"map">; practice: PracticeView }) => (
  <section class="block block-map" aria-labelledby={headingId(block.id)}>
    <div class="container narrow">
      <h2 id={headingId(block.id)}>{block.heading ?? "Nous trouver"}</h2>
      <div class="map-card">
        <address>
          <strong>{practice.name}</strong>
          <br />
          {practice.street}
          <br />
          {practice.postalCode} {practice.city}
        </address>
        <a class="button" href={practice.mapsHref} rel="noopener">
          Itinéraire
        </a>
      </div>
      <dl class="access-list">
        {practice.accessInfo && (
          <>
            <dt>Accessibilité</dt>
            <dd>{practice.accessInfo}</dd>
          </>
        )}
        {practice.transit && (
          <>
            <dt>Transports en commun</dt>
            <dd>{practice.transit}</dd>
          </>
        )}
        {practice.parking && (
          <>
            <dt>Stationnement</dt>
            <dd>{practice.parking}</dd>
          </>
        )}
      </dl>
    </div>
  </section>
);
