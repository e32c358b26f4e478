#!/usr/bin/env bash
# Makes a self-signed TLS certificate for the proxy in dev and tests (production uses the operator's).
#
#   ops/deploy/nginx/self-signed.sh CERT_FILE KEY_FILE [HOST ...]
#
# The certificate names every HOST given (wildcards allowed, e.g. '*.dev.preview.example.org') and is
# valid for 825 days; the key is ECDSA P-256, readable by its owner only. An existing pair is kept, so
# rerunning on each deploy never replaces a certificate that browsers or tests already trust.
set -euo pipefail
[[ $# -ge 2 ]] || { sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
cert="$1" key="$2"; shift 2
if [[ -s "$cert" && -s "$key" ]]; then exit 0; fi
hosts=("$@"); [[ ${#hosts[@]} -gt 0 ]] || hosts=(localhost)
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
