# Sourced by ops/demo/demo.sh and ops/demo/demo-cluster.sh: `build_if_changed` runs `npm run build` only when the build in
# place is older than a source file, or was made with other build-time constants (BUILD_*, PUBLIC_*: a build
# made for another backend port writes that port into the pre-passed pages). A second `make demo` with
# nothing changed then starts in seconds instead of rebuilding for minutes.
BUILD_STAMP=server/.demo-build-env
BUILD_INPUTS=(src adapters public tenants package.json package-lock.json vite.config.ts tsconfig.json)

build_constants() {
  env | grep -E '^(BUILD|PUBLIC)_' | sort || true
}

build_is_current() {
  [[ -f server/entry.express.js && -f dist/q-manifest.json && -f "$BUILD_STAMP" ]] || return 1
  [[ "$(cat "$BUILD_STAMP")" == "$(build_constants)" ]] || return 1
  # Any input newer than the stamp (written after the last build finished) means a rebuild.
  [[ -z "$(find "${BUILD_INPUTS[@]}" -newer "$BUILD_STAMP" -print -quit 2>/dev/null)" ]]
}

build_if_changed() {
  if build_is_current; then
    echo "Build up to date (nothing changed since the last demo build): not rebuilding."
  else
    npm run build
    build_constants > "$BUILD_STAMP"
  fi
}
