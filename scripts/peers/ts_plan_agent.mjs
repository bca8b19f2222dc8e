// A minimal agent on the official TypeScript SDK (@agentclientprotocol/sdk, its `unstable`
// v1 entrypoint, which has the Plan Operations types) that sends the plan messages the SDK can
// express: the legacy `plan` on every prompt and, when the client advertised `plan: {}`, an
// items and a markdown `plan_update` and a `plan_removed`. The TypeScript twin of
// py_plan_agent.py, written for scripts/interop.py.
//
// Usage: ACP_SDK_NODE_MODULES=/tmp/peers/npm-sdk/node_modules node ts_plan_agent.mjs
// (the SDK is installed outside the repository, so it is resolved from that folder).
import { createRequire } from "node:module";
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";

const modules = process.env.ACP_SDK_NODE_MODULES;
if (!modules) {
  console.error("ts_plan_agent: set ACP_SDK_NODE_MODULES to the node_modules that holds @agentclientprotocol/sdk");
  process.exit(2);
}
const require = createRequire(modules.replace(/\/?$/, "/"));
const acp = await import(pathToFileURL(require.resolve("@agentclientprotocol/sdk/unstable")).href);

let planOperations = false;
let sessions = 0;

const entries = [
  { content: "Inspect", priority: "high", status: "in_progress" },
  { content: "Fix", priority: "medium", status: "pending" },
];

acp
  .agent({ name: "ts-plan-agent" })
  .onRequest(acp.methods.agent.initialize, async ({ params }) => {
    // An omitted or null capability is "not advertised".
    planOperations = params.clientCapabilities?.plan != null;
    return { protocolVersion: 1, agentCapabilities: {}, agentInfo: { name: "ts-plan-agent", version: "0.1.0" } };
  })
  .onRequest(acp.methods.agent.session.new, async () => ({ sessionId: `ts-session-${++sessions}` }))
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    const update = (u) => client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update: u });
    await update({ sessionUpdate: "plan", entries });
    if (planOperations) {
      await update({ sessionUpdate: "plan_update", plan: { type: "items", planId: "p1", entries } });
      await update({ sessionUpdate: "plan_update", plan: { type: "markdown", planId: "p2", content: "# Plan\n\n1. Inspect\n2. Fix\n" } });
      await update({ sessionUpdate: "plan_removed", planId: "p1" });
    }
    return { stopReason: "end_turn" };
  })
  .connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
