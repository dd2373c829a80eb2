"""FastMCP's OpenAPI server, as bench/http-load.mjs runs it: every operation
of DOC a tool (`FastMCP.from_openapi`, its defaults), calling the API at
BASE_URL through an httpx AsyncClient, served over FastMCP's default HTTP
transport (stateful streamable HTTP at /mcp) on 127.0.0.1:PORT.

  python bench/http-load-fastmcp.py DOC BASE_URL PORT

Run with the interpreter of target/bench-peers/py (bench/http-load.sh
installs fastmcp there).
"""
import json
import sys

import fastmcp
from fastmcp import FastMCP

try:  # fastmcp 4 ships its own httpx fork; older releases take httpx's client
    import httpx2 as httpx
except ImportError:  # pragma: no cover
    import httpx


def main():
    doc, base_url, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(doc, encoding="utf-8") as f:
        if doc.endswith((".yaml", ".yml")):
            import yaml  # PyYAML, a dependency of fastmcp's own

            spec = yaml.safe_load(f)
        else:
            spec = json.load(f)
    client = httpx.AsyncClient(base_url=base_url, timeout=30.0)
    mcp = FastMCP.from_openapi(openapi_spec=spec, client=client, name="github")
    print(f"fastmcp {fastmcp.__version__} ready to listen on {port}", file=sys.stderr, flush=True)
    mcp.run(transport="http", host="127.0.0.1", port=port, log_level="warning", show_banner=False)


if __name__ == "__main__":
    main()
