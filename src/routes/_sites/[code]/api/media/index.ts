/** GET /api/media?path=/media/...&w=...: the live media proxy (src/server/media). */
import type { RequestHandler } from "@builder.io/qwik-city";
import { handleMedia } from "~/server/media";

export const onGet: RequestHandler = (ev) => handleMedia(ev);
