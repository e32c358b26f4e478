import { HoursTable } from "~/components/layout/hours-table";
import type { PracticeView } from "~/server/site/site";
import { headingId, type BlockOf } from "./types";

export const HoursBlock = ({ block, practice }: { block: BlockOf<"hours">; practice: PracticeView }) => (
  <section class="block block-hours" aria-labelledby={headingId(block.id)}>
    <div class="container narrow">
      <h2 id={headingId(block.id)}>{block.heading ?? "Horaires d'ouverture"}</h2>
      <HoursTable hours={practice.hours} class="hours-large" />
      <p>
        Pour un rendez-vous ou une urgence : <a href={practice.phoneHref}>{practice.phone}</a>
      </p>
    </div>
  </section>
);
