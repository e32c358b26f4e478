#!/usr/bin/env node
// Authenticated encryption of one env file (AES-256-GCM), for ops/deploy/secrets.sh. Replaces
// `openssl enc -aes-256-cbc`, which is malleable: a flipped bit in the committed file changed the
// decrypted secrets without any error. Here any change to the file (or a file of another environment
// put in its place) is refused. docs/decisions/0027-env-file-encryption.md.
//
//   node ops/deploy/secrets-crypt.mjs encrypt|decrypt KEY_FILE ENV IN OUT
//
// File layout: "PFSE1" | salt (16) | iv (12) | tag (16) | ciphertext. The key is scrypt(key file, salt);
// the magic, the salt and the environment's name are authenticated with the content.
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";

const MAGIC = Buffer.from("PFSE1");
const [mode, keyFile, envName, input, output] = process.argv.slice(2);
if (!["encrypt", "decrypt"].includes(mode) || !keyFile || !envName || !input || !output) {
  console.error("usage: node ops/deploy/secrets-crypt.mjs encrypt|decrypt KEY_FILE ENV IN OUT");
  process.exit(2);
}
const secret = readFileSync(keyFile, "utf8").trim();
if (secret.length < 32) {
  console.error("secrets: the key file holds fewer than 32 characters");
  process.exit(1);
}
const keyFor = (salt) => scryptSync(secret, salt, 32, { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
const aad = (salt) => Buffer.concat([MAGIC, salt, Buffer.from(`env=${envName}`)]);
const data = readFileSync(input);

if (mode === "encrypt") {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFor(salt), iv);
  cipher.setAAD(aad(salt));
  const body = Buffer.concat([cipher.update(data), cipher.final()]);
  writeFileSync(output, Buffer.concat([MAGIC, salt, iv, cipher.getAuthTag(), body]), { mode: 0o600 });
} else {
  if (data.length < MAGIC.length + 44 || !data.subarray(0, MAGIC.length).equals(MAGIC)) {
    console.error("secrets: not an encrypted env file of this format");
    process.exit(1);
  }
  let at = MAGIC.length;
  const take = (n) => data.subarray(at, (at += n));
  const salt = take(16);
  const iv = take(12);
  const tag = take(16);
  const body = data.subarray(at);
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyFor(salt), iv);
    decipher.setAAD(aad(salt));
    decipher.setAuthTag(tag);
    writeFileSync(output, Buffer.concat([decipher.update(body), decipher.final()]), { mode: 0o600 });
  } catch {
    console.error("secrets: authentication failed (wrong key, another environment's file, or a modified file)");
    process.exit(1);
  }
}
