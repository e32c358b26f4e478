/** The process's tenancy rules, built once from the environment and the practice list. */
import { getEnv } from "../env";
import { loadRegistry } from "./registry";
import { resolveHost, type HostRules } from "./resolve-host";

export { resolveHost, isInternalPath, internalPath, INTERNAL_PREFIX } from "./resolve-host";
export type { HostRules } from "./resolve-host";
export { loadRegistry, parseRegistry, RegistryError, PRACTICE_CODE } from "./registry";
export type { Registry, Practice } from "./registry";

let rules: HostRules | undefined;

export function getHostRules(): HostRules {
  if (!rules) {
    const env = getEnv();
    rules = {
      registry: loadRegistry(env.TENANTS_FILE),
      environment: env.ENVIRONMENT,
      previewDomain: env.PREVIEW_DOMAIN,
    };
  }
  return rules;
}

/** The practice code for a Host header under this process's rules, or null. */
export function practiceForHost(host: string | null | undefined): string | null {
  return resolveHost(host, getHostRules());
}
