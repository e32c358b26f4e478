import type { PageView } from "~/server/site/page-view";
import type { SiteChrome } from "~/server/site/site";
import { BlockList } from "~/components/blocks/block-list";
import { ServicesBlock } from "~/components/blocks/services";
import { Breadcrumbs } from "~/components/layout/breadcrumbs";
import { ContactForm } from "~/components/contact-form/contact-form";
import { JobsList } from "./jobs-list";

type ContentView = Extract<PageView, { type: "page" }>;

/** Every page of the backend's list: its blocks, plus what its kind adds (form, jobs, related services). */
export const ContentPage = ({ view, site }: { view: ContentView; site: SiteChrome }) => {
  const { page } = view;
  const hasHero = view.blocks.some((b) => b.type === "hero");
  return (
    <article class={`page page-${page.kind}`}>
      {view.breadcrumbs.length > 0 && <Breadcrumbs crumbs={view.breadcrumbs} />}
      {!hasHero && (
        <header class="page-header">
          <div class="container">
            <h1>{page.title}</h1>
            {page.description && <p class="lead">{page.description}</p>}
          </div>
        </header>
      )}
      {page.kind === "contact" ? (
        // The contact page: its blocks (how to reach us) beside the form on a wide screen, above it on a phone.
        <div class="container contact-layout">
          <div class="contact-main">
            <BlockList blocks={view.blocks} practice={site.practice} />
          </div>
          <section class="block contact-aside" aria-labelledby="contact-form-title">
            <div class="form-card">
              <h2 id="contact-form-title">Nous écrire</h2>
              <ContactForm />
            </div>
          </section>
        </div>
      ) : (
        <BlockList blocks={view.blocks} practice={site.practice} />
      )}
      {view.detailPages.length > 0 && <ServicesBlock id="detail-pages" heading="Nos traitements" items={view.detailPages} />}
      {view.jobs && <JobsList jobs={view.jobs} />}
      {view.relatedServices.length > 0 && (
        <ServicesBlock id="related-services" heading="Les soins associés" items={view.relatedServices} />
      )}
    </article>
  );
};
