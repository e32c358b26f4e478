/**
 * The answer to a refused contact submission made without JavaScript: the relay (POST /api/contact)
 * rewrites to this route with its result on the request. Outside the practice layout (index!) so that
 * it still renders the form with the visitor's input when the backend is down, then without the site's
 * frame. Reached directly, with no submission behind it, it is a 404.
 */
import { component$ } from "@builder.io/qwik";
import { routeLoader$, type DocumentHead } from "@builder.io/qwik-city";
import { loadContactResultPage } from "~/server/contact/result-page";
import { ContactForm } from "~/components/contact-form/contact-form";
import { SiteHeader } from "~/components/layout/site-header";
import { SiteFooter } from "~/components/layout/site-footer";

export const useContactResult = routeLoader$((ev) => loadContactResultPage(ev));

export default component$(() => {
  const data = useContactResult();
  if (!data.value) {
    return (
      <main id="main" class="container not-found">
        <h1>Page introuvable</h1>
        <p>
          <a href="/">Retour à l'accueil</a>
        </p>
      </main>
    );
  }
  const { result, shell, title } = data.value;
  const main = (
    <main id="main" class="container contact-result">
      <h1>{title}</h1>
      <ContactForm values={result.values} errors={result.errors} message={result.message} kind={result.kind} page={result.page} />
    </main>
  );
  if (!shell) return main;
  return (
    <>
      <a class="skip-link" href="#main">
        Aller au contenu
      </a>
      <SiteHeader site={shell} path={result.page} />
      {main}
      <SiteFooter site={shell} />
    </>
  );
});

export const head: DocumentHead = ({ resolveValue }) => {
  const data = resolveValue(useContactResult);
  const site = data?.shell?.name;
  return {
    title: data ? `Erreur : message non envoyé${site ? ` | ${site}` : ""}` : "Page introuvable",
    meta: [{ name: "robots", content: "noindex, nofollow" }],
  };
};
