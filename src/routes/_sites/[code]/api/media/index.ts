/** GET /api/media?path=/media/...&w=...: the live media proxy (src/server/media/proxy.ts), on the vite dev server. */
import type { RequestHandler } from "@builder.io/qwik-city";
import { serveMedia } from "~/server/media/proxy";
import { requestContext } from "~/server/render/context";

export const onGet: RequestHandler = async (ev) => {
  ev.send(await serveMedia(ev, requestContext(ev)));
};
/** HEAD answers as GET does, without the body (Qwik City calls onGet for GET only). */
export const onHead: RequestHandler = onGet;
