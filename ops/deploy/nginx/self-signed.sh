#!/usr/bin/env bash
# Makes a self-signed TLS certificate for the proxy in dev and tests (production uses the operator's).
#
#   ops/deploy/nginx/self-signed.sh CERT_FILE KEY_FILE [HOST ...]
#
# The certificate names every HOST given (wildcards allowed, e.g. '*.dev.preview.example.org') and is
# valid for 825 days; the key is ECDSA P-256, readable by its owner only. An existing pair that names every
# HOST is kept, so rerunning on each deploy never replaces a certificate that browsers or tests already trust.
# One proxy serves every environment of a host with one certificate: a self-signed pair that lacks a HOST
# (made by a dev deploy, then a staging deploy) is made again with its names and the new ones; a certificate
# of the operator's (not self-signed) that lacks one is refused, exit 1: the proxy would present it for names
# it does not hold.
set -euo pipefail
[[ $# -ge 2 ]] || { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
cert="$1" key="$2"; shift 2
hosts=("$@"); [[ ${#hosts[@]} -gt 0 ]] || hosts=(localhost)
if [[ -s "$cert" && -s "$key" ]]; then
  mapfile -t named < <(openssl x509 -in "$cert" -noout -ext subjectAltName 2>/dev/null | tr ',' '\n' | sed -n 's/^ *DNS://p')
  missing=()
  for h in "${hosts[@]}"; do printf '%s\n' "${named[@]}" | grep -qxF -- "$h" || missing+=("$h"); done
  [[ ${#missing[@]} -eq 0 ]] && exit 0
  if [[ "$(openssl x509 -in "$cert" -noout -subject)" != "subject=$(openssl x509 -in "$cert" -noout -issuer | sed 's/^issuer=//')" ]]; then
    echo "self-signed: $cert is not self-signed (the operator's) and does not name ${missing[*]}: add them to it" >&2
    exit 1
  fi
  echo "self-signed: $cert did not name ${missing[*]}: made again with ${named[*]} ${missing[*]}"
  hosts=("${named[@]}" "${missing[@]}")
  rm -f "$cert" "$key"
fi
san=""
for h in "${hosts[@]}"; do
  [[ "$h" =~ ^(\*\.)?[A-Za-z0-9.-]+$ ]] || { echo "self-signed: not a host name: $h" >&2; exit 2; }
  san+="${san:+,}DNS:$h"
done
mkdir -p "$(dirname "$cert")" "$(dirname "$key")"
umask 077
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 825 \
  -subj "/CN=${hosts[0]}" -addext "subjectAltName=$san" \
  -addext "basicConstraints=critical,CA:true" -addext "keyUsage=critical,digitalSignature,keyCertSign" \
  -keyout "$key" -out "$cert" 2>/dev/null
chmod 644 "$cert"
