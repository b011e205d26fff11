"""HTTP as the server's tests speak it: a request with urllib that returns (status, text) whatever the
status, a request target sent exactly as written, and a free port."""

import json
import socket
import urllib.error
import urllib.request


def call(url, body=None, headers=None, method=None):
    """(status, body text); `body` is bytes as they are or anything else as JSON."""
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def raw_get(base, target):
    """GET `target` exactly as written, dots and all (urllib would normalise some): (status, body bytes)."""
    host, port = base.split('//')[1].strip('/').split(':')
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(f'GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n'.encode())
        answer = b''
        while chunk := connection.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b'\r\n\r\n')
    return int(head.split()[1]), body


def free_port():
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        return probe.getsockname()[1]
