import { describe, expect, it } from "vitest";
import { Admission } from "./admission";
import type { Priority } from "../cache/page-cache";
import { RenderUnavailable } from "../render/unavailable";

/** A fake slow renderer: each render waits until the test finishes it, and records when it started. */
function setup(opts: Partial<ConstructorParameters<typeof Admission>[0]> = {}) {
  let clock = 0;
  const admission = new Admission({
    concurrency: 1,
    maxQueuedPerPractice: 100,
    maxQueued: 1000,
    maxWaitMs: 60_000,
    now: () => clock,
    ...opts,
  });
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const submit = (code: string, name: string, priority: Priority = "visitor") =>
    admission.run(code, `${code}:${name}`, priority, () => {
      started.push(name);
      return new Promise<string>((resolve) => finishers.set(name, () => resolve(name)));
    });
  const finish = async (name: string) => {
    finishers.get(name)!();
    // Let the settled render free its slot and the next one start.
    await new Promise((r) => setImmediate(r));
  };
  return { admission, started, submit, finish, tick: (ms: number) => (clock += ms) };
}

describe("Admission", () => {
  it("never runs more renders at once than its concurrency", async () => {
    const { started, submit, finish } = setup({ concurrency: 2 });
    for (const name of ["a", "b", "c", "d", "e"]) void submit("dupont", name);
    expect(started).toEqual(["a", "b"]);
    await finish("a");
    expect(started).toEqual(["a", "b", "c"]);
  });

  it("serves practices in turn: one practice's backlog does not make another wait behind all of it", async () => {
    const { started, submit, finish } = setup();
    const storm = ["s1", "s2", "s3", "s4", "s5"].map((name) => submit("storm", name));
    const quiet = submit("quiet", "q1");
    await finish("s1");
    await finish("s2");
    // The storm's second render was already next in turn; the quiet practice's one render goes right after.
    expect(started).toEqual(["s1", "s2", "q1"]);
    await finish("q1");
    expect(started.at(-1)).toBe("s3");
    for (const name of ["s3", "s4", "s5"]) await finish(name);
    expect(await Promise.all([...storm, quiet])).toEqual(["s1", "s2", "s3", "s4", "s5", "q1"]);
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
    await finish("v1");
    // r2 left the refresh queue for the visitors' queue: it runs before r1.
    expect(started).toEqual(["busy", "v1", "r2"]);
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
    await finish("s1");
    await finish("s2");
    expect(started).toEqual(["s1", "s2", "q1"]);
    await finish("q1");
    await finish("s3");
    await expect(Promise.all([...queued, other])).resolves.toEqual(["s2", "s3", "q1"]);
  });

  it("refuses past the total queue bound", async () => {
    const { submit } = setup({ maxQueued: 2 });
    void submit("a", "a1");
    void submit("b", "b1");
    void submit("c", "c1");
    await expect(submit("d", "d1")).rejects.toBeInstanceOf(RenderUnavailable);
  });

  it("refuses a render that waited longer than maxWaitMs when its turn comes, instead of starting it late", async () => {
    const { started, submit, finish, tick } = setup({ maxWaitMs: 1000 });
    void submit("dupont", "first");
    const late = submit("dupont", "late");
    const outcome = late.then(
      () => "started",
      (error: unknown) => error,
    );
    tick(1500);
    await finish("first");
    expect(await outcome).toBeInstanceOf(RenderUnavailable);
    expect(started).toEqual(["first"]);
  });
});
