/** POST /api/contact: the contact relay (src/server/contact/handler.ts), on the vite dev server. */
import type { RequestHandler } from "@builder.io/qwik-city";
import { contactMethodRefusal, handleContactPost } from "~/server/contact/handler";

export const onPost: RequestHandler = (ev) => handleContactPost(ev);
export const onGet: RequestHandler = (ev) => {
  ev.send(contactMethodRefusal());
};
