#!/usr/bin/env python3
"""The eval command's wall time against the ideal, measured with the CLI itself (issue 22).

A local OpenAI-compatible server answers every chat completion after 200 ms; `skillforge eval` runs
100 cases x 2 repeats x 2 arms = 400 items against it at --concurrency 16 and 64 through the built-in
`generic` provider, as a user would. The ideal is ceil(400 / C) waves of 200 ms. Prints the wall
time, the ratio and the concurrency line the command printed.

The server is bench_slow_provider (built beside the other benchmarks) where it is found: on two cores a
Python server's own work, all under one interpreter lock, shows up in the figure. Python's threading
server stands in where it is not.

    tests/bench/bench_cli_concurrency.py [BUILD_DIR]   (default: build/ci)
"""
import json
import math
import os
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DELAY_S = 0.2
ANSWER = json.dumps({
    "id": "c", "object": "chat.completion", "model": "bench",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "USE-RMSNORM-EPS"},
                 "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 40, "completion_tokens": 8},
}).encode()


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # 64 connections at once must not overflow listen()'s backlog (SYN retries: seconds)


class Slow(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        time.sleep(DELAY_S)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(ANSWER)))
        self.end_headers()
        self.wfile.write(ANSWER)

    def log_message(self, *args):
        pass


def start_server(build):
    """The base URL of a server answering after DELAY_S, and how to stop it."""
    native = os.path.join(build, "tests", "bench", "bench_slow_provider")
    if os.access(native, os.X_OK):
        process = subprocess.Popen([native, str(int(DELAY_S * 1000))], stdout=subprocess.PIPE, text=True)
        return process.stdout.readline().strip(), "bench_slow_provider", process.kill
    server = Server(("127.0.0.1", 0), Slow)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}/v1", "Python's ThreadingHTTPServer", server.shutdown


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build/ci"
    binary = os.path.join(build, "bin", "skillforge")
    url, served_by, stop = start_server(build)
    print(f"server: {served_by}")
    with tempfile.TemporaryDirectory() as work:
        skill = os.path.join(work, "bench")
        os.makedirs(skill)
        with open(os.path.join(skill, "SKILL.md"), "w") as f:
            f.write("---\nname: bench\ndescription: Bench skill. Use when benchmarking.\n---\n"
                    "Answer with USE-RMSNORM-EPS.\n")
        suite = os.path.join(work, "suite.json")
        with open(suite, "w") as f:
            json.dump([{"id": f"c{i}", "input": f"Normalize tensor {i}", "expected": {"contains": "EPS"}}
                       for i in range(100)], f)
        env = dict(os.environ, GENERIC_BASE_URL=url,
                   XDG_CONFIG_HOME=os.path.join(work, "config"))
        for concurrency in (16, 64):
            start = time.monotonic()
            done = subprocess.run([binary, "eval", skill, "--tests", suite, "--model", "generic:bench",
                                   "--runs", "2", "--no-tools", "--concurrency", str(concurrency),
                                   "--out", os.path.join(work, f"runs-{concurrency}")],
                                  env=env, capture_output=True, text=True)
            wall = (time.monotonic() - start) * 1000
            if done.returncode != 0:
                print(done.stderr, file=sys.stderr)
                sys.exit(f"eval exited {done.returncode}")
            line = next((l for l in done.stderr.splitlines() if l.startswith("concurrency")), "")
            ideal = math.ceil(400 / concurrency) * DELAY_S * 1000
            print(f"CLI eval, 400 items at 200 ms, --concurrency {concurrency}: {wall:.0f} ms, "
                  f"ideal {ideal:.0f} ms ({wall / ideal:.2f}x, process start and exit included) [{line}]")
    stop()


if __name__ == "__main__":
    main()
