# Sourced by ops/images/images.sh and ops/deploy/deploy.sh: finds the container engine rather than assuming one.
#   ENGINE       docker or podman
#   COMPOSE      the compose command: (docker compose) where a Docker engine answers, else (podman-compose)
# On a Debian machine without either, as root, it installs Debian's podman (with runc and podman-compose).
# podman is configured once, system-wide, for what these machines allow (docs/decisions/0042-containers.md):
# the runc runtime and ulimits no higher than the current ones.

engine_fail() { echo "engine: $*" >&2; exit 1; }

# CI (.ci/run): whether the container drills run. Prints the decision on stderr and returns 0 (run them: an
# engine is on the PATH, or engine_find can install podman here: root and apt-get), 1 (they cannot run and
# nobody said to skip them: CI fails) or 2 (CI_SKIP_CONTAINERS=1: skipped on purpose, CI may pass).
engine_ci_decision() {
  if [[ "${CI_SKIP_CONTAINERS:-}" == 1 ]]; then
    echo "ci: CI_SKIP_CONTAINERS=1: the container drills are skipped on purpose" >&2
    return 2
  fi
  if command -v docker >/dev/null 2>&1 || command -v podman >/dev/null 2>&1; then
    echo "ci: container drills with $(command -v docker >/dev/null 2>&1 && echo docker || echo podman)" >&2
    return 0
  fi
  if [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "ci: container drills with podman, installed from Debian's packages first" >&2
    return 0
  fi
  echo "ci: no container engine, and none can be installed here (not root, or no apt-get): the container drills cannot run." >&2
  echo "ci: install Docker or podman, or set CI_SKIP_CONTAINERS=1 to skip them on purpose" >&2
  return 1
}

# The engine that would be used, without installing or configuring anything (a dry run).
engine_detect() {
  if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1 && docker compose version >/dev/null 2>&1; then
    ENGINE=docker; COMPOSE=(docker compose)
  else
    ENGINE=podman; COMPOSE=(podman-compose)
  fi
}

engine_find() {
  if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1 && docker compose version >/dev/null 2>&1; then
    ENGINE=docker; COMPOSE=(docker compose); return
  fi
  if ! command -v podman >/dev/null 2>&1 || ! command -v podman-compose >/dev/null 2>&1; then
    if [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
      echo "engine: no Docker engine answers and podman is missing: installing Debian's podman, runc and podman-compose"
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc podman-compose >/dev/null \
        || engine_fail "apt-get install podman runc podman-compose failed"
    else
      engine_fail "no container engine: install Docker with its compose plugin, or podman and podman-compose"
    fi
  fi
  ENGINE=podman; COMPOSE=(podman-compose)
  podman_configure
}

# The podman settings these machines need, written once to the system containers.conf: crun fails where
# cgroup v1 controllers sit beside a cgroup2 mount (runc works), and podman's default ulimits try to raise
# the current ones, which is not permitted without CAP_SYS_RESOURCE.
PODMAN_CONF="${PODMAN_CONF:-/etc/containers/containers.conf}"
podman_configure() {
  grep -qs 'practice-frontend' "$PODMAN_CONF" && return
  local nofile nproc
  nofile=$(ulimit -n); nproc=$(ulimit -u)
  [[ "$nofile" == unlimited ]] && nofile=65536
  [[ "$nproc" == unlimited ]] && nproc=4096
  (( nofile > 65536 )) && nofile=65536
  (( nproc > 4096 )) && nproc=4096
  if [[ -s "$PODMAN_CONF" ]]; then
    echo "engine: $PODMAN_CONF exists and was not written by this script: make sure it sets" >&2
    echo "  [engine] runtime = \"runc\"   and   [containers] default_ulimits = [\"nofile=$nofile:$nofile\", \"nproc=$nproc:$nproc\"]" >&2
    return
  fi
  [[ -w "$(dirname "$PODMAN_CONF")" ]] || engine_fail "cannot write $PODMAN_CONF (run as root once)"
  echo "engine: writing $PODMAN_CONF: runtime runc, ulimits nofile=$nofile nproc=$nproc (no higher than this shell's)"
  cat > "$PODMAN_CONF" <<CONF
# Written by practice-frontend ops/deploy/engine.sh. crun fails on hybrid cgroups ("cgroups in hybrid mode not
# supported"): runc works. Ulimits at or below the current ones: raising them is not permitted here.
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]

[engine]
runtime = "runc"
CONF
}

# The ulimit flags for `podman build` (its RUN steps do not all read default_ulimits in podman 4.3).
engine_build_flags() {
  if [[ "$ENGINE" == podman ]]; then
    local nofile nproc
    nofile=$(sed -n 's/.*"nofile=\([0-9]*\):.*/\1/p' "$PODMAN_CONF" | head -n 1)
    nproc=$(sed -n 's/.*"nproc=\([0-9]*\):.*/\1/p' "$PODMAN_CONF" | head -n 1)
    printf '%s\n' --ulimit "nofile=${nofile:-10000}:${nofile:-10000}" --ulimit "nproc=${nproc:-4096}:${nproc:-4096}"
  fi
}
