import { component$ } from "@builder.io/qwik";
import { useDocumentHead } from "@builder.io/qwik-city";

/**
 * Renders the <head> entries of the routes' `head` exports: title, meta (description, robots, Open
 * Graph, Twitter), links (canonical, icon), JSON-LD scripts. Everything is computed on the server by
 * src/server/site/head.ts; a page without a canonical link (the 404 page) gets none.
 */
export const RouterHead = component$(() => {
  const head = useDocumentHead();
  return (
    <>
      <title>{head.title}</title>
      {head.meta.map(({ key, ...m }) => (
        <meta key={key} {...m} />
      ))}
      {head.links.map(({ key, ...l }) => (
        <link key={key} {...l} />
      ))}
      {/* Pages outside the practice layout (error pages, the contact result) get the default icon. */}
      {!head.links.some((l) => l.rel === "icon") && <link rel="icon" href="/favicon.svg" type="image/svg+xml" />}
      {/* Destructured, as above: a prop read from an object (`s.style`) beside a spread is written twice by
          the Qwik optimizer (a getter and a wrapped signal), a duplicate key esbuild warns about. */}
      {head.styles.map(({ key, props, style }) => (
        <style key={key} {...props} dangerouslySetInnerHTML={style} />
      ))}
      {head.scripts.map(({ key, props, script }) => (
        <script key={key} {...props} dangerouslySetInnerHTML={script} />
      ))}
    </>
  );
});
