/**
 * The vite dev server has no server entry: Qwik City runs inside vite, without our Express layer and
 * its services. The tenant plugin builds the render services here once, from the same environment
 * parsing, without a read cache (the dev server has no revalidation route).
 */
import { getEnv } from "./env";
import type { RequestServices } from "./render/context";
import { createRequestServices } from "./services";

let services: RequestServices | undefined;

export function devServices(): RequestServices {
  services ??= createRequestServices(getEnv(), { dev: true });
  return services;
}
