import { afterEach, describe, expect, it, vi } from "vitest";
import { AccessLog, formatAccessLine, hundredths, isoTime, MAX_LINE_BYTES, pathOnly, requestId, type AccessRecord } from "./access";

const RECORD: AccessRecord = {
  id: "req-1",
  method: "GET",
  practice: "dupont",
  host: "dupont.dev.localhost",
  path: "/tarifs/?email=someone%40example.org",
  status: 200,
  cache: "HIT",
  ms: 0.123456,
  bytes: 1234,
  aborted: false,
};

afterEach(() => {
  vi.useRealTimers();
});

describe("formatAccessLine", () => {
  it("writes the JSON object pino wrote: the same keys in the same order, no query string", () => {
    const line = formatAccessLine(RECORD, Date.parse("2026-11-26T06:00:00.123Z"));
    expect(line.endsWith("}\n")).toBe(true);
    const parsed = JSON.parse(line) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(["level", "time", "msg", "id", "method", "practice", "host", "path", "status", "cache", "ms", "bytes"]);
    expect(parsed).toEqual({
      level: 30,
      time: "2026-11-26T06:00:00.123Z",
      msg: "access",
      id: "req-1",
      method: "GET",
      practice: "dupont",
      host: "dupont.dev.localhost",
      path: "/tarifs/",
      status: 200,
      cache: "HIT",
      ms: 0.12,
      bytes: 1234,
    });
  });

  it("escapes what a visitor spells, bounds it, and says null, absent and aborted as pino did", () => {
    const hostile = { ...RECORD, practice: null, host: `a"b\\c${"h".repeat(200)}`, path: `/x"\\\u0001\ud800/`, aborted: true };
    const parsed = JSON.parse(formatAccessLine(hostile)) as Record<string, unknown>;
    expect(parsed.practice).toBeNull();
    expect(parsed.host).toBe(`a"b\\c${"h".repeat(95)}`);
    expect(parsed.path).toBe(`/x"\\\u0001\ud800/`);
    expect(parsed.aborted).toBe(true);
    const noHost = JSON.parse(formatAccessLine({ ...RECORD, host: undefined })) as Record<string, unknown>;
    expect("host" in noHost).toBe(false);
  });

  it("is, byte for byte, JSON.stringify of the same object, for any string a visitor or a proxy can send", () => {
    // An oracle written independently of the encoder: the object pino serialised, through JSON.stringify.
    const expected = (r: AccessRecord, now: number) =>
      `${JSON.stringify({
        level: 30,
        time: new Date(now).toISOString(),
        msg: "access",
        id: r.id,
        method: r.method,
        practice: r.practice,
        ...(r.host === undefined ? {} : { host: r.host.slice(0, 100) }),
        path: pathOnly(r.path),
        status: r.status,
        cache: r.cache,
        ms: Math.round(r.ms * 100) / 100,
        bytes: r.bytes,
        ...(r.aborted ? { aborted: true } : {}),
      })}\n`;
    // Characters of every kind: ASCII, controls, quote and backslash, DEL, Latin-1, CJK, lone and paired surrogates.
    const alphabet = ["a", "Z", "/", "-", "%", " ", "\u0000", "\u001f", '"', "\\", "\u007f", "é", "\u00ff", "中", "\ud800", "\udfff", "😀", "\u2028"];
    let seed = 7;
    // A 32-bit linear congruential generator, its high bits used (the low ones of such a generator cycle).
    const random = (n: number) => ((seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0), (seed >>> 8) % n);
    const spell = (length: number) => Array.from({ length }, () => alphabet[random(alphabet.length)]).join("");
    const different: string[] = [];
    for (let i = 0; i < 2_000; i++) {
      const record: AccessRecord = {
        id: i % 2 ? requestId(undefined) : `id.${i}`,
        method: ["GET", "HEAD", "POST", "M-SEARCH"][i % 4],
        practice: i % 5 ? "dupont" : null,
        host: i % 7 ? spell(random(130)) : undefined,
        path: `/${spell(random(260))}?q=${spell(5)}`,
        status: [200, 304, 404, 503, 0][i % 5],
        cache: ["HIT", "STALE", "MISS", "404", "NONE"][i % 5],
        // Odd numbers too: a socket's count NaN, a negative or infinite duration (JSON says null for what it cannot).
        ms: i % 97 === 0 ? [Number.NaN, Infinity, -0.5][i % 3] : random(1_000_000) / 997,
        bytes: i % 89 === 0 ? Number.NaN : random(10) ? random(2_000_000) : 0,
        aborted: i % 3 === 0,
      };
      const now = Date.UTC(2026, 10, 27) + random(5_000);
      const line = formatAccessLine(record, now);
      if (line !== expected(record, now)) different.push(line);
      if (Buffer.byteLength(line) > MAX_LINE_BYTES) different.push(`too long: ${line}`);
    }
    expect(different).toEqual([]);
  });

  it("stays one valid line within MAX_LINE_BYTES whatever its fields hold: every field is cut to a bound", () => {
    const absurd = "\u0001".repeat(700);
    const line = formatAccessLine({ ...RECORD, id: absurd, method: absurd, practice: absurd, cache: absurd, host: absurd, path: `/${absurd}` });
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(MAX_LINE_BYTES);
    expect(line.endsWith("}\n")).toBe(true);
    expect((JSON.parse(line) as { practice: string }).practice).toBe("\u0001".repeat(64));
  });

  it("keeps the time of each millisecond", () => {
    const a = JSON.parse(formatAccessLine(RECORD, 1_000)) as { time: string };
    const b = JSON.parse(formatAccessLine(RECORD, 2_000)) as { time: string };
    expect(a.time).toBe(new Date(1_000).toISOString());
    expect(b.time).toBe(new Date(2_000).toISOString());
  });
});

describe("hundredths", () => {
  it("prints a duration as JSON.stringify prints Math.round(ms * 100) / 100, for every hundredth and for odd values", () => {
    // One assertion over the 200,000 values (an expect each took 1.9 s of the unit tests' 5 s limit).
    const different: string[] = [];
    for (let c = 0; c < 200_000; c += 1) {
      const ms = c / 100 + 0.003;
      if (hundredths(ms) !== JSON.stringify(Math.round(ms * 100) / 100)) different.push(`${ms}: ${hundredths(ms)}`);
    }
    expect(different).toEqual([]);
    for (const ms of [0, 0.004999, 0.005, 1e-9, 1.005, 123456.789, 1e13, 1e20, Number.MAX_VALUE, Number.NaN, Infinity, -1]) expect(hundredths(ms), String(ms)).toBe(JSON.stringify(Math.round(ms * 100) / 100));
  });
});

describe("isoTime", () => {
  it("is toISOString for every millisecond, within a second, across seconds, and when the clock steps back", () => {
    const base = Date.UTC(2026, 10, 26, 23, 59, 58, 990);
    const times: number[] = [];
    for (let t = base; t < base + 2_100; t += 7) times.push(t);
    // The clock stepped back (NTP), a day later, the very first and last millisecond of a second, the epoch.
    times.push(base + 5, base + 86_400_000, base + 10, base + 1_010, base + 1_009, 0, 999, 1_000, 1_001);
    for (const t of times) expect(isoTime(t)).toBe(new Date(t).toISOString());
  });

  it("is toISOString before 1970, after year 9999, and for a time that is not a whole millisecond", () => {
    for (const t of [-1, -999, -1_000, -1_001, -86_400_123, 253_402_300_799_999, 253_402_300_800_000, 253_402_300_800_001, 1_500.5, 1_500]) {
      expect(isoTime(t)).toBe(new Date(t).toISOString());
    }
  });
});

describe("requestId and pathOnly", () => {
  it("keeps a short token, replaces anything else by a generated id", () => {
    expect(requestId("abc-1.2_3")).toBe("abc-1.2_3");
    const generated = requestId("x".repeat(65));
    expect(generated).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
    expect(requestId(undefined)).not.toBe(generated);
    expect(pathOnly("/a?b=c")).toBe("/a");
    expect(pathOnly(`/${"p".repeat(300)}`).length).toBe(201);
  });
});

describe("AccessLog", () => {
  /** Keeps the chunks it is given as they are, read as text afterwards: a chunk reused by a later write shows. */
  function sink() {
    const raw: Buffer[] = [];
    return {
      get chunks() {
        return raw.map((chunk) => chunk.toString("utf8"));
      },
      write: (chunk: Buffer) => void raw.push(chunk),
      keepsChunk: true,
    };
  }

  it("hands a sink that writes before it returns its own buffer, no copy, and one that keeps chunks a copy", () => {
    const written: string[] = [];
    const memory = new Set<ArrayBufferLike>();
    const direct = new AccessLog({ keepsChunk: false, write: (chunk: Buffer) => void (memory.add(chunk.buffer), written.push(chunk.toString("utf8"))) });
    direct.write({ ...RECORD, id: "first" });
    direct.flush();
    direct.write({ ...RECORD, id: "second" });
    direct.flush();
    expect(written.map((text) => (JSON.parse(text) as { id: string }).id)).toEqual(["first", "second"]);
    expect(memory.size).toBe(1);
    // A keeping sink's chunk is its own: the next lines, written over the access log's buffer, do not change it.
    const out = sink();
    const kept = new AccessLog(out);
    kept.write({ ...RECORD, id: "kept" });
    kept.flush();
    kept.write({ ...RECORD, id: "overwrites" });
    kept.flush();
    expect(out.chunks.map((text) => (JSON.parse(text) as { id: string }).id)).toEqual(["kept", "overwrites"]);
  });

  it("hands its lines over in one chunk at most a delay after the first, in order", () => {
    vi.useFakeTimers();
    const out = sink();
    const log = new AccessLog(out, { lines: 100, bytes: 1 << 20, delayMs: 1000 });
    log.write({ ...RECORD, id: "one" });
    log.write({ ...RECORD, id: "two" });
    expect(out.chunks).toEqual([]);
    vi.advanceTimersByTime(999);
    expect(out.chunks).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(out.chunks).toHaveLength(1);
    expect(out.chunks[0].split("\n").filter(Boolean).map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(["one", "two"]);
    // Nothing waits: no timer left, nothing written again.
    vi.advanceTimersByTime(5000);
    expect(out.chunks).toHaveLength(1);
  });

  it("hands them over at once when a batch of lines waits, and on flush(): no line lost", () => {
    vi.useFakeTimers();
    const out = sink();
    const log = new AccessLog(out, { lines: 3, bytes: 1 << 20, delayMs: 1000 });
    for (let i = 0; i < 7; i++) log.write({ ...RECORD, id: `n${i}` });
    expect(out.chunks).toHaveLength(2);
    expect(out.chunks.map((chunk) => chunk.split("\n").filter(Boolean).length)).toEqual([3, 3]);
    log.flush();
    expect(out.chunks).toHaveLength(3);
    const ids = out.chunks.join("").split("\n").filter(Boolean).map((l) => (JSON.parse(l) as { id: string }).id);
    expect(ids).toEqual(["n0", "n1", "n2", "n3", "n4", "n5", "n6"]);
    log.flush();
    expect(out.chunks).toHaveLength(3);
  });

  it("hands the encoded lines over whenever their bytes reach the limit, whole lines only, and each line's time is its own", () => {
    vi.useFakeTimers();
    const out = sink();
    const one = formatAccessLine({ ...RECORD, id: "n0" }).length;
    const log = new AccessLog(out, { lines: 100, bytes: one * 3, delayMs: 1000 });
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      times.push(Date.now());
      log.write({ ...RECORD, id: `n${i}` });
      vi.advanceTimersByTime(7);
    }
    // Nothing is encoded before the batch's time (the lines wait as fields); then chunks of three lines, and the rest.
    expect(out.chunks).toEqual([]);
    log.flush();
    expect(out.chunks.map((chunk) => chunk.split("\n").filter(Boolean).length)).toEqual([3, 3, 1]);
    const lines = out.chunks.join("").split("\n").filter(Boolean);
    expect(lines).toEqual(times.map((at, i) => formatAccessLine({ ...RECORD, id: `n${i}` }, at).slice(0, -1)));
  });

  it("lets go of what a line kept once it is written, and keeps a visitor's long host and path only as far as the line shows them", () => {
    vi.useFakeTimers();
    const out = sink();
    const log = new AccessLog(out, { lines: 10, bytes: 1 << 20, delayMs: 1000 });
    const record = { ...RECORD, host: `h${"o".repeat(5000)}.example`, path: `/${"p".repeat(20_000)}?q=1` };
    log.write(record);
    const kept = (log as unknown as { texts: (string | null | undefined)[] }).texts;
    expect(kept.slice(0, 6).reduce((sum, text) => sum + (text?.length ?? 0), 0)).toBeLessThan(400);
    log.flush();
    expect(out.chunks.join("")).toBe(formatAccessLine(record, Date.now()));
    expect(kept.every((text) => text === undefined)).toBe(true);
  });

  it("lets go of a batch's strings when its sink throws, and takes the next lines as before", () => {
    vi.useFakeTimers();
    let fail = true;
    const written: string[] = [];
    const write = (chunk: Buffer) => {
      if (fail) throw new Error("EPIPE");
      written.push(chunk.toString("utf8"));
    };
    const log = new AccessLog({ keepsChunk: false, write }, { lines: 10, bytes: 1 << 20, delayMs: 1000 });
    log.write({ ...RECORD, id: "lost" });
    expect(() => log.flush()).toThrow("EPIPE");
    const kept = (log as unknown as { texts: (string | null | undefined)[] }).texts;
    expect(kept.every((text) => text === undefined)).toBe(true);
    fail = false;
    log.write({ ...RECORD, id: "next" });
    log.flush();
    expect(written.join("").split("\n").filter(Boolean).map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(["next"]);
  });

  it("keeps every byte of lines in any script, the longest the format allows, across chunks", () => {
    vi.useFakeTimers();
    const out = sink();
    const log = new AccessLog(out, { lines: 100, bytes: 300, delayMs: 1000 });
    const records = [
      { ...RECORD, id: "accents", host: "cabinet-dentaire-é.example", path: "/l-équipe/" },
      { ...RECORD, id: "astral", path: `/${"😀".repeat(150)}` },
      { ...RECORD, id: "longest", host: "\u0001".repeat(100), path: `/${"\u0001".repeat(300)}` },
      { ...RECORD, id: "plain" },
    ];
    for (const record of records) log.write(record);
    log.flush();
    const lines = out.chunks.join("").split("\n").filter(Boolean);
    expect(lines).toEqual(records.map((record) => formatAccessLine(record, Date.now()).slice(0, -1)));
  });
});
