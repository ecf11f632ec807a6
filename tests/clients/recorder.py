"""A recording model server on 127.0.0.1: answers each client's wire format with a short scripted
reply and keeps every request body, so a test can read the skill listing a client sent."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

REPLY = "ok"


def _sse(events: list[tuple[str | None, dict]]) -> bytes:
    out = []
    for name, data in events:
        if name:
            out.append(f"event: {name}\n")
        out.append(f"data: {json.dumps(data)}\n\n")
    return "".join(out).encode()


def anthropic_reply(body: dict) -> tuple[str, bytes]:
    model = body.get("model", "mock")
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    if not body.get("stream"):
        message["content"] = [{"type": "text", "text": REPLY}]
        message["stop_reason"] = "end_turn"
        return "application/json", json.dumps(message).encode()
    return "text/event-stream", _sse(
        [
            ("message_start", {"type": "message_start", "message": message}),
            (
                "content_block_start",
                {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
            ),
            (
                "content_block_delta",
                {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": REPLY}},
            ),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            (
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                    "usage": {"output_tokens": 1},
                },
            ),
            ("message_stop", {"type": "message_stop"}),
        ]
    )


def responses_reply(body: dict) -> tuple[str, bytes]:
    item = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": REPLY, "annotations": []}],
    }
    response = {
        "id": "resp_1",
        "object": "response",
        "status": "completed",
        "model": body.get("model", "mock"),
        "output": [item],
        "usage": {
            "input_tokens": 1,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 1,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 2,
        },
    }
    return "text/event-stream", _sse(
        [
            ("response.created", {"type": "response.created", "response": {**response, "status": "in_progress", "output": []}}),
            ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": {**item, "status": "in_progress", "content": []}}),
            ("response.output_text.delta", {"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": REPLY}),
            ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
            ("response.completed", {"type": "response.completed", "response": response}),
        ]
    )


def chat_reply(body: dict) -> tuple[str, bytes]:
    model = body.get("model", "mock")
    if not body.get("stream"):
        return "application/json", json.dumps(
            {
                "id": "c1",
                "object": "chat.completion",
                "created": 0,
                "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": REPLY}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            }
        ).encode()
    chunk = lambda delta, finish: {  # noqa: E731
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    events = [
        (None, chunk({"role": "assistant", "content": REPLY}, None)),
        (None, chunk({}, "stop")),
        (None, {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": model, "choices": [], "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}),
    ]
    return "text/event-stream", _sse(events) + b"data: [DONE]\n\n"


def gemini_reply(body: dict, stream: bool) -> tuple[str, bytes]:
    # Gemini CLI's first request is its router's classifier, which wants JSON back.
    wants_json = (body.get("generationConfig") or {}).get("responseMimeType") == "application/json"
    text = json.dumps({"reasoning": "simple", "model_choice": "flash"}) if wants_json else REPLY
    payload = {
        "candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
        "modelVersion": "mock",
    }
    if stream:
        return "text/event-stream", _sse([(None, payload)])
    return "application/json", json.dumps(payload).encode()


class Recorder:
    """Starts on a free port; `requests` holds (path, body) of every POST in arrival order."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, dict]] = []
        self._lock = threading.Lock()
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:  # quiet
                pass

            def _send(self, status: int, kind: str, data: bytes) -> None:
                self.send_response(status)
                self.send_header("content-type", kind)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:  # model lists and probes
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, "application/json", json.dumps({"object": "list", "data": [], "models": []}).encode())
                else:
                    self._send(404, "application/json", b"{}")

            def do_HEAD(self) -> None:
                self._send(200, "text/plain", b"")

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                if self.headers.get("content-encoding") == "zstd":
                    raw = b""
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {"_raw": raw.decode("utf-8", "replace")}
                with recorder._lock:
                    recorder.requests.append((self.path, body))
                path = self.path.split("?")[0]
                if path.endswith("/messages/count_tokens"):
                    reply = ("application/json", b'{"input_tokens": 1}')
                elif path.endswith("/messages"):
                    reply = anthropic_reply(body)
                elif path.endswith("/responses"):
                    reply = responses_reply(body)
                elif path.endswith("/chat/completions"):
                    reply = chat_reply(body)
                elif ":streamGenerateContent" in path:
                    reply = gemini_reply(body, True)
                elif ":generateContent" in path:
                    reply = gemini_reply(body, False)
                elif ":countTokens" in path:
                    reply = ("application/json", b'{"totalTokens": 1}')
                else:
                    reply = ("application/json", b"{}")
                self._send(200, *reply)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> "Recorder":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
