/**
 * The contract's four image types, once: file extension <-> media type. The media proxy accepts these
 * paths, the build-time media cache names its files with them, and the social card reads these logos.
 */
export const MEDIA_TYPES: Readonly<Record<string, string>> = {
  webp: "image/webp",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  svg: "image/svg+xml",
};

/** The types sharp resizes (an SVG scales by itself). */
export const RASTER_TYPES: ReadonlySet<string> = new Set(["image/webp", "image/png", "image/jpeg"]);

/** The extension a file of this media type is written with (jpeg as .jpg), or undefined. */
export function extensionOf(mediaType: string): string | undefined {
  return Object.keys(MEDIA_TYPES).find((ext) => MEDIA_TYPES[ext] === mediaType);
}

/** The media type of a file name by its extension (case-insensitive), or undefined. */
export function mediaTypeOfName(name: string): string | undefined {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? undefined : MEDIA_TYPES[name.slice(dot + 1).toLowerCase()];
}
