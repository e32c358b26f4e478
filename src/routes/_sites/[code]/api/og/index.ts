/** GET /api/og?title=...: the practice's 1200x630 social card (src/server/og/handler.ts). */
import type { RequestHandler } from "@builder.io/qwik-city";
import { handleOgCard } from "~/server/og/handler";

export const onGet: RequestHandler = (ev) => handleOgCard(ev);
