/** POST /api/contact: the contact relay (src/server/contact/handler.ts). */
import type { RequestHandler } from "@builder.io/qwik-city";
import { handleContactPost, refuseContactMethod } from "~/server/contact/handler";

export const onPost: RequestHandler = (ev) => handleContactPost(ev);
export const onGet: RequestHandler = (ev) => refuseContactMethod(ev);
