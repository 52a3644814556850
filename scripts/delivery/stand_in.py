"""What the stand-in services of the delivery tests share: a JSON-lines log and running until signalled."""

import json
import signal
import threading


class JSONLines:
    """Appends one JSON object per line to a file, one writer at a time."""

    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()

    def append(self, record):
        with self.lock, open(self.path, "a", encoding="utf-8") as log:
            log.write(json.dumps(record, ensure_ascii=False) + "\n")


def serve_until_signalled(port, stop_serving):
    """Says it listens on 127.0.0.1:`port`, waits for SIGTERM or SIGINT, then calls `stop_serving`."""
    print(f"listening on 127.0.0.1:{port}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    while not stop.wait(0.2):
        pass
    stop_serving()
