/** GET /sitemap.xml of the practice (src/server/site/files.ts). */
import type { RequestHandler } from "@builder.io/qwik-city";
import { handleSitemap } from "~/server/site/files";

export const onGet: RequestHandler = (ev) => handleSitemap(ev);
