/** GET /api/media?path=/media/...&w=...: the live media proxy (src/server/media/proxy.ts). */
import type { RequestHandler } from "@builder.io/qwik-city";
import { handleMedia } from "~/server/media/proxy";
import { requestContext } from "~/server/render/context";

export const onGet: RequestHandler = (ev) => handleMedia(ev, requestContext(ev));
/** HEAD answers as GET does, without the body (Qwik City calls onGet for GET only). */
export const onHead: RequestHandler = onGet;
