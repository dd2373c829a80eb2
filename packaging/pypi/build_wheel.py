#!/usr/bin/env python3
"""Builds a wheel carrying the prebuilt openapi2mcp binary as a script
(`pip install` / `uvx --from <wheel> openapi2mcp` put it on the PATH), the
way Ruff and other binary tools are shipped on PyPI, without compiling
anything: the binary comes from a cargo build.

The platform tag says where the binary runs: manylinux_<glibc of the build
machine>_<arch> on Linux (a binary linked against glibc 2.36 needs at
least 2.36), macosx_11_0_<arch> on macOS, win_amd64 on Windows.

    build_wheel.py --binary target/release/openapi2mcp --version 0.1.0 --out target/packaging
"""

import argparse
import base64
import hashlib
import os
import platform
import sys
import zipfile

# "openapi2mcp" on PyPI belongs to another project.
DIST = "openapi2mcp-rs"
SUMMARY = "Serve any OpenAPI document as a Model Context Protocol (MCP) server (prebuilt Rust binary)"


def platform_tag() -> str:
    machine = platform.machine().lower()
    arch = {"amd64": "x86_64", "arm64": "aarch64"}.get(machine, machine)
    if sys.platform.startswith("linux"):
        libc, version = platform.libc_ver()
        if libc != "glibc" or not version:
            sys.exit("build_wheel: only glibc Linux builds get a manylinux tag (musllinux is not done)")
        major, minor = version.split(".")[:2]
        return f"manylinux_{major}_{minor}_{arch}"
    if sys.platform == "darwin":
        return f"macosx_11_0_{'arm64' if arch == 'aarch64' else arch}"
    if sys.platform == "win32":
        return "win_amd64" if arch == "x86_64" else f"win_{arch}"
    sys.exit(f"build_wheel: no wheel platform tag for {sys.platform}")


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    with open(args.binary, "rb") as f:
        binary = f.read()
    tag = f"py3-none-{platform_tag()}"
    dist = DIST.replace("-", "_")
    name = f"{dist}-{args.version}"
    script = "openapi2mcp.exe" if sys.platform == "win32" else "openapi2mcp"
    files = {
        f"{name}.data/scripts/{script}": binary,
        f"{name}.dist-info/METADATA": (
            "Metadata-Version: 2.1\n"
            f"Name: {DIST}\n"
            f"Version: {args.version}\n"
            f"Summary: {SUMMARY}\n"
            "License: MIT OR Apache-2.0\n"
            "Requires-Python: >=3.8\n"
        ).encode(),
        f"{name}.dist-info/WHEEL": (
            "Wheel-Version: 1.0\n"
            "Generator: openapi2mcp build_wheel.py\n"
            "Root-Is-Purelib: false\n"
            f"Tag: {tag}\n"
        ).encode(),
    }
    record = f"{name}.dist-info/RECORD"
    lines = [record_line(n, d) for n, d in files.items()] + [f"{record},,"]
    files[record] = ("\n".join(lines) + "\n").encode()
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, f"{name}-{tag}.whl")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as wheel:
        for n, data in files.items():
            info = zipfile.ZipInfo(n, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            # The script must stay executable once installed.
            info.external_attr = (0o755 if n.endswith(script) else 0o644) << 16
            wheel.writestr(info, data)
    print(path)


if __name__ == "__main__":
    main()
