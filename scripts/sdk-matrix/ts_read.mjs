// How the official TypeScript SDK (@agentclientprotocol/sdk) reads plan messages, for
// scripts/sdk-matrix.py. Each entrypoint's generated zod schema for the `session/update`
// params is what its client connection parses incoming notifications with (v1:
// zSessionNotification; v2: zUpdateSessionNotification), lenient helpers included
// (vecSkipError, defaultOnError, preserveCustomPayload).
//
// Usage: ACP_SDK_NODE_MODULES=DIR node ts_read.mjs < items.jsonl
// Input, one line each: {"id": ..., "revision": "draft-2026-05" | "v1" | "v2", "line": "<the
// JSON-RPC message as the exact text on the wire>"}. Output, one line per item and
// entrypoint: {"id", "reader": "ts-v1-stable" | ..., "read": <what the schema returned>} or
// {"id", "reader", "error": "<zod's issues>"}.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import readline from "node:readline";

const modules = process.env.ACP_SDK_NODE_MODULES;
if (!modules) {
  console.error("ts_read: set ACP_SDK_NODE_MODULES to the node_modules that holds @agentclientprotocol/sdk");
  process.exit(2);
}
const require = createRequire(modules.replace(/\/?$/, "/"));
// The package exports only its entrypoints; the schema modules sit beside them in dist/.
const main = require.resolve("@agentclientprotocol/sdk");
const dist = main.slice(0, main.lastIndexOf("/dist/") + "/dist/".length);
const load = async (path) => import(pathToFileURL(dist + path).href);

// The entrypoints: `@agentclientprotocol/sdk` (v1 stable), `/unstable`, `/experimental/v2`,
// `/experimental/v2/unstable`, each with the schema module its connection validates with.
const readers = [
  { name: "ts-v1-stable", revisions: ["draft-2026-05", "v1"], schema: (await load("v1/schema/zod.gen.js")).zSessionNotification },
  { name: "ts-v1-unstable", revisions: ["draft-2026-05", "v1"], schema: (await load("v1/unstable/schema/zod.gen.js")).zSessionNotification },
  { name: "ts-v2-stable", revisions: ["v2"], schema: (await load("v2/schema/zod.gen.js")).zUpdateSessionNotification },
  { name: "ts-v2-unstable", revisions: ["v2"], schema: (await load("v2/unstable/schema/zod.gen.js")).zUpdateSessionNotification },
];

const issues = (error) =>
  error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");

for await (const text of readline.createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!text.trim()) continue;
  const item = JSON.parse(text);
  let params;
  try {
    params = JSON.parse(item.line).params;
  } catch (e) {
    params = undefined;
  }
  for (const reader of readers) {
    if (!reader.revisions.includes(item.revision)) continue;
    const answer = { id: item.id, reader: reader.name };
    if (params === undefined) {
      answer.error = "not JSON (JSON.parse)";
    } else {
      const result = reader.schema.safeParse(params);
      if (result.success) answer.read = result.data ?? null;
      else answer.error = issues(result.error);
    }
    process.stdout.write(JSON.stringify(answer) + "\n");
  }
}
