#!/usr/bin/env python3
"""The client matrix: `acp-plan client` against real headless ACP clients.

  scripts/client-matrix.py            install each client into $PEERS (default /tmp/peers),
                                      run every scenario of `acp-plan client` against it,
                                      rewrite docs/clients.json and docs/clients.md
  scripts/client-matrix.py --render   rewrite docs/clients.md from docs/clients.json
  scripts/client-matrix.py --check    exit 1 if docs/clients.md is not what docs/clients.json
                                      renders to (CI runs this; plain python3, nothing installed)

Clients: acpx (npm), the TypeScript and Python SDKs' example clients made headless
(scripts/clients/, on the SDKs from npm and PyPI), the Rust SDK's own example clients (built
from the crate's published source: about 20 minutes on two cores the first time), and the
suite's reference client. A client that cannot be installed or run is recorded with the
reason, never dropped.
"""

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JSON_PATH = ROOT / "docs" / "clients.json"
MD_PATH = ROOT / "docs" / "clients.md"
PEERS = Path(os.environ.get("PEERS", "/tmp/peers"))
SCENARIOS = ["legacy", "plan-operations", "edge-sizes", "terminal-escapes", "load"]

TS_SDK = "2.4.0"
PY_SDK = "0.12.1"
RUST_SDK = "5.2.0"
CLIENTS_DIR = ROOT / "scripts" / "clients"

# Each client: how to install it (`install`: commands run in order until `installed` exists),
# and its command with {agent} where its agent goes ({prefix}: its directory under $PEERS).
# `sees` says what a user of the client sees for each robustness finding.
CLIENTS = [
    {
        "name": "acpx",
        "version": "0.19.1",
        "registry": "npm",
        "prefix": "npm-acpx",
        "installed": "node_modules/.bin/acpx",
        "install": [["npm", "install", "--prefix", "{prefix}", "acpx@0.19.1"]],
        "command": ["{prefix}/node_modules/.bin/acpx", "--approve-all", "--timeout", "20",
                    "--agent", "{agent}", "exec", "make a plan"],
        "note": "Headless CLI; `--approve-all` answers permission requests. Prints legacy plans "
        "to the terminal; advertises no plan capability.",
        "sees": {
            "ROBUST-TERMINAL-ESCAPE": "acpx prints legacy plan entries as `  - [status] content` "
            "with the content's bytes unchanged: an agent (or the model behind it) that writes "
            "`\\u001b]0;...\\u0007` into a plan entry sets the terminal's window title, and "
            "`\\u001b[2J` clears the user's screen. Reproducer: `acp-plan client --scenario "
            "terminal-escapes -- acpx --approve-all --agent {agent} exec \"make a plan\"`, or "
            "`acpx --approve-all --agent \"acp-plan fake-agent --script S.jsonl\" exec \"make a "
            "plan\"` with a legacy plan whose entry holds those sequences.",
        },
    },
    {
        # The SDK's example client (src/examples/client.ts) is not in the package and asks on
        # stdin; scripts/clients/ts_plan_client.mjs is that example made headless.
        "name": "TypeScript SDK client (`scripts/clients/ts_plan_client.mjs`)",
        "version": f"@agentclientprotocol/sdk {TS_SDK}",
        "registry": "npm",
        "prefix": f"npm-typescript-sdk-{TS_SDK}",
        "installed": "node_modules/@agentclientprotocol/sdk/package.json",
        "install": [["npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefix",
                     "{prefix}", f"@agentclientprotocol/sdk@{TS_SDK}"]],
        "command": ["env", "ACP_SDK_NODE_MODULES={prefix}/node_modules", "node",
                    str(CLIENTS_DIR / "ts_plan_client.mjs"), "{agent}", "make a plan"],
        "note": "The SDK's example client (`src/examples/client.ts`, not in the npm package) spawns "
        "its own agent and asks for every permission on stdin; this is that example on the "
        "`unstable` entrypoint (to advertise `plan: {}`), with the agent from the command line "
        "and the first option chosen. Prints `[plan]`, `[plan_update]`, `[plan_removed]`.",
        "sees": {},
    },
    {
        # The SDK's example client (examples/client.py) is not in the package and reads prompts
        # from the terminal; scripts/clients/py_plan_client.py is that example made headless.
        "name": "Python SDK client (`scripts/clients/py_plan_client.py`)",
        "version": f"agent-client-protocol {PY_SDK}",
        "registry": "PyPI",
        "prefix": f"pip-python-sdk-{PY_SDK}",
        "installed": "acp/__init__.py",
        "install": [[sys.executable, "-m", "pip", "install", "--quiet", "--target", "{prefix}",
                     f"agent-client-protocol=={PY_SDK}"]],
        "command": ["env", "PYTHONPATH={prefix}", sys.executable,
                    str(CLIENTS_DIR / "py_plan_client.py"), "{agent}", "make a plan"],
        "note": "The SDK's example client (`examples/client.py`, not in the package) reads prompts "
        "from the terminal and answers permission requests with an error; this is that "
        "example with one prompt and the first option chosen, advertising `plan`. Prints the "
        "plan updates' kinds only.",
        "sees": {},
    },
    {
        # Shipped in the crate (examples/yolo_one_shot_client.rs), headless as published.
        "name": "Rust SDK example `yolo_one_shot_client` (v1)",
        "version": f"agent-client-protocol {RUST_SDK}",
        "registry": "crates.io",
        "prefix": f"cargo-rust-sdk-{RUST_SDK}",
        "installed": "target/debug/examples/yolo_one_shot_client",
        "install": "rust",
        "command": ["{prefix}/target/debug/examples/yolo_one_shot_client", "--command", "{agent}",
                    "make a plan"],
        "note": "Shipped in the crate and run as published (built from its source with the "
        "`process` feature); advertises nothing, prints each update with `{:?}` (control "
        "characters escaped).",
        "sees": {},
    },
    {
        # Shipped in the crate (examples/v2_one_shot_client.rs), headless as published.
        "name": "Rust SDK example `v2_one_shot_client` (v2)",
        "version": f"agent-client-protocol {RUST_SDK}",
        "registry": "crates.io",
        "prefix": f"cargo-rust-sdk-{RUST_SDK}",
        "installed": "target/debug/examples/v2_one_shot_client",
        "install": "rust",
        "command": ["{prefix}/target/debug/examples/v2_one_shot_client", "--command", "{agent}",
                    "make a plan"],
        "note": "Shipped in the crate and run as published (`process`, `unstable_protocol_v2`); "
        "rejects permission requests by design, prints only the agent's message text "
        "(control characters stripped), not plans. "
        "It found two faults of the suite's own v2 agent, fixed before this run: no "
        "`capabilities.session` (v2 then has no session methods) and a v1-shaped permission "
        "request.",
        "sees": {},
    },
    {
        "name": "acp-plan fake-client (the suite's reference client)",
        "version": "this checkout",
        "registry": "",
        "prefix": "",
        "installed": None,
        "install": None,
        "command": ["{acp_plan}", "fake-client", "--load", "saved-1", "--agent", "{agent}"],
        "note": "`acp-plan fake-client --load saved-1`: loads a session where the agent advertises "
        "`loadSession` (the `load` scenario), creates one elsewhere.",
        "sees": {},
    },
]


def install_rust_sdk(prefix):
    """The crate's source as published (its examples included), built with its example clients'
    features. The crate's own Cargo.lock is left out: it pins a yanked jiff-static."""
    fetch = prefix / "fetch"
    (fetch / "src").mkdir(parents=True, exist_ok=True)
    (fetch / "src" / "lib.rs").write_text("")
    (fetch / "Cargo.toml").write_text(
        '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n[workspace]\n'
        f'[dependencies]\nagent-client-protocol = "={RUST_SDK}"\n')
    done = subprocess.run(["cargo", "metadata", "--format-version", "1"], cwd=fetch,
                          capture_output=True, text=True)
    if done.returncode != 0:
        return f"cargo could not fetch the crate: {done.stderr.strip()[-300:]}"
    package = next(p for p in json.loads(done.stdout)["packages"]
                   if p["name"] == "agent-client-protocol")
    source = prefix / "src"
    if source.exists():
        shutil.rmtree(source)
    shutil.copytree(Path(package["manifest_path"]).parent, source)
    (source / "Cargo.lock").unlink(missing_ok=True)
    done = subprocess.run(["cargo", "build", "--features", "process,unstable_protocol_v2",
                           "--example", "yolo_one_shot_client", "--example", "v2_one_shot_client",
                           "--target-dir", str(prefix / "target")], cwd=source,
                          capture_output=True, text=True)
    if done.returncode != 0:
        return f"cargo build failed: {done.stderr.strip()[-300:]}"
    return None


def install(client, prefix):
    """None once the client is installed, else why it could not be."""
    if not client["install"] or (prefix / client["installed"]).exists():
        return None
    log(f"installing {client['name']} {client['version']} into {prefix}")
    if client["install"] == "rust":
        return install_rust_sdk(prefix)
    for step in client["install"]:
        done = subprocess.run([w.replace("{prefix}", str(prefix)) for w in step],
                              capture_output=True, text=True)
        if done.returncode != 0:
            return f"install failed: {done.stderr.strip()[-300:]}"
    return None


def log(message):
    print(f"client-matrix: {message}", file=sys.stderr)


def acp_plan():
    subprocess.run(["cargo", "build", "--quiet", "--bin", "acp-plan"], cwd=ROOT, check=True)
    return str(ROOT / "target" / "debug" / "acp-plan")


def run_client(client, binary):
    prefix = PEERS / client["prefix"] if client["prefix"] else None
    problem = install(client, prefix)
    if problem:
        return {"error": problem}
    command = [w.replace("{prefix}", str(prefix)).replace("{acp_plan}", binary)
               for w in client["command"]]
    slug = "".join(c if c.isalnum() else "-" for c in client["name"].lower()).strip("-")
    out = Path("/tmp/client-matrix") / slug
    log(f"running {' '.join(command)}")
    done = subprocess.run([binary, "client", "--format", "json", "--timeout", "30s", "--out", str(out),
                           "--", *command], capture_output=True, text=True)
    try:
        document = json.loads(done.stdout)
    except json.JSONDecodeError:
        return {"error": f"no report (exit {done.returncode}): {done.stderr.strip()[-300:]}"}
    scenarios = {}
    for s in document["client_scenarios"]:
        scenarios[s["name"]] = {
            "result": s["result"],
            "revision": s["revision"],
            "plan_operations": s["plan_operations"],
            "errors": s["errors"],
            "warnings": s["warnings"],
            "findings": sorted({f["id"] for f in s["findings"]}),
        }
    rules = sorted({d["rule"] for d in document["diagnostics"]})
    return {"result": document["result"], "scenarios": scenarios, "rules": rules}


def render(data):
    lines = [
        "# Client matrix",
        "",
        "What real headless ACP clients do with the plans a conformant agent may send, measured with",
        "`acp-plan client` ([live.md](live.md#testing-a-client-acp-plan-client)). Generated by",
        f"`scripts/client-matrix.py` on {data['date']} from `docs/clients.json`; do not edit by hand.",
        "",
        "Conformance errors and warnings are the client's own messages judged by the rules of",
        "`acp-plan check`; `ROBUST-*` findings are robustness and security findings (no MUST claimed).",
        "",
        "| client | version | negotiated | gate | " + " | ".join(f"`{s}`" for s in SCENARIOS)
        + " | client rules |",
        "|---|---|---|---|" + "---|" * len(SCENARIOS) + "---|",
    ]
    for row in data["clients"]:
        measured = row["measured"]
        if "error" in measured:
            lines.append(f"| {row['name']} | {row['version']} | | not run: {measured['error']} |"
                         + " |" * (len(SCENARIOS) + 1))
            continue
        cells = []
        for name in SCENARIOS:
            s = measured["scenarios"].get(name)
            if s is None:
                cells.append("")
                continue
            text = s["result"].replace("_", " ")
            if s["findings"]:
                text += ": " + ", ".join(s["findings"])
            cells.append(text)
        first = next(iter(measured["scenarios"].values()), {})
        ops = "on" if first.get("plan_operations") else "off"
        negotiated = f"{first.get('revision')}, plan operations {ops}" if first else ""
        rules = ", ".join(measured["rules"]) or "none"
        lines.append(f"| {row['name']} | {row['version']} | {negotiated} | {measured['result']} | "
                     + " | ".join(cells) + f" | {rules} |")
    lines += ["", "## Clients", ""]
    for row in data["clients"]:
        registry = f", {row['registry']}" if row.get("registry") else ""
        lines.append(f"- **{row['name']}** ({row['version']}{registry}): {row.get('note', '')}")
    lines += ["", "## Findings", ""]
    any_finding = False
    for row in data["clients"]:
        for finding, text in sorted(row.get("sees", {}).items()):
            found = [n for n, s in row["measured"].get("scenarios", {}).items() if finding in s["findings"]]
            if found:
                any_finding = True
                lines.append(f"- **{row['name']} {row['version']}, {finding}** (in "
                             + ", ".join(f"`{n}`" for n in found) + f"): {text}")
    if not any_finding:
        lines.append("None.")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--render", action="store_true")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    if args.check:
        data = json.loads(JSON_PATH.read_text())
        if MD_PATH.read_text() != render(data):
            print("docs/clients.md is not what docs/clients.json renders to: "
                  "run scripts/client-matrix.py --render", file=sys.stderr)
            return 1
        return 0
    if not args.render:
        binary = acp_plan()
        rows = []
        for client in CLIENTS:
            rows.append({"name": client["name"], "version": client["version"],
                         "registry": client["registry"], "note": client["note"],
                         "sees": client["sees"],
                         "measured": run_client(client, binary)})
        data = {"date": datetime.date.today().isoformat(), "clients": rows}
        JSON_PATH.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    data = json.loads(JSON_PATH.read_text())
    MD_PATH.write_text(render(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
