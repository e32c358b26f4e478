/**
 * Tenancy: which practice a Host header is (registry.ts: the practice list; resolve-host.ts: the rules,
 * preview hosts, the internal /_sites prefix and its public paths; host.ts: Host header parsing). The
 * rules are built once per process by src/server/services.ts.
 */
export { resolveHost, isInternalPath, internalPath, publicPath, INTERNAL_PREFIX } from "./resolve-host";
export { isServedPort } from "./host";
export type { HostRules } from "./resolve-host";
export { loadRegistry, parseRegistry, RegistryError, PRACTICE_CODE, UNLISTED, listedOrUnlisted } from "./registry";
export type { Registry, Practice } from "./registry";
