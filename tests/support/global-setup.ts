/** The integration tests run against the production build: fail early, and clearly, without it. */
import { existsSync } from "node:fs";

export default function setup() {
  for (const file of ["server/entry.express.js", "dist/q-manifest.json"]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` (or \`make test\`) first`);
  }
}
