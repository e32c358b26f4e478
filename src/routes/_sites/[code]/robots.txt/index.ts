/** GET /robots.txt of the practice (src/server/site/files.ts). */
import type { RequestHandler } from "@builder.io/qwik-city";
import { handleRobots } from "~/server/site/files";

export const onGet: RequestHandler = (ev) => handleRobots(ev);
