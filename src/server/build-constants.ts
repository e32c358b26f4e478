/**
 * Build-time constants baked into the server bundle by vite.config.ts (`define`). The specification
 * fixes BUILD_CMS_ORIGIN per environment in the deploy script as a build argument: the running
 * container does not have it in its environment, so the server must carry the value it was built with.
 */
declare const __BUILD_CMS_ORIGIN__: string | undefined;

/** BUILD_CMS_ORIGIN as it was at build time ("" or undefined when the build had none, or outside a vite build). */
export const BAKED_CMS_ORIGIN: string | undefined =
  typeof __BUILD_CMS_ORIGIN__ === "string" && __BUILD_CMS_ORIGIN__.trim() ? __BUILD_CMS_ORIGIN__.trim() : undefined;

/**
 * The CMS origin allowed to frame the site: the build's constant; a value in the runtime environment is
 * used only when the build had none (local runs, tests).
 */
export function cmsOrigin(runtime: string | undefined, baked: string | undefined = BAKED_CMS_ORIGIN): string | undefined {
  return baked || runtime || undefined;
}
