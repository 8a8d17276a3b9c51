#!/usr/bin/env python3
"""Regenerates the bad-file corpus from ../v1/four-gpu-node.weft (run from this folder).

Each case is one broken file plus a row in cases.json: the exit code `weft-cli validate` must
give (2: unreadable, 1: readable but invalid), the JSON Pointer the error must name ("" for
whole-file problems) or the validation finding code, and a fragment of the message.
"""
import copy
import json

base = json.load(open("../v1/four-gpu-node.weft"))
cases = []


def write(name, text, exit_code, path="", code="", message=""):
    mode = "wb" if isinstance(text, bytes) else "w"
    with open(name, mode) as f:
        f.write(text)
    cases.append({"file": name, "exit": exit_code, "path": path, "code": code, "message": message})


def mutated(name, fn, exit_code, path="", code="", message=""):
    doc = copy.deepcopy(base)
    fn(doc)
    write(name, json.dumps(doc, indent=2) + "\n", exit_code, path, code, message)


good = json.dumps(base, indent=2) + "\n"
write("empty.weft", "", 2, message="the file is empty")
write("binary.weft", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00", 2,
      message="binary data")
write("truncated.weft", good[: len(good) * 2 // 3], 2, message="ends too early")
write("syntax-error.weft", good.replace('"version": 1,', '"version": 1', 1), 2,
      message="not valid JSON at line 4, column 13: syntax error while parsing object")
write("invalid-utf8.weft", good.encode().replace(b"gpu-1", b"gpu-\xff"), 2,
      message="not valid JSON at line")
write("not-an-object.weft", "[1, 2, 3]\n", 2, message="expected a JSON object at the top level")
mutated("wrong-format.weft", lambda d: d.update(format="weft.catalog"), 2, "/format",
        message="not a Weft design file")
mutated("missing-format.weft", lambda d: d.pop("format"), 2, "/format",
        message="\"format\" member is missing")
mutated("newer-version.weft", lambda d: d.update(version=7), 2, "/version",
        message="newer than this Weft")
mutated("negative-version.weft", lambda d: d.update(version=-1), 2, "/version",
        message="must be between 0 and")
mutated("version-string.weft", lambda d: d.update(version="1"), 2, "/version",
        message="expected an integer, found a string")
mutated("missing-nodes.weft", lambda d: d.pop("nodes"), 2, "/nodes",
        message="required field is missing")
mutated("missing-hardware.weft", lambda d: d.pop("hardware"), 2, "/hardware",
        message="required field is missing")
mutated("nodes-not-array.weft", lambda d: d.update(nodes={"0": {}}), 2, "/nodes",
        message="expected an array, found an object")
mutated("node-not-object.weft", lambda d: d["nodes"].__setitem__(1, "gpu-1"), 2, "/nodes/1",
        message="expected an object, found a string")
mutated("node-id-string.weft", lambda d: d["nodes"][2].update(id="2"), 2, "/nodes/2/id",
        message="expected an integer, found a string")
mutated("node-id-fraction.weft", lambda d: d["nodes"][2].update(id=2.5), 2, "/nodes/2/id",
        message="expected an integer, found a number")
mutated("node-missing-spec.weft", lambda d: d["nodes"][1].pop("spec"), 2, "/nodes/1/spec",
        message="required field is missing")
mutated("node-unknown-kind.weft", lambda d: d["nodes"][0].update(kind="gpu"), 2, "/nodes/0/kind",
        message="unknown kind \"gpu\"")
mutated("switch-missing-role.weft", lambda d: d["nodes"][5].pop("role"), 2, "/nodes/5/role",
        message="required field is missing")
mutated("position-not-number.weft", lambda d: d["nodes"][3].update(x="left"), 2, "/nodes/3/x",
        message="expected a number, found a string")
mutated("duplicate-node-id.weft", lambda d: d["nodes"][2].update(id=0), 2, "/nodes/2/id",
        message="duplicate node id 0 (also at /nodes/0)")
mutated("duplicate-link-id.weft", lambda d: d["links"][3].update(id=1), 2, "/links/3/id",
        message="duplicate link id 1 (also at /links/1)")
mutated("link-missing-node.weft", lambda d: d["links"][2].update(b=99), 2, "/links/2/b",
        message="node 99 does not exist")
mutated("link-missing-end.weft", lambda d: d["links"][4].pop("a"), 2, "/links/4/a",
        message="required field is missing")
mutated("link-zero-rate.weft", lambda d: d["links"][0].update(rate_gbps=0), 2,
        "/links/0/rate_gbps", message="must be greater than 0")
mutated("link-negative-rate.weft", lambda d: d["links"][9].update(rate_gbps=-400), 2,
        "/links/9/rate_gbps", message="must be greater than 0 (found -400)")
write("link-huge-rate.weft", good.replace('"rate_gbps": 400', '"rate_gbps": 1e400', 1), 2,
      message="number overflow")
mutated("link-zero-lanes.weft", lambda d: d["links"][1].update(lanes=0), 2, "/links/1/lanes",
        message="must be between 1 and 65536")
mutated("link-negative-latency.weft", lambda d: d["links"][8].update(latency_ns=-5), 2,
        "/links/8/latency_ns", message="must not be negative (found -5)")
mutated("group-missing-member.weft", lambda d: d["groups"][0]["members"].append(42), 2,
        "/groups/0/members/6", message="node 42 does not exist")
mutated("group-missing-parent.weft", lambda d: d["groups"][0].update(parent=3), 2,
        "/groups/0/parent", message="group 3 does not exist")
mutated("node-in-two-groups.weft",
        lambda d: d["groups"].append({"id": 1, "kind": "rack", "name": "r", "members": [6, 2]}), 2,
        "/groups/1/members/1", message="node 2 is already a member of group 0")
mutated("billion-accelerators.weft",
        lambda d: d.update(fabric_generator={
            "scale_up_preset": "dgx-h100", "domains": 125000000, "fabric": "rail-optimized",
            "tiers": 3, "switch": "qm9700", "nic_gbps": 400, "oversubscription": 1, "planes": 1,
            "su_size": 32}), 2, "/fabric_generator/domains", message="must be at most 1048576")
mutated("huge-node-id.weft", lambda d: d["nodes"][0].update(id=2**40), 2, "/nodes/0/id",
        message="must be at most 4294967294")
mutated("hardware-bad-radix.weft", lambda d: d["hardware"]["switches"][1].update(radix=0), 2,
        "/hardware/switches/1/radix", message="must be between 1 and")
mutated("hardware-duplicate-key.weft",
        lambda d: d["hardware"]["link_technologies"].append(d["hardware"]["link_technologies"][0]),
        2, "/hardware/link_technologies/2/key", message="duplicate key 'ib-ndr'")
mutated("view-zero-zoom.weft", lambda d: d["view"].update(zoom=0), 2, "/view/zoom",
        message="must be greater than 0")


def v0_with_nodes(d):
    d.update(version=0)
    d["accelerators"] = []


mutated("v0-with-nodes.weft", v0_with_nodes, 2, "/nodes",
        message="a version 0 file keeps nodes in")

# Absurd depth and sizes (issue 17): refused with the field, the limit and where, quickly.
write("deep-nesting.weft", good.replace("{", '{"deep": ' + "[" * 100000 + "]" * 100000 + ",", 1),
      2, "/deep" + "/0" * 199, message="nested deeper than 200 levels")
write("deep-extension.weft",
      good.replace('"nodes": [\n    {',
                   '"nodes": [\n    {"extensions": ' + '{"a": ' * 100000 + "1" + "}" * 100000
                   + ",", 1),
      2, "/nodes/0/extensions" + "/a" * 197, message="nested deeper than 200 levels")
mutated("nic-gbps-huge.weft",
        lambda d: d.update(fabric_generator={
            "scale_up_preset": "dgx-h100", "domains": 1, "fabric": "rail-optimized",
            "tiers": 2, "switch": "qm9700", "nic_gbps": 1e18}), 2, "/fabric_generator/nic_gbps",
        message="must be at most 100000 Gb/s")
mutated("group-member-negative.weft", lambda d: d["groups"][0]["members"].append(-1), 2,
        "/groups/0/members/6",
        message='group 0 ("node-0"), member 6: expected a node id (an integer from 0 to '
                '4294967294), found a number (-1)')
mutated("group-member-fraction.weft", lambda d: d["groups"][0]["members"].insert(1, 1.5), 2,
        "/groups/0/members/1", message='group 0 ("node-0"), member 1: expected a node id')
mutated("layers-huge.weft",
        lambda d: d.update(workload={"model": {"preset": "llama3-8b", "layers": 1000000000}}), 2,
        "/workload/model/layers", message="must be at most 4096 (found 1000000000)")
mutated("global-batch-huge.weft",
        lambda d: d.update(workload={"model": {"preset": "llama3-8b"},
                                     "training": {"global_batch_seqs": 2147483647}}), 2,
        "/workload/training/global_batch_seqs",
        message="must be at most 1048576 (found 2147483647)")
mutated("position-huge.weft", lambda d: d["nodes"][3].update(x=1e308), 2, "/nodes/3/x",
        message="a canvas coordinate within +/-1e8 is expected (found 1e+308)")
mutated("global-batch-exponent.weft",
        lambda d: d.update(workload={"model": {"preset": "llama3-8b"},
                                     "training": {"global_batch_seqs": 1e30}}), 2,
        "/workload/training/global_batch_seqs",
        message="must be a whole number between 1 and 1048576 (found 1e+30)")

# Readable files that fail validation (exit 1).
mutated("port-over-radix.weft", lambda d: d["links"][0].update(lanes=60), 1,
        code="port-budget", message="uses 87 ports but its model nvswitch-gen3 has 64 (23 over)")
mutated("unknown-spec.weft", lambda d: d["nodes"][6].update(spec="qm9999"), 1,
        code="unknown-node-spec", message="switch model \"qm9999\"")
mutated("unknown-link-tech.weft", lambda d: d["links"][5].update(tech="nvlink9"), 1,
        code="unknown-link-tech", message="\"nvlink9\"")
mutated("isolated-accelerator.weft",
        lambda d: d.update(links=[l for l in d["links"] if 3 not in (l["a"], l["b"])]), 1,
        code="isolated-accelerators", message="\"gpu-3\" (#3) has no path")
mutated("self-link.weft", lambda d: d["links"][8].update(b=0), 1, code="self-link",
        message="to itself")
mutated("group-cycle.weft",
        lambda d: d["groups"].extend([{"id": 1, "kind": "rack", "name": "r1", "parent": 2,
                                       "members": []},
                                      {"id": 2, "kind": "pod", "name": "p2", "parent": 1,
                                       "members": []}]), 1, code="group-cycle",
        message="groups nest in a cycle")

with open("cases.json", "w") as f:
    json.dump(cases, f, indent=1)
    f.write("\n")
