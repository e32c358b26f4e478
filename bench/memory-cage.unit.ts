import { describe, expect, it } from "vitest";
import { memoryCgroupOf } from "./memory-cage";

const V1 = ["12:pids:/", "4:memory:/process_api/8e47f523", "1:cpu,cpuacct:/x", "0::/"].join("\n");
const V1_JOINED = ["5:cpuacct,memory:/docker/abc", "0::/"].join("\n");
const V2 = "0::/user.slice/user-1000.slice/session-3.scope\n";

describe("memoryCgroupOf: where a process's memory cgroup is", () => {
  it("reads cgroup v1's memory line, alone or joined with other controllers", () => {
    expect(memoryCgroupOf(V1, { v1: true, v2: false })).toEqual({ dir: "/sys/fs/cgroup/memory/process_api/8e47f523", v2: false });
    expect(memoryCgroupOf(V1_JOINED, { v1: true, v2: false })).toEqual({ dir: "/sys/fs/cgroup/memory/docker/abc", v2: false });
  });

  it("reads the unified hierarchy on cgroup v2, and nothing where no hierarchy is mounted", () => {
    expect(memoryCgroupOf(V2, { v1: false, v2: true })).toEqual({ dir: "/sys/fs/cgroup/user.slice/user-1000.slice/session-3.scope", v2: true });
    expect(memoryCgroupOf(V1, { v1: false, v2: false })).toBeNull();
    expect(memoryCgroupOf("12:pids:/\n", { v1: true, v2: false })).toBeNull();
  });
});
