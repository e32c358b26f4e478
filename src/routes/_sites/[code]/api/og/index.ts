/** GET /api/og?title=...: the practice's 1200x630 social card (src/server/og/handler.ts). */
import type { RequestHandler } from "@builder.io/qwik-city";
import { handleOgCard } from "~/server/og/handler";

export const onGet: RequestHandler = (ev) => handleOgCard(ev);
/** HEAD answers as GET does, without the body (Qwik City calls onGet for GET only). */
export const onHead: RequestHandler = onGet;
