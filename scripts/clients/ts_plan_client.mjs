// The smallest headless client on the official TypeScript SDK (@agentclientprotocol/sdk), for
// scripts/client-matrix.py. The SDK's own example client (src/examples/client.ts in its
// repository, not in the npm package) spawns its bundled agent and asks the user on stdin for
// every permission, so it cannot run headless against another agent; this is that example with
// the agent taken from the command line and the first permission option chosen, as a user
// pressing "1" would. It prints session updates as the example does (`[plan]` for a legacy
// plan), and the plan operations, which the example does not list, the same way (`[plan_update]`,
// `[plan_removed]`), so that what the SDK delivered shows on stdout.
//
// Usage: ACP_SDK_NODE_MODULES=DIR node ts_plan_client.mjs AGENT_COMMAND_LINE PROMPT
// AGENT_COMMAND_LINE is one shell command line (what `acp-plan client` puts for `{agent}`).
// The `unstable` entrypoint is used so that the client can advertise `plan: {}` (Plan
// Operations), which the stable one does not type.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Readable, Writable } from "node:stream";

const modules = process.env.ACP_SDK_NODE_MODULES;
const [agentLine, promptText] = process.argv.slice(2);
if (!modules || !agentLine || promptText === undefined) {
  console.error("usage: ACP_SDK_NODE_MODULES=DIR node ts_plan_client.mjs AGENT_COMMAND_LINE PROMPT");
  process.exit(2);
}
const require = createRequire(modules.replace(/\/?$/, "/"));
const acp = await import(pathToFileURL(require.resolve("@agentclientprotocol/sdk/unstable")).href);

function printUpdate(update) {
  switch (update.sessionUpdate) {
    case "agent_message_chunk":
      console.log(update.content.type === "text" ? update.content.text : `[${update.content.type}]`);
      break;
    case "tool_call":
      console.log(`\n🔧 ${update.title} (${update.status})`);
      break;
    case "tool_call_update":
      console.log(`\n🔧 Tool call \`${update.toolCallId}\` updated: ${update.status}\n`);
      break;
    case "plan":
    case "plan_update":
    case "plan_removed":
    case "agent_thought_chunk":
    case "user_message_chunk":
      console.log(`[${update.sessionUpdate}]`);
      break;
    default:
      break;
  }
}

const agentProcess = spawn(agentLine, { shell: true, stdio: ["pipe", "pipe", "inherit"] });
const stream = acp.ndJsonStream(Writable.toWeb(agentProcess.stdin), Readable.toWeb(agentProcess.stdout));
let status = 0;
try {
  const result = await acp
    .client({ name: "ts-plan-client" })
    .onRequest("session/request_permission", ({ params }) => {
      console.log(`\n🔐 Permission requested: ${params.toolCall.title}`);
      return { outcome: { outcome: "selected", optionId: params.options[0].optionId } };
    })
    .connectWith(stream, async (agent) => {
      const init = await agent.request("initialize", {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { plan: {} },
        clientInfo: { name: "ts-plan-client", version: "0.1.0" },
      });
      console.log(`✅ Connected to agent (protocol v${init.protocolVersion})`);
      return agent.buildSession(process.cwd()).withSession(async (session) => {
        console.log(`📝 Created session: ${session.sessionId}`);
        session.prompt(promptText);
        for (;;) {
          const message = await session.nextUpdate();
          if (message.kind === "stop") return message.response;
          printUpdate(message.notification.update);
        }
      });
    });
  console.log(`\n✅ Agent completed with: ${result.stopReason}`);
} catch (error) {
  console.error("[Client] Error:", error);
  status = 1;
} finally {
  agentProcess.kill();
  process.exit(status);
}
