import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Admission, MAX_WEIGHT } from "./admission";
import type { Priority } from "../cache/page-cache";
import { RenderUnavailable } from "../render/unavailable";

/**
 * A fake slow renderer: each render waits until the test finishes it, and records when it started. The
 * clock and the timers are fake (the deadline is a timer); setImmediate stays real to let promises settle.
 */
function setup(opts: Partial<ConstructorParameters<typeof Admission>[0]> = {}) {
  const admission = new Admission({
    concurrency: 1,
    maxQueuedPerPractice: 100,
    maxQueued: 1000,
    maxWaitMs: 60_000,
    ...opts,
  });
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const submit = (code: string, name: string, priority: Priority = "visitor", signal?: AbortSignal) =>
    admission.run(
      code,
      `${code}:${name}`,
      priority,
      () => {
        started.push(name);
        return new Promise<string>((resolve) => finishers.set(name, () => resolve(name)));
      },
      signal,
    );
  const settle = () => new Promise((r) => setImmediate(r));
  const finish = async (name: string) => {
    finishers.get(name)!();
    // Let the settled render free its slot and the next one start.
    await settle();
  };
  /** Runs renders one after another, each taking `ms` of the fake clock (the admission learns their pace). */
  const pace = async (code: string, count: number, ms: number) => {
    for (let i = 0; i < count; i++) {
      const name = `${code}-pace-${i}`;
      void submit(code, name);
      vi.advanceTimersByTime(ms);
      await finish(name);
    }
  };
  /** How a render's promise ended, without an unhandled rejection meanwhile. */
  const outcome = (render: Promise<string>) =>
    render.then(
      (value) => value,
      (error: unknown) => error,
    );
  return { admission, started, submit, finish, settle, pace, outcome };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("Admission", () => {
  it("never runs more renders at once than its concurrency", async () => {
    const { started, submit, finish } = setup({ concurrency: 2 });
    for (const name of ["a", "b", "c", "d", "e"]) void submit("dupont", name);
    expect(started).toEqual(["a", "b"]);
    await finish("a");
    expect(started).toEqual(["a", "b", "c"]);
  });

  it("serves practices in turns weighted by demand: a quiet practice's render does not wait behind a storm's backlog", async () => {
    const { started, submit, finish } = setup();
    void submit("storm", "busy");
    const storm = Array.from({ length: 20 }, (_, i) => submit("storm", `s${i}`));
    const quiet = submit("quiet", "q1");
    for (let i = 0; started.at(-1) !== "q1" && i < 30; i++) await finish(started.at(-1)!);
    // The storm (20 renders, one visitor each) gets MAX_WEIGHT turns for the quiet practice's one, no more.
    expect(started.filter((name) => name.startsWith("s")).length).toBe(MAX_WEIGHT);
    expect(started.at(-1)).toBe("q1");
    await finish("q1");
    for (let i = 0; i < 20; i++) await finish(started.at(-1)!);
    expect(await quiet).toBe("q1");
    expect((await Promise.all(storm)).length).toBe(20);
  });

  it("serves a practice many visitors wait for several times a round, not once per round of every practice waiting", async () => {
    const { admission, started, submit, finish } = setup();
    void submit("busy", "busy");
    // Ten practices with one visitor each, then a popular practice: three pages, each waited for by four visitors.
    for (let i = 0; i < 10; i++) void submit(`tail${i}`, `t${i}`);
    for (const page of ["p1", "p2", "p3"]) {
      void submit("popular", page);
      for (let v = 0; v < 3; v++) admission.promote("popular", `popular:${page}`, new AbortController().signal);
    }
    await finish("busy");
    for (let i = 0; i < 3; i++) await finish(started.at(-1)!);
    // Round-robin served the popular practice once, then the ten others, then it again.
    expect(started.slice(1, 4).sort()).toEqual(["p1", "p2", "p3"]);
  });

  it("within a practice, starts the render most visitors wait for first", async () => {
    const { admission, started, submit, finish } = setup();
    void submit("dupont", "busy");
    void submit("dupont", "rare");
    void submit("dupont", "wanted");
    admission.promote("dupont", "dupont:wanted", new AbortController().signal);
    await finish("busy");
    expect(started).toEqual(["busy", "wanted"]);
  });

  it("puts a visitor's miss before every waiting background refresh", async () => {
    const { started, submit, finish } = setup();
    void submit("martin", "r1", "refresh");
    void submit("martin", "r2", "refresh");
    void submit("bernard", "r3", "refresh");
    void submit("dupont", "v1", "visitor");
    await finish("r1");
    expect(started).toEqual(["r1", "v1"]);
    await finish("v1");
    expect(started).toEqual(["r1", "v1", "r2"]);
  });

  it("promotes a queued refresh that a visitor now waits for", async () => {
    const { admission, started, submit, finish } = setup();
    void submit("martin", "busy", "visitor");
    void submit("martin", "r1", "refresh");
    void submit("martin", "r2", "refresh");
    void submit("dupont", "v1", "visitor");
    admission.promote("martin", "martin:r2");
    await finish("busy");
    await finish(started.at(-1)!);
    // r2 left the refresh queue for the visitors' queue: it runs before r1.
    expect(started.slice(1)).toEqual(expect.arrayContaining(["v1", "r2"]));
    expect(started).not.toContain("r1");
  });

  it("refuses at once, with RenderUnavailable, a render past a practice's queue bound; other practices still queue", async () => {
    const { admission, started, submit, finish } = setup({ maxQueuedPerPractice: 2 });
    void submit("storm", "s1");
    const queued = [submit("storm", "s2"), submit("storm", "s3")];
    const refused = submit("storm", "s4");
    await expect(refused).rejects.toBeInstanceOf(RenderUnavailable);
    await expect(refused).rejects.toMatchObject({ retryAfterSeconds: 5, reportable: false });
    const other = submit("quiet", "q1");
    expect(admission.stats()).toMatchObject({ running: 1, visitors: 3, refused: 1 });
    for (let i = 0; i < 4; i++) await finish(started.at(-1)!);
    await expect(Promise.all([...queued, other])).resolves.toEqual(["s2", "s3", "q1"]);
  });

  it("refuses past the total queue bound", async () => {
    const { submit } = setup({ maxQueued: 2 });
    void submit("a", "a1");
    void submit("b", "b1");
    void submit("c", "c1");
    await expect(submit("d", "d1")).rejects.toBeInstanceOf(RenderUnavailable);
  });

  it("refuses a render when its wait limit passes while it waits, not when its turn comes", async () => {
    const { admission, started, submit, outcome } = setup({ maxWaitMs: 1000 });
    void submit("dupont", "stuck");
    const late = outcome(submit("martin", "late"));
    vi.advanceTimersByTime(999);
    await Promise.resolve();
    expect(admission.stats().expired).toBe(0);
    vi.advanceTimersByTime(2);
    // The render in front never ended: the waiting one is answered all the same, at its limit.
    const error = await late;
    expect(error).toBeInstanceOf(RenderUnavailable);
    expect((error as RenderUnavailable).reportable).toBe(false);
    expect(started).toEqual(["stuck"]);
    expect(admission.stats()).toMatchObject({ expired: 1, visitors: 0 });
  });

  it("refuses at once a visitor's render whose expected wait is past the limit, with Retry-After from the queue's drain time", async () => {
    const { admission, submit, pace } = setup({ maxWaitMs: 10_000 });
    await pace("pacer", 3, 2000); // renders take 2 s: one slot ends one every 2 s
    void submit("busy", "busy");
    // Four more wait (2, 4, 6, 8 s) and a fifth (10 s) still fits; the sixth would wait 12 s.
    for (let i = 0; i < 5; i++) void submit(`p${i}`, "page");
    const refused = submit("p5", "page");
    await expect(refused).rejects.toBeInstanceOf(RenderUnavailable);
    await expect(refused).rejects.toMatchObject({ retryAfterSeconds: 10, reportable: false });
    expect(admission.stats()).toMatchObject({ refused: 1, visitors: 5 });
  });

  it("refuses early the storm's renders, not a quiet practice's: the expected wait follows the weighted turns", async () => {
    const { admission, submit, pace } = setup({ maxWaitMs: 10_000 });
    await pace("pacer", 3, 1000); // one render ends every second
    void submit("storm", "busy");
    // The storm's renders wait their own queue: the tenth would wait 10 s, the eleventh and twelfth 11 and 12 s.
    for (let i = 0; i < 12; i++) void submit("storm", `s${i}`).catch(() => {});
    expect(admission.stats()).toMatchObject({ visitors: 10, refused: 2 });
    // A quiet practice's render goes after MAX_WEIGHT of the storm's at most (9 s): it waits.
    void submit("quiet", "q1");
    expect(admission.stats()).toMatchObject({ visitors: 11, refused: 2 });
  });

  it("drops a queued render whose visitors all left; a render another visitor or a refresh still wants runs", async () => {
    const { admission, started, submit, finish, outcome } = setup();
    void submit("dupont", "busy");
    const alone = new AbortController();
    const left = outcome(submit("dupont", "left", "visitor", alone.signal));
    const first = new AbortController();
    const shared = outcome(submit("martin", "shared", "visitor", first.signal));
    admission.promote("martin", "martin:shared", new AbortController().signal);
    const visitor = new AbortController();
    const refresh = outcome(submit("bernard", "refresh", "refresh"));
    admission.promote("bernard", "bernard:refresh", visitor.signal);

    alone.abort();
    first.abort();
    visitor.abort();
    const error = await left;
    expect(error).toBeInstanceOf(RenderUnavailable);
    expect(admission.stats()).toMatchObject({ abandoned: 1, visitors: 2 });
    await finish("busy");
    await finish(started.at(-1)!);
    await finish(started.at(-1)!);
    expect(started.sort()).toEqual(["busy", "refresh", "shared"]);
    expect(await shared).toBe("shared");
    expect(await refresh).toBe("refresh");
  });

  it("counts a visitor who joined before the render was queued", async () => {
    const { admission, started, submit, finish, outcome } = setup();
    void submit("dupont", "busy");
    const early = new AbortController();
    admission.promote("martin", "martin:page", early.signal);
    const first = new AbortController();
    const page = outcome(submit("martin", "page", "visitor", first.signal));
    first.abort();
    await finish("busy");
    expect(started).toEqual(["busy", "page"]);
    await finish("page");
    expect(await page).toBe("page");
  });
});
