import { component$ } from "@builder.io/qwik";
import { Link } from "@builder.io/qwik-city";
import type { NavItem, PracticeInfo, SiteConfig } from "~/server/backend/schemas";

interface Props {
  config: SiteConfig;
  practice: PracticeInfo;
  nav: NavItem[];
}

export const SiteHeader = component$<Props>(({ config, nav, practice }) => {
  return (
    <header class="site-header">
      <div class="container header-bar">
        <Link href="/" class="brand">
          {config.logo && (
            <img src={config.logo.url} width={config.logo.width} height={config.logo.height} alt="" class="brand-logo" />
          )}
          <span class="brand-name">{config.name}</span>
        </Link>
        <nav aria-label="Navigation principale">
          <ul class="nav-list">
            {nav.map((item) => (
              <li key={item.label}>
                {item.href ? (
                  <Link href={item.href}>{item.label}</Link>
                ) : (
                  <details class="nav-group">
                    <summary>{item.label}</summary>
                    <ul>
                      {item.children.map((child) => (
                        <li key={child.label}>{child.href && <Link href={child.href}>{child.label}</Link>}</li>
                      ))}
                    </ul>
                  </details>
                )}
              </li>
            ))}
          </ul>
        </nav>
        {practice.booking_url && (
          <a class="button" href={practice.booking_url} rel="noopener">
            Prendre rendez-vous
          </a>
        )}
      </div>
    </header>
  );
});
