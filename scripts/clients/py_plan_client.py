"""The smallest headless client on the official Python SDK (agent-client-protocol on PyPI), for
scripts/client-matrix.py. The SDK's example client (examples/client.py in its repository, not in
the package) reads prompts from the terminal and answers every permission request with "method
not found"; this is that example with one prompt from the command line, the agent given as one
shell command line, and the first permission option chosen. Like the example it prints the
agent's message chunks; plan updates, which the example drops, are printed by kind only
(`| [plan_update]`), as the TypeScript example does, so that what the SDK delivered shows on stdout.

Usage: PYTHONPATH=DIR python3 py_plan_client.py AGENT_COMMAND_LINE PROMPT
"""

import asyncio
import os
import shlex
import sys
from typing import Any

from acp import PROTOCOL_VERSION, Client, RequestError, connect_to_agent
from acp.schema import (
    AgentMessageChunk,
    AgentPlanContentUpdate,
    AgentPlanRemovedUpdate,
    AgentPlanUpdate,
    AllowedOutcome,
    ClientCapabilities,
    Implementation,
    PermissionOption,
    PlanCapabilities,
    RequestPermissionResponse,
    TextContentBlock,
    ToolCallUpdate,
)


class PlanClient(Client):
    async def request_permission(
        self, session_id: str, tool_call: ToolCallUpdate, options: list[PermissionOption], **kwargs: Any
    ) -> RequestPermissionResponse:
        print(f"| Permission requested: {tool_call.title}")
        return RequestPermissionResponse(outcome=AllowedOutcome(outcome="selected", option_id=options[0].option_id))

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        if isinstance(update, AgentMessageChunk) and isinstance(update.content, TextContentBlock):
            print(f"| Agent: {update.content.text}")
        elif isinstance(update, (AgentPlanUpdate, AgentPlanContentUpdate, AgentPlanRemovedUpdate)):
            print(f"| [{update.session_update}]")

    async def ext_method(self, method: str, params: dict) -> dict:
        raise RequestError.method_not_found(method)

    async def ext_notification(self, method: str, params: dict) -> None:
        raise RequestError.method_not_found(method)


async def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    words = shlex.split(argv[1])
    proc = await asyncio.create_subprocess_exec(
        *words, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
    )
    conn = connect_to_agent(PlanClient(), proc.stdin, proc.stdout)
    await conn.initialize(
        protocol_version=PROTOCOL_VERSION,
        client_capabilities=ClientCapabilities(plan=PlanCapabilities()),
        client_info=Implementation(name="py-plan-client", version="0.1.0"),
    )
    session = await conn.new_session(mcp_servers=[], cwd=os.getcwd())
    response = await conn.prompt(session_id=session.session_id, prompt=[TextContentBlock(type="text", text=argv[2])])
    print(f"| Turn ended: {response.stop_reason}")
    if proc.returncode is None:
        proc.terminate()
        await proc.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(sys.argv)))
