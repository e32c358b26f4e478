import { component$ } from "@builder.io/qwik";
import { routeLoader$, type DocumentHead } from "@builder.io/qwik-city";
import { withBackend } from "~/server/load";
import { BlockList } from "~/components/blocks/block-list";
import { ContactForm } from "~/components/contact-form/contact-form";
import { useSite } from "../layout";

/**
 * Every content page of a practice, found by its public path in the backend's page list; a path that
 * is not in the list is this practice's 404 page.
 */
export const usePage = routeLoader$(async (ev) => {
  const site = await ev.resolveValue(useSite);
  const path = ev.url.pathname.replace(/^\/_sites\/[^/]+/, "") || "/";
  const summary = site.pages.find((p) => p.path === path);
  if (!summary) {
    ev.status(404);
    return null;
  }
  return withBackend(ev, (backend, ctx) => backend.page(ctx, ctx.code, summary.slug));
});

export default component$(() => {
  const page = usePage();
  if (!page.value) {
    return (
      <section class="container not-found">
        <h1>Page introuvable</h1>
        <p>
          La page demandée n'existe pas ou plus. <a href="/">Retour à l'accueil</a>
        </p>
      </section>
    );
  }
  return (
    <article class="page">
      <BlockList blocks={page.value.blocks} title={page.value.title} />
      {page.value.kind === "contact" && (
        <section class="container">
          <ContactForm />
        </section>
      )}
    </article>
  );
});

export const head: DocumentHead = ({ resolveValue }) => {
  const site = resolveValue(useSite);
  const page = resolveValue(usePage);
  const title = page ? `${page.seo.title ?? page.title} | ${site.config.name}` : `Page introuvable | ${site.config.name}`;
  return {
    title,
    meta: [{ name: "description", content: page?.seo.description ?? site.config.seo.default_description ?? "" }],
  };
};
