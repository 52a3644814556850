"""What the stand-in services of the tests share: a JSON-lines log, PATH=BEHAVIOUR routes, running until signalled."""

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


def routes(items):
    """--route PATH=BEHAVIOUR items as a dictionary."""
    return dict(item.partition("=")[::2] for item in items)


def serve_http_until_signalled(server, port):
    """Serves an http.server ThreadingHTTPServer (a thread per connection) until SIGTERM or SIGINT."""
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    serve_until_signalled(port, server.shutdown)
