#!/usr/bin/env python3
"""Interop matrix of real ACP agents (opt-in; not part of CI).

Installs each agent from npm or PyPI into $PEERS (default /tmp/peers), starts its scripted model
server on 127.0.0.1 (scripts/peers/fake_*.py), drives it with `acp-plan agent` (every scenario
that applies, `--format json`, `--out` transcripts), re-checks each transcript with
`acp-plan check`, and writes

  docs/interop.json               the results (one entry per agent and version; a partial run
                                  replaces only the rows it ran)
  docs/interop.md                 the table generated from docs/interop.json
  corpus/traces/interop/*.jsonl   the transcripts, large payloads no rule reads trimmed
  corpus/traces/interop/expected.json   what `acp-plan check` reports on each of them, which
                                  `cargo test` keeps (conformance/tests/suite/cli.rs)

Usage:
  scripts/interop.py [ROW...]        run the rows (default: all), then regenerate the documents
  scripts/interop.py --list          the rows
  scripts/interop.py --render        regenerate docs/interop.md from docs/interop.json only
  scripts/interop.py --check         exit 1 if docs/interop.md is not what docs/interop.json
                                     renders to (CI runs this; it needs no agent)
  scripts/interop.py --recheck       after a change to the suite: `acp-plan check` every kept
                                     transcript again, print what changed and rewrite
                                     expected.json (no agent runs; judge every change printed)

A ROW is an agent id (every version of it) or AGENT@VERSION. Needs cargo, node/npm, python3.
Nothing leaves the machine once the agents are installed: the model APIs are the fake servers.
A row that cannot run (install failure, agent missing, no report) is recorded with the reason,
printed, and shown in the table; it is never dropped. Exit status: 0 when every requested row
ran, 1 otherwise (whatever the verdicts), 2 on usage errors.
"""
import argparse
import collections
import datetime
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PEER_SCRIPTS = os.path.join(HERE, "peers")
PEERS = os.environ.get("PEERS", "/tmp/peers")
OUT = os.environ.get("OUT", os.path.join(ROOT, "target", "interop"))
WORKDIR = os.environ.get("WORKDIR", "/tmp/acp-plan-interop-work")  # the agents' and sessions' cwd
RESULTS = os.path.join(ROOT, "docs", "interop.json")
DOC = os.path.join(ROOT, "docs", "interop.md")
TRACES = os.path.join(ROOT, "corpus", "traces", "interop")
EXPECTED = os.path.join(TRACES, "expected.json")
ACP = os.environ.get("ACP_PLAN", os.path.join(ROOT, "target", "release", "acp-plan"))

PLAN_KINDS = ("plan", "plan_update", "plan_removed")
# Outside plan messages, the kept transcripts shorten strings longer than TRIM_OVER characters
# and lists longer than TRIM_ITEMS items (command lists, tool output): no rule reads them.
TRIM_OVER = 400
TRIM_ITEMS = 5


# --------------------------------------------------------------------------- the agents

class Run:
    """One `acp-plan agent` invocation against one scripted model server."""

    def __init__(self, name, server, script, args=(), note=""):
        self.name, self.server, self.script, self.args, self.note = name, server, script, list(args), note


class Agent:
    """One row: an agent at one version, how to install and start it, and its runs."""

    def __init__(self, agent, version, registry, package, runs, command, env, setup=None, notes=(),
                 label=None):
        self.agent, self.version, self.registry, self.package = agent, version, registry, package
        self.runs, self.command, self.env, self.setup = runs, command, env, setup
        self.notes, self.label = list(notes), label or agent

    @property
    def key(self):
        return "%s@%s" % (self.agent, self.version)

    @property
    def prefix(self):
        """Where the package is installed."""
        return os.path.join(PEERS, "%s-%s" % (self.registry, self.key.replace("@", "-").replace("/", "-")))

    def trace_prefix(self):
        """Kept transcripts of this row are named PREFIX-RUN-SCENARIO.jsonl."""
        return "%s-%s-" % (self.agent, self.version)


def node_module(agent, *path):
    return os.path.join(agent.prefix, "node_modules", *path)


def claude_env(agent, home, port):
    return {"HOME": home, "IS_SANDBOX": "1", "ANTHROPIC_BASE_URL": "http://127.0.0.1:%d" % port,
            "ANTHROPIC_API_KEY": "sk-ant-fake-offline", "ENABLE_TOOL_SEARCH": "false",
            "CLAUDE_CODE_ENABLE_TODO_TOOLS": "true", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1"}


def codex_setup(agent, home, port):
    os.makedirs(os.path.join(home, "codex"), exist_ok=True)
    text = open(os.path.join(PEER_SCRIPTS, "codex-config.toml")).read()
    with open(os.path.join(home, "codex", "config.toml"), "w") as fh:
        fh.write(text.replace("127.0.0.1:18124", "127.0.0.1:%d" % port))


def codex_env(agent, home, port):
    return {"HOME": home, "CODEX_HOME": os.path.join(home, "codex"), "OPENAI_API_KEY": "sk-fake-offline",
            "NO_BROWSER": "1"}


def gemini_env(agent, home, port):
    return {"HOME": home, "GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:%d" % port,
            "GEMINI_API_KEY": "fake-offline-key", "GEMINI_CLI_NO_RELAUNCH": "true",
            "NO_BROWSER": "1"}


def gemini_setup(agent, home, port):
    os.makedirs(os.path.join(home, ".gemini"), exist_ok=True)
    with open(os.path.join(home, ".gemini", "settings.json"), "w") as fh:
        json.dump({"security": {"auth": {"selectedType": "gemini-api-key"}},
                   "privacy": {"usageStatisticsEnabled": False},
                   "general": {"disableAutoUpdate": True}}, fh)


def qwen_setup(agent, home, port):
    os.makedirs(os.path.join(home, ".qwen"), exist_ok=True)
    with open(os.path.join(home, ".qwen", "settings.json"), "w") as fh:
        json.dump({"security": {"auth": {"selectedType": "openai"}},
                   "tools": {"todoWrite": {"enabled": True}},
                   "privacy": {"usageStatisticsEnabled": False},
                   "general": {"disableAutoUpdate": True}}, fh)


def qwen_env(agent, home, port):
    return {"HOME": home, "OPENAI_BASE_URL": "http://127.0.0.1:%d/v1" % port,
            "OPENAI_API_KEY": "sk-fake-offline", "OPENAI_MODEL": "fake-model"}


def opencode_setup(agent, home, port):
    os.makedirs(home, exist_ok=True)
    text = open(os.path.join(PEER_SCRIPTS, "opencode-config.json")).read()
    with open(os.path.join(home, "opencode.json"), "w") as fh:
        fh.write(text.replace("127.0.0.1:18141", "127.0.0.1:%d" % port))


def opencode_env(agent, home, port):
    # The config stays in the agent's own HOME: opencode also reads opencode.json from the
    # parent folders of its cwd.
    return {"HOME": home, "OPENCODE_CONFIG": os.path.join(home, "opencode.json"),
            "XDG_CONFIG_HOME": os.path.join(home, ".config"), "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
            "XDG_CACHE_HOME": os.path.join(home, ".cache"), "XDG_STATE_HOME": os.path.join(home, ".local", "state"),
            "OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_LSP_DOWNLOAD": "true"}


# A replan through the agent: two pending todos dropped, one of them back later with another
# status (the agent MAY remove entries: FULL-DELTA must stay silent).
REPLAN_NOTE = "replan: two pending todos dropped, one back later in progress"


def opencode_row(version, notes, more_runs=()):
    return Agent(
        "opencode", version, "npm", "opencode-ai",
        [Run("todowrite", "fake_openai_chat.py", "script_opencode_todos.json",
             note="todowrite: pending, in_progress, completed, cancelled"),
         Run("custom-status", "fake_openai_chat.py", "script_opencode_custom_status.json",
             ["--scenario", "capability"], note="todowrite with a status outside the spec's three")]
        + list(more_runs),
        lambda a: [node_module(a, "opencode-linux-x64", "bin", "opencode"), "acp"],
        opencode_env, opencode_setup, notes=notes)


AGENTS = [
    Agent("claude-agent-acp", "0.101.0", "npm", "@agentclientprotocol/claude-agent-acp",
          [Run("tasks", "fake_anthropic.py", "script_tasks.json",
               note="TaskCreate/TaskUpdate turn"),
           Run("exitplan", "fake_anthropic.py", "script_exitplan.json", note="ExitPlanMode turn")],
          lambda a: ["node", node_module(a, "@agentclientprotocol", "claude-agent-acp", "dist", "index.js")],
          claude_env,
          notes=["legacy `plan` from TaskCreate/TaskUpdate, with or without the capability: the "
                 "same list is often sent twice in a row, the task in progress shows its "
                 "`activeForm` as `content`, and a deleted task just leaves the list",
                 "`plan_update` markdown (`planId` `plan-mode`) from ExitPlanMode, only when the "
                 "client advertises `plan: {}`; without it ExitPlanMode sends no plan message"]),
    Agent("codex-acp", "2.6.0", "npm", "@agentclientprotocol/codex-acp",
          [Run("update-plan", "fake_openai.py", "script_update_plan.json", note="update_plan tool"),
           Run("update-plan-v2", "fake_openai.py", "script_update_plan.json", ["--spec", "v2"],
               note="the client speaks protocol v2"),
           # The proposed-plan server counts requests per process: one scenario (plus load) per server.
           Run("proposed-plan", "fake_openai.py", "script_proposed_plan.json",
               ["--scenario", "load", "--prompt", "/plan", "--prompt", "Fix the failing test"],
               note="/plan mode, then a task"),
           Run("proposed-plan-no-cap", "fake_openai.py", "script_proposed_plan.json",
               ["--scenario", "no-capability", "--prompt", "/plan", "--prompt", "Fix the failing test"],
               note="/plan mode without the capability")],
          lambda a: ["node", node_module(a, "@agentclientprotocol", "codex-acp", "dist", "index.js")],
          codex_env, codex_setup,
          notes=["legacy `plan` from update_plan to a v1 client; a v2 client gets `plan_update` "
                 "items instead",
                 "`/plan` mode: `plan_update` markdown when the client advertises `plan: {}`; "
                 "without it the proposed plan arrives as an `agent_message_chunk`",
                 "its `session/load` replay, and under v2 its `session/resume` from the start, "
                 "leave out the update_plan plan (LOAD-REPLAY-MISSING) but replay the proposed "
                 "plan"]),
    Agent("gemini-cli", "0.61.0", "npm", "@google/gemini-cli",
          [Run("write-todos", "fake_gemini.py", "script_gemini_todos.json")],
          lambda a: ["node", node_module(a, "@google", "gemini-cli", "bundle", "gemini.js"), "--acp",
                     "-m", "gemini-2.5-flash"],
          gemini_env, gemini_setup,
          notes=["no plan message: `write_todos` shows only as `tool_call` / `tool_call_update`",
                 "`session/load` fails when it falls in the same UTC minute as the `session/new` "
                 "it loads: -32603 \"Invalid session identifier\", though the session's chat file "
                 "is in the folder the error names. Seen in three runs on 2026-11-23: new and load "
                 "at 02:19/02:19 and 02:44/02:44 failed, 02:31/02:32 passed. A gemini-cli bug, "
                 "not a plan rule; the `load` row shows what the run above saw"]),
    Agent("qwen-code", "0.24.4", "npm", "@qwen-code/qwen-code",
          [Run("todo-write", "fake_openai_chat.py", "script_qwen_todos.json"),
           Run("replan", "fake_openai_chat.py", "script_qwen_replan.json", ["--scenario", "no-capability"],
               note=REPLAN_NOTE)],
          lambda a: ["node", node_module(a, "@qwen-code", "qwen-code", "cli.js"), "--acp"],
          qwen_env, qwen_setup,
          notes=["legacy `plan` from `todo_write`, with or without the capability; `priority` is "
                 "always `medium` (todo_write has none) and entries carry `_meta`"]),
    opencode_row("1.18.33", ["newest on the registry when this table was made; no plan message: "
                             "todos show only as `tool_call`s"]),
    opencode_row("1.15.13", ["the first published version after 1.15.4, and the first without plan "
                             "messages (todos only as `tool_call`s): the boundary"]),
    opencode_row("1.15.4", ["the last version that sends plans (1.15.5 to 1.15.12 were never "
                            "published): legacy `plan` from `todowrite`, the full list each time, "
                            "with or without the capability",
                            "`priority` is always `medium` (the todo's own priority is dropped), "
                            "`cancelled` becomes `completed`, and any other status string "
                            "(`blocked`) is forwarded unchanged: SHAPE-STATUS"],
                 [Run("replan", "fake_openai_chat.py", "script_opencode_replan.json",
                      ["--scenario", "no-capability"], note=REPLAN_NOTE)]),
    Agent("python-sdk", "0.12.1", "pip", "agent-client-protocol",
          [Run("plan-agent", None, None, note="scripts/peers/py_plan_agent.py")],
          lambda a: ["python3", os.path.join(PEER_SCRIPTS, "py_plan_agent.py")],
          lambda a, home, port: {"PYTHONPATH": a.prefix, "HOME": home},
          label="Python SDK (`agent-client-protocol`) minimal agent"),
    Agent("typescript-sdk", "2.4.0", "npm", "@agentclientprotocol/sdk",
          [Run("plan-agent", None, None, note="scripts/peers/ts_plan_agent.mjs")],
          lambda a: ["node", os.path.join(PEER_SCRIPTS, "ts_plan_agent.mjs")],
          lambda a, home, port: {"ACP_SDK_NODE_MODULES": node_module(a), "HOME": home},
          label="TypeScript SDK (`@agentclientprotocol/sdk`) minimal agent"),
]

# Judgements of the diagnostics the runs produce, by (agent, rule): whether the diagnostic is a
# true violation by the agent or a suite bug (and where it was fixed). A diagnostic without a
# judgement is printed and shown as "unjudged" in the table: someone has to look at it.
JUDGEMENTS = {
    ("codex-acp", "LOAD-REPLAY-MISSING"):
        "true finding (warning): the replay (`session/load`; under v2 `session/resume` from the "
        "start) gives the conversation without the plan the live session ended with (the "
        "update_plan plan is not replayed); the spec's replay MUST does not say whether plans are "
        "part of the conversation, hence a warning",
    ("opencode", "SHAPE-STATUS"):
        "true violation: opencode copies the todo's status string into the plan entry unchecked "
        "(its todowrite tool takes any string); `blocked` is not a v1 status",
}


def judgement(agent, diagnostic):
    if diagnostic.get("sender") == "client_to_agent":
        return ("not the agent's: the diagnostic is about the client's own message (in "
                "`other-revision-key` the client spells the other revision's key on purpose); "
                "`acp-plan agent` never counts it against the agent")
    return JUDGEMENTS.get((agent, diagnostic["rule"]))


def sender(transcript, line):
    """Who sent transcript line `line` (1-based): client_to_agent, agent_to_client or None."""
    if not transcript or not line or not os.path.exists(transcript):
        return None
    with open(transcript, encoding="utf-8", errors="replace") as fh:
        for n, text in enumerate(fh, start=1):
            if n == line:
                try:
                    return json.loads(text).get("direction")
                except (ValueError, AttributeError):
                    return None
    return None


# --------------------------------------------------------------------------- helpers

def log(msg):
    print(msg, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def install(agent):
    """Install the row's package when missing. Returns None or the reason it failed."""
    if agent.agent == "typescript-sdk":
        probe = node_module(agent, "@agentclientprotocol", "sdk", "package.json")
    elif agent.registry == "pip":
        probe = os.path.join(agent.prefix, "acp")
    else:
        probe = next(p for p in agent.command(agent) if p.startswith(agent.prefix))
    if os.path.exists(probe):
        return None
    os.makedirs(agent.prefix, exist_ok=True)
    spec = "%s@%s" % (agent.package, agent.version) if agent.registry == "npm" else "%s==%s" % (agent.package, agent.version)
    log("installing %s into %s (about 400 MB for an npm agent)" % (spec, agent.prefix))
    if agent.registry == "npm":
        cmd = ["npm", "install", "--no-audit", "--no-fund", "--prefix", agent.prefix, "--ignore-scripts", spec]
    else:
        cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--target", agent.prefix, spec]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        tail = " ".join(p.stdout.strip().splitlines()[-3:])
        return "install failed (%s): %s" % (" ".join(cmd[:2]), tail[-300:])
    if not os.path.exists(probe):
        return "installed, but %s is missing" % probe
    return None


def registry_latest(agent):
    """The newest version the registry serves, to show how far the pinned row is behind."""
    try:
        if agent.registry == "npm":
            p = subprocess.run(["npm", "view", agent.package, "version"], capture_output=True, text=True, timeout=60)
            return p.stdout.strip().splitlines()[-1] if p.returncode == 0 and p.stdout.strip() else None
        p = subprocess.run([sys.executable, "-m", "pip", "index", "versions", agent.package],
                           capture_output=True, text=True, timeout=60)
        m = re.search(r"\((\S+)\)", p.stdout)
        return m.group(1) if m else None
    except (OSError, subprocess.TimeoutExpired):
        return None


class Server:
    def __init__(self, server, script):
        self.port = free_port()
        # Its stderr (tracebacks when an agent hangs up mid-answer) goes beside its log.
        with open(os.path.join(PEERS, "%s.stderr" % server), "a") as err:
            self.proc = subprocess.Popen([sys.executable, os.path.join(PEER_SCRIPTS, server), str(self.port),
                                          os.path.join(PEER_SCRIPTS, script)],
                                         env=dict(os.environ, FAKE_LOG_DIR=PEERS), stderr=err)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("fake server %s did not start" % server)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def build():
    log("building acp-plan (release)")
    subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "acp-plan"], cwd=ROOT, check=True)


# --------------------------------------------------------------------------- transcripts

def plan_messages(transcript):
    """(kind, detail) of every plan message the agent sent in a transcript."""
    found = []
    with open(transcript, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            try:
                env = json.loads(line)
            except ValueError:
                continue
            if not isinstance(env, dict) or env.get("direction") != "agent_to_client":
                continue
            msg = env.get("message")
            if not isinstance(msg, dict) or msg.get("method") != "session/update":
                continue
            update = (msg.get("params") or {}).get("update") or {}
            kind = update.get("sessionUpdate") if isinstance(update, dict) else None
            if kind == "plan_update":
                plan = update.get("plan") if isinstance(update.get("plan"), dict) else {}
                found.append("plan_update %s" % plan.get("type"))
            elif kind in PLAN_KINDS:
                found.append(kind)
    return found


def trim(value, in_plan=False):
    """Long strings and lists outside plan messages shortened: no rule reads them."""
    if isinstance(value, str):
        if not in_plan and len(value) > TRIM_OVER:
            return value[:TRIM_OVER] + "…[trimmed %d chars]" % (len(value) - TRIM_OVER)
        return value
    if isinstance(value, list):
        kept = value if in_plan or len(value) <= TRIM_ITEMS else value[:TRIM_ITEMS]
        return [trim(v, in_plan) for v in kept]
    if isinstance(value, dict):
        plan = in_plan or value.get("sessionUpdate") in PLAN_KINDS
        return {k: trim(v, plan) for k, v in value.items()}
    return value


def trim_transcript(src, dst, scrub):
    """Copy a transcript, trimming long strings outside plan messages and replacing the
    private paths in `scrub` (a list of (from, to)); untouched lines stay byte for byte."""
    with open(src, encoding="utf-8", errors="surrogateescape") as fh, \
            open(dst, "w", encoding="utf-8", errors="surrogateescape") as out:
        for line in fh:
            text = line.rstrip("\n")
            try:
                env = json.loads(text)
            except ValueError:
                out.write(line)
                continue
            new = trim(env)
            compact = json.dumps(new, ensure_ascii=False, separators=(",", ":"))
            for a, b in scrub:
                compact = compact.replace(json.dumps(a)[1:-1], json.dumps(b)[1:-1])
            if new == env and not any(json.dumps(a)[1:-1] in text for a, _ in scrub):
                out.write(line)
            else:
                out.write(compact + "\n")


def check(trace, spec):
    """`acp-plan check` of a transcript: (diagnostics as [rule, severity, line], document)."""
    cmd = [ACP, "check", "--format", "json"] + (["--spec", spec] if spec != "auto" else []) + [trace]
    p = subprocess.run(cmd, capture_output=True, text=True)
    doc = json.loads(p.stdout)
    return [[d["rule"], d["severity"], d.get("line")] for d in doc["diagnostics"]], doc


# --------------------------------------------------------------------------- running a row

def run_agent(agent, run, home, port):
    out = os.path.join(OUT, agent.key, run.name)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out, exist_ok=True)
    args = [ACP, "agent", "--format", "json", "--out", out, "--cwd", WORKDIR, "--timeout", "120s"] + run.args
    for k, v in agent.env(agent, home, port).items():
        args += ["--env", "%s=%s" % (k, v)]
    args += ["--"] + agent.command(agent)
    report, stderr = out + ".json", out + ".stderr"
    t0 = time.time()
    with open(report, "w") as fo, open(stderr, "w") as fe:
        status = subprocess.run(args, stdout=fo, stderr=fe).returncode
    return out, report, stderr, status, time.time() - t0


def spec_of(run, scenario):
    if "--spec" in run.args:
        return run.args[run.args.index("--spec") + 1]
    # The client speaks v1 and spells the capability the other way on purpose: detection would
    # take that spelling at its word, so the run fixes v1 (README, `acp-plan agent`).
    return "v1" if scenario == "other-revision-key" else "auto"


def run_row(agent, expected):
    row = {"agent": agent.agent, "label": agent.label, "version": agent.version,
           "registry": agent.registry, "package": agent.package, "notes": list(agent.notes),
           "runs": [], "status": "ran", "reason": None}
    row["registry_latest"] = registry_latest(agent)
    problem = install(agent)
    if problem:
        row.update(status="could not run", reason=problem)
        log("%s: COULD NOT RUN: %s" % (agent.key, problem))
        return row
    for run in agent.runs:
        home = os.path.join(PEERS, "interop-home", agent.key, run.name)
        shutil.rmtree(home, ignore_errors=True)
        os.makedirs(home, exist_ok=True)
        server = None
        entry = {"name": run.name, "note": run.note, "args": run.args, "scenarios": [], "diagnostics": []}
        row["runs"].append(entry)
        try:
            port = 0
            if run.server:
                server = Server(run.server, run.script)
                port = server.port
            if agent.setup:
                agent.setup(agent, home, port)
            log("%s %s: acp-plan agent %s" % (agent.key, run.name, " ".join(run.args)))
            out, report, stderr, status, seconds = run_agent(agent, run, home, port)
        except (RuntimeError, OSError) as e:
            entry["error"] = str(e)
            log("%s %s: COULD NOT RUN: %s" % (agent.key, run.name, e))
            continue
        finally:
            if server:
                server.stop()
        entry["exit_status"], entry["seconds"] = status, round(seconds, 1)
        try:
            doc = json.load(open(report))
        except ValueError:
            tail = open(stderr, errors="replace").read().strip().splitlines()[-3:]
            entry["error"] = "no report (exit %d): %s" % (status, " ".join(tail)[-300:])
            log("%s %s: COULD NOT RUN: %s" % (agent.key, run.name, entry["error"]))
            continue
        entry["result"] = doc.get("result")
        for s in doc["scenarios"]:
            sc = {k: s.get(k) for k in ("name", "result", "reason", "errors", "warnings", "infos")}
            sc["plan_messages"] = []
            if s.get("transcript") and os.path.exists(s["transcript"]):
                sc["plan_messages"] = sorted(set(plan_messages(s["transcript"])))
                kept = keep_transcript(agent, run, s["name"], s["transcript"], home, expected)
                sc["trace"] = kept
            entry["scenarios"].append(sc)
            log("  %-20s %-14s e=%s w=%s %s" % (s["name"], s["result"], s["errors"], s["warnings"],
                                               (s.get("reason") or "")[:110]))
        transcripts = {s["name"]: s.get("transcript") for s in doc["scenarios"]}
        for d in doc["diagnostics"]:
            scenario = d.get("file")
            entry["diagnostics"].append({
                "rule": d["rule"], "severity": d["severity"], "scenario": scenario,
                "line": d.get("line"), "pointer": d.get("pointer"), "message": d.get("message"),
                "sender": sender(transcripts.get(scenario), d.get("line"))})
            if not judgement(agent.agent, entry["diagnostics"][-1]):
                log("  UNJUDGED %s %s %s:%s %s" % (d["severity"], d["rule"], scenario, d.get("line"),
                                                  (d.get("message") or "")[:120]))
    return row


def keep_transcript(agent, run, scenario, transcript, home, expected):
    """Copy a transcript into corpus/traces/interop/ (trimmed) and record what `check` says of
    it; the trimmed copy must draw the same diagnostics as the original."""
    os.makedirs(TRACES, exist_ok=True)
    name = "%s-%s-%s-%s.jsonl" % (agent.agent, agent.version, run.name, scenario)
    dst = os.path.join(TRACES, name)
    trim_transcript(transcript, dst, [(home, "/home/agent"), (PEERS, "/peers")])
    spec = spec_of(run, scenario)
    before, _ = check(transcript, spec)
    after, _ = check(dst, spec)
    if before != after:
        log("  trimming changed the diagnostics of %s; keeping it untrimmed" % name)
        shutil.copyfile(transcript, dst)
        after = before
    rel = os.path.relpath(dst, ROOT)
    expected[rel] = {"spec": spec, "diagnostics": after}
    return rel


# --------------------------------------------------------------------------- the document

def capability_honoured(row):
    """Whether plan operations stayed away from the scenarios without the capability."""
    without, with_cap = [], []
    for run in row["runs"]:
        if "--spec" in run.get("args", []):
            continue  # v2 has no capability
        for s in run["scenarios"]:
            ops = [k for k in s.get("plan_messages", []) if k != "plan"]
            if s["name"] in ("no-capability", "capability-null", "other-revision-key"):
                without.append(ops)
            elif s["name"] == "capability":
                with_cap.append(ops)
    if not without and not with_cap:
        return "not exercised"
    if any(without):
        return "no: plan operations without the capability"
    if any(with_cap):
        return "yes"
    return "n/a: no plan operations sent"


def sent_kinds(row):
    """The plan messages of every run; those seen only with a v2 client are marked."""
    v1, v2 = set(), set()
    for run in row["runs"]:
        for s in run["scenarios"]:
            (v2 if "--spec" in run.get("args", []) else v1).update(s.get("plan_messages", []))
    order = ["plan", "plan_update items", "plan_update markdown", "plan_update file", "plan_removed"]
    kinds = sorted(v1 | v2, key=lambda k: order.index(k) if k in order else len(order))
    return [k if k in v1 else "%s (v2 client)" % k for k in kinds]


def findings(rows):
    """A few lines derived from the rows (nothing hand-written, so nothing goes stale)."""
    def names(pred):
        return ", ".join("%s %s" % (r["agent"], r["version"]) for r in rows if r["status"] == "ran" and pred(r)) or "none"
    def kinds(r):
        return {k.split(" (")[0] for k in sent_kinds(r)}
    agent_diags = collections.Counter()
    for r in rows:
        for run in r["runs"]:
            for d in run["diagnostics"]:
                if d.get("sender") != "client_to_agent":
                    agent_diags["%s %s `%s` (%s)" % (r["agent"], r["version"], d["rule"], d["severity"])] += 1
    failed = ["%s %s %s" % (r["agent"], r["version"], s["name"]) for r in rows for run in r["runs"]
              for s in run["scenarios"] if s["result"] == "fail" and not s["errors"] and not s["warnings"]]
    return [
        "- Plan operations (`plan_update`, `plan_removed`): %s." % names(lambda r: kinds(r) - {"plan"}),
        "- Only the legacy `plan`: %s." % names(lambda r: kinds(r) == {"plan"}),
        "- No plan message at all: %s." % names(lambda r: not kinds(r)),
        "- Plan operations sent without the capability: %s." % names(
            lambda r: capability_honoured(r).startswith("no")),
        "- Diagnostics against an agent: %s." % (", ".join(
            "%s ×%d" % (k, n) for k, n in sorted(agent_diags.items())) or "none"),
        "- Scenarios that failed without a diagnostic (a setup request failed): %s." % (
            ", ".join(failed) or "none"),
        "- Could not run: %s." % (", ".join("%s %s (%s)" % (r["agent"], r["version"], r["reason"])
                                           for r in rows if r["status"] != "ran") or "nothing"),
    ]


def current_notes(row):
    """The catalogue's notes for a row (they are edited after a run), else the stored ones."""
    for agent in AGENTS:
        if (agent.agent, agent.version) == (row["agent"], row["version"]):
            return agent.notes
    return row.get("notes", [])


def code_kind(kind):
    base, marked, note = kind.partition(" (")
    return "`%s`" % base + (" (" + note if marked else "")


def rechecked(scenario, expected):
    """What `acp-plan check` says of a kept transcript today that the run did not: the errors
    against the agent (by the transcript's sender) when the run counted none. The suite's rules
    move after a run (a new release, a fixed verdict); `cargo test` keeps expected.json current,
    so the document shows the verdict of today beside the one of the run."""
    known = expected.get(scenario.get("trace") or "")
    if not known or scenario["errors"]:
        return None
    trace = os.path.join(ROOT, scenario["trace"])
    errors = [(rule, line) for rule, severity, line in known["diagnostics"]
              if severity == "error" and sender(trace, line) != "client_to_agent"]
    if not errors:
        return None
    return known["spec"], errors


def render(results, expected=None):
    rows = results["rows"]
    if expected is None:
        expected = json.load(open(EXPECTED)) if os.path.exists(EXPECTED) else {}
    # Today's verdict of each scenario's kept transcript, read once.
    today = {id(s): rechecked(s, expected) for r in rows if r["status"] == "ran"
             for run in r["runs"] for s in run["scenarios"]}
    lines = [
        "# Interop matrix: real ACP agents and their plan messages",
        "",
        "Generated by `scripts/interop.sh` (see [scripts/README.md](../scripts/README.md)) from "
        "[interop.json](interop.json); do not edit by hand.",
        "Each agent ran offline against a scripted model server on 127.0.0.1 (`scripts/peers/`), "
        "driven by `acp-plan agent` through every scenario that applies; the transcripts are kept "
        "under [`corpus/traces/interop/`](../corpus/traces/interop/) and `cargo test` re-checks them.",
        "",
        "Run: %s, acp-plan %s, node %s, python %s." % (
            results.get("date"), results.get("acp_plan"), results.get("node"), results.get("python")),
        "",
        "## Summary",
        "",
        "| agent | version | registry newest | plan messages sent | capability honoured | scenarios | diagnostics against the agent |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if r["status"] != "ran":
            lines.append("| %s | %s | %s | — | — | **could not run**: %s | — |" % (
                r["label"], r["version"], r.get("registry_latest") or "?", r["reason"]))
            continue
        counts = {}
        diags = {}
        for run in r["runs"]:
            if run.get("error"):
                counts["could not run"] = counts.get("could not run", 0) + 1
            for s in run["scenarios"]:
                result = "fail" if today[id(s)] else s["result"]
                counts[result] = counts.get(result, 0) + 1
            for d in run["diagnostics"]:
                if d.get("sender") == "client_to_agent":
                    continue  # the client's own message (other-revision-key): not the agent's
                key = "%s %s" % (d["severity"], d["rule"])
                diags[key] = diags.get(key, 0) + 1
        kinds = sent_kinds(r)
        lines.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            r["label"], r["version"], r.get("registry_latest") or "?",
            ", ".join(code_kind(k) for k in kinds) or "none",
            capability_honoured(r),
            ", ".join("%d %s" % (n, k.replace("_", " ")) for k, n in sorted(counts.items())),
            ", ".join("%s ×%d" % (k, n) for k, n in sorted(diags.items())) or "none"))
    changed = ["%s %s %s %s (judged by `--spec %s`): %s" % (
        r["agent"], r["version"], run["name"], s["name"], now[0],
        ", ".join("`%s` (error) at line %d" % e for e in now[1]))
        for r in rows if r["status"] == "ran" for run in r["runs"] for s in run["scenarios"]
        for now in [today[id(s)]] if now]
    lines += ["", "## What the runs show", ""] + findings(rows)
    lines += ["- Verdicts that changed since the run (the rules moved; `acp-plan check` re-judges "
              "the kept transcript): %s." % ("; ".join(changed) or "none")]
    lines += ["", "## Per agent", ""]
    for r in rows:
        lines.append("### %s %s" % (r["label"], r["version"]))
        lines.append("")
        lines.append("Package `%s` (%s)." % (r["package"], r["registry"]))
        lines.append("")
        if r["status"] != "ran":
            lines += ["**Could not run:** %s" % r["reason"], ""]
            continue
        for note in current_notes(r):
            lines.append("- %s" % note)
        lines.append("")
        lines.append("| run | scenario | result | plan messages | errors | warnings | reason |")
        lines.append("|---|---|---|---|---|---|---|")
        for run in r["runs"]:
            label = run["name"] + (" (%s)" % run["note"] if run.get("note") else "")
            if run.get("error"):
                lines.append("| %s | — | **could not run** | — | — | — | %s |" % (label, md(run["error"])))
            for s in run["scenarios"]:
                trace = "[%s](../%s)" % (s["name"], s["trace"]) if s.get("trace") else s["name"]
                now = today[id(s)]
                result = s["result"] if not now else "%s in the run; **fail** re-checked (%s)" % (
                    s["result"], ", ".join("`%s` line %d" % e for e in now[1]))
                lines.append("| %s | %s | %s | %s | %d | %d | %s |" % (
                    label, trace, result, ", ".join("`%s`" % k for k in s["plan_messages"]) or "none",
                    s["errors"], s["warnings"], md(s.get("reason") or "")))
        diags = [(run["name"], d) for run in r["runs"] for d in run["diagnostics"]]
        if diags:
            lines += ["", "Diagnostics:", "", "| run | scenario:line | rule | severity | judgement | message |",
                      "|---|---|---|---|---|---|"]
            for name, d in diags:
                lines.append("| %s | %s:%s | `%s` | %s | %s | %s |" % (
                    name, d["scenario"], d["line"], d["rule"], d["severity"],
                    md(judgement(r["agent"], d) or "**unjudged**"),
                    md((d.get("message") or "")[:200])))
        lines.append("")
    return "\n".join(lines) + "\n"


def md(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def load_results():
    try:
        return json.load(open(RESULTS))
    except (OSError, ValueError):
        return {"rows": []}


def tool_versions():
    def out(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True).stdout.strip()
        except OSError:
            return "?"
    return {"acp_plan": out([ACP, "--version"]).replace("acp-plan ", ""), "node": out(["node", "--version"]),
            "python": sys.version.split()[0]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rows", nargs="*")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--render", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--recheck", action="store_true")
    ap.add_argument("--no-build", action="store_true", help="use the acp-plan binary as it is")
    opts = ap.parse_args()
    if opts.list:
        for a in AGENTS:
            log("%-28s %s %s (%s)" % (a.key, a.registry, a.package, ", ".join(r.name for r in a.runs)))
        return 0
    results = load_results()
    if opts.recheck:
        if not opts.no_build:
            build()
        return recheck()
    if opts.check:
        return check_doc(DOC, render(results))
    if opts.render:
        write_doc(results)
        return 0
    chosen = []
    for want in opts.rows or [a.key for a in AGENTS]:
        hits = [a for a in AGENTS if want in (a.agent, a.key)]
        if not hits:
            log("unknown row %s (see --list)" % want)
            return 2
        chosen += [a for a in hits if a not in chosen]
    if not opts.no_build:
        build()
    os.makedirs(OUT, exist_ok=True)
    os.makedirs(WORKDIR, exist_ok=True)
    try:
        expected = json.load(open(EXPECTED))
    except (OSError, ValueError):
        expected = {}
    by_key = {"%s@%s" % (r["agent"], r["version"]): r for r in results["rows"]}
    failed = []
    for agent in chosen:
        # The row's transcripts from an earlier run go: scenarios and runs may have changed.
        for stale in [k for k in expected if os.path.basename(k).startswith(agent.trace_prefix())]:
            del expected[stale]
        for name in os.listdir(TRACES) if os.path.isdir(TRACES) else []:
            if name.startswith(agent.trace_prefix()) and name.endswith(".jsonl"):
                os.remove(os.path.join(TRACES, name))
        row = run_row(agent, expected)
        by_key[agent.key] = row
        if row["status"] != "ran" or any(run.get("error") for run in row["runs"]):
            failed.append(agent.key)
    order = [a.key for a in AGENTS]
    results["rows"] = sorted(by_key.values(), key=lambda r: order.index("%s@%s" % (r["agent"], r["version"]))
                             if "%s@%s" % (r["agent"], r["version"]) in order else len(order))
    results["date"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    results.update(tool_versions())
    with open(EXPECTED, "w") as fh:
        json.dump(dict(sorted(expected.items())), fh, indent=1)
        fh.write("\n")
    write_doc(results)
    if failed:
        log("could not run (see %s): %s" % (os.path.relpath(DOC, ROOT), ", ".join(failed)))
        return 1
    return 0


def recheck():
    expected = json.load(open(EXPECTED))
    changed = 0
    for trace, known in sorted(expected.items()):
        now, _ = check(os.path.join(ROOT, trace), known["spec"])
        if now != known["diagnostics"]:
            changed += 1
            log("%s: was %s, now %s" % (trace, known["diagnostics"], now))
            known["diagnostics"] = now
    with open(EXPECTED, "w") as fh:
        json.dump(expected, fh, indent=1)
        fh.write("\n")
    with open(DOC, "w") as fh:
        fh.write(render(load_results(), expected))
    log("%d of %d transcripts changed; wrote %s and %s" % (
        changed, len(expected), os.path.relpath(EXPECTED, ROOT), os.path.relpath(DOC, ROOT)))
    return 0


def check_doc(path, text):
    try:
        same = open(path, encoding="utf-8").read() == text
    except OSError:
        same = False
    if not same:
        log("%s is not what its JSON renders to: run %s --render" % (
            os.path.relpath(path, ROOT), os.path.relpath(sys.argv[0], ROOT)))
    return 0 if same else 1


def write_doc(results):
    os.makedirs(os.path.dirname(RESULTS), exist_ok=True)
    with open(RESULTS, "w") as fh:
        json.dump(results, fh, indent=1, ensure_ascii=False)
        fh.write("\n")
    with open(DOC, "w") as fh:
        fh.write(render(results))
    log("wrote %s and %s" % (os.path.relpath(RESULTS, ROOT), os.path.relpath(DOC, ROOT)))


if __name__ == "__main__":
    sys.exit(main())
