#!/usr/bin/env bash
# Encrypted env files per environment: ops/deploy/secrets/.env.<env>.enc in git; the plaintext only on the
# server, owner-only, never committed.
#
#   ops/deploy/secrets.sh setup             create the key file (once per operator machine/server)
#   ops/deploy/secrets.sh decrypt ENV       .env.<env>.enc -> $DEPLOY_ROOT/.env.<env> (mode 600)
#   ops/deploy/secrets.sh encrypt ENV       $DEPLOY_ROOT/.env.<env> -> .env.<env>.enc (then commit it)
#
# To change a secret: edit the server plaintext, run encrypt, commit the encrypted file.
# The encryption is authenticated (AES-256-GCM, ops/deploy/secrets-crypt.mjs): a modified file is refused.
set -euo pipefail
cd "$(dirname "$0")/../.."
umask 077

KEY_FILE="${SECRETS_KEY_FILE:-$HOME/.config/practice-frontend/secrets.key}"
DEPLOY_ROOT="${DEPLOY_ROOT:-/srv/practice-frontend}"
ENC_DIR="${SECRETS_DIR:-ops/deploy/secrets}"
fail() { echo "secrets: $*" >&2; exit 1; }

cmd="${1:-}"; env_name="${2:-}"
enc="$ENC_DIR/.env.$env_name.enc"
plain="$DEPLOY_ROOT/.env.$env_name"
if [[ "$cmd" != "setup" ]]; then
  [[ "$env_name" =~ ^(dev|staging|prod)$ ]] || fail "ENV must be dev, staging or prod, got '${env_name}'"
  # Nothing encrypted yet is a first deploy, not a missing key: say what makes the file.
  [[ "$cmd" != "decrypt" || -f "$enc" ]] || fail "nothing to decrypt: $enc does not exist (no env file of $env_name was encrypted yet).
  A first deploy writes it: 'make setup' (the key, once), then $plain from .env.example (chmod 600; for the demo
  backend on this host see docs/operations.md, \"The first deploy\"), then 'make encrypt ENV=$env_name' and commit $enc"
  [[ -f "$KEY_FILE" ]] || fail "no key at $KEY_FILE: run 'make setup' or set SECRETS_KEY_FILE"
fi
crypt() { node ops/deploy/secrets-crypt.mjs "$1" "$KEY_FILE" "$env_name" "$2" "$3"; }

case "$cmd" in
  setup)
    if [[ -f "$KEY_FILE" ]]; then echo "secrets: key already at $KEY_FILE"; exit 0; fi
    mkdir -p "$(dirname "$KEY_FILE")"
    openssl rand -base64 48 > "$KEY_FILE"
    chmod 600 "$KEY_FILE"
    echo "secrets: new key at $KEY_FILE: store a copy in the team's password manager" ;;
  decrypt)
    mkdir -p "$DEPLOY_ROOT"
    tmp="$(mktemp "$DEPLOY_ROOT/.env.$env_name.XXXXXX")"
    crypt decrypt "$enc" "$tmp" || { rm -f "$tmp"; fail "cannot decrypt $enc (wrong key? modified file?)"; }
    chmod 600 "$tmp" && mv "$tmp" "$plain"
    echo "secrets: wrote $plain (mode 600)" ;;
  encrypt)
    [[ -f "$plain" ]] || fail "$plain does not exist: write it from .env.example (chmod 600), then encrypt it"
    mkdir -p "$ENC_DIR"
    crypt encrypt "$plain" "$enc.tmp" && mv "$enc.tmp" "$enc"
    echo "secrets: wrote $enc: commit it" ;;
  *) fail "usage: ops/deploy/secrets.sh setup | decrypt ENV | encrypt ENV" ;;
esac
