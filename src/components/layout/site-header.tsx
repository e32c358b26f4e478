import type { SiteChrome } from "~/server/site/site";

/**
 * Header: logo, navigation, booking call to action. Works with HTML and CSS alone (no JavaScript is
 * loaded): the dropdown groups are <details> elements (one open at a time through a shared `name`),
 * and the mobile menu is a checkbox whose label is the Menu button, so both open by keyboard
 * (Enter/Space) and by touch without any script.
 */

/**
 * The one enhancement, inline (a few hundred bytes, no download): a click elsewhere or Escape closes an
 * open dropdown, Escape returning the focus to its summary. Without it the menus still work.
 */
const CLOSE_DROPDOWNS = `(()=>{const o=()=>document.querySelector("details.nav-group[open]");document.addEventListener("click",e=>{const d=o();d&&!d.contains(e.target)&&(d.open=!1)});document.addEventListener("keydown",e=>{const d=o();e.key==="Escape"&&d&&(d.open=!1,d.querySelector("summary").focus())})})()`;
export const SiteHeader = ({ site, path }: { site: SiteChrome; path: string }) => {
  // One spread, the href in it: `href={site.booking.href}` beside a spread is written twice by the Qwik
  // optimizer (a getter and a wrapped signal), a duplicate key esbuild warns about.
  const booking = { href: site.booking.href, ...(site.booking.external ? { rel: "noopener" } : {}) };
  return (
    <header class="site-header">
      <div class="container header-bar">
        <a href="/" class="brand" aria-label={`${site.name}, accueil`}>
          {site.logo ? (
            // Low priority: the logo is small and never the largest paint; the hero image is fetched first
            // (docs/decisions/0046-lcp-image.md).
            <img src={site.logo.src} width={site.logo.width} height={site.logo.height} alt="" class="brand-logo" fetchPriority="low" />
          ) : (
            <span class="brand-name">{site.name}</span>
          )}
        </a>
        <input type="checkbox" id="menu-toggle" class="menu-toggle" aria-controls="site-nav" />
        <label for="menu-toggle" class="menu-button">
          <span class="menu-icon" aria-hidden="true" />
          Menu
        </label>
        <nav id="site-nav" class="site-nav" aria-label="Navigation principale">
          <ul class="nav-list">
            {site.nav.map((item) =>
              item.href !== null ? (
                <li key={item.label} class="nav-item">
                  <a href={item.href} class="nav-link" aria-current={item.href === path ? "page" : undefined}>
                    {item.label}
                  </a>
                </li>
              ) : (
                <li key={item.label} class="nav-item">
                  <details class="nav-group" name="nav-group">
                    <summary class={["nav-link", item.children.some((c) => c.href === path) && "is-current"]}>
                      {item.label}
                    </summary>
                    <ul class="nav-sub">
                      {item.children.map((child) => (
                        <li key={child.href}>
                          <a href={child.href} aria-current={child.href === path ? "page" : undefined}>
                            {child.label}
                          </a>
                        </li>
                      ))}
                    </ul>
                  </details>
                </li>
              ),
            )}
          </ul>
        </nav>
        <div class="header-actions">
          <a class="button button-ghost header-call" href={site.practice.phoneHref} aria-label={`Appeler le cabinet au ${site.practice.phone}`}>
            <span class="call-short">Appeler</span>
            <span class="call-long">{site.practice.phone}</span>
          </a>
          <a class="button header-book" {...booking}>
            Prendre rendez-vous
          </a>
        </div>
      </div>
      <script dangerouslySetInnerHTML={CLOSE_DROPDOWNS} />
    </header>
  );
};
