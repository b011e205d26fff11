"""`build.py serve` in the room's three modes (docs/classroom.md, "Classroom"): plain HTTP on the room's network,
plain HTTP to managed devices, and HTTPS with a certificate from the school's (here a throwaway) authority.
The command is run as a teacher runs it, and what it prints is what the teacher reads."""

import json
import ssl
import subprocess
import sys
import urllib.request

import pytest
import trustme

from support import ROOT

pytestmark = pytest.mark.usefixtures('site')


def serve(*args, lines_until='teacher:'):
    """Starts `build.py serve ARGS` on a free port; returns (process, what it printed up to the teacher's line)."""
    process = subprocess.Popen(
        [sys.executable, 'build.py', 'serve', '--port', '0', *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    printed = []
    for line in process.stdout:
        printed.append(line)
        if line.startswith(lines_until):
            return process, ''.join(printed)
    process.wait()
    return process, ''.join(printed)


def address(printed, scheme):
    line = next(line for line in printed.splitlines() if line.startswith('serving the playground at '))
    return line.split(' at ')[1].split(' ')[0].replace(f'{scheme}://', '').rstrip('/').rsplit(':', 1)[1]


@pytest.mark.parametrize(
    'flags, says',
    [
        ([], 'room network: plain HTTP: browsers treat a LAN address as not secure'),
        (['--managed'], 'room network: plain HTTP to managed devices whose policy treats http://'),
    ],
)
def test_serve_on_the_rooms_network_says_what_browsers_do_there_and_the_policy(tmp_path, flags, says):
    process, printed = serve('--host', '0.0.0.0', '--classroom', str(tmp_path / 'room'), *flags)
    try:
        assert says in printed, printed
        assert 'OverrideSecurityRestrictionsOnInsecureOrigin = ["http://' in printed
        assert 'dom.securecontext.allowlist = "' in printed
        port = address(printed, 'http')
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/classroom/config.json", timeout=10) as response:
            assert json.load(response)['mode'] == ('managed' if flags else 'plain-http')
    finally:
        process.kill()
        process.wait()


@pytest.mark.parametrize('flags, mode', [([], 'plain-http'), (['--managed'], 'managed')])
def test_serve_on_localhost_says_the_room_cannot_reach_it_and_names_the_mode(flags, mode):
    process, printed = serve(*flags, lines_until='room network:')
    try:
        assert 'room network: this laptop only (add --host 0.0.0.0' in printed, printed
        assert f"there it is {mode})" in printed, printed
    finally:
        process.kill()
        process.wait()


def test_serve_with_tls_speaks_https_to_devices_that_trust_the_authority(tmp_path):
    authority = trustme.CA()
    certificate = authority.issue_cert('classroom.lan', '127.0.0.1')
    cert, key = tmp_path / 'room.pem', tmp_path / 'room.key'
    certificate.cert_chain_pems[0].write_to_path(cert)
    certificate.private_key_pem.write_to_path(key)
    process, printed = serve('--host', '0.0.0.0', '--classroom', str(tmp_path / 'room'), '--tls', str(cert), str(key))
    try:
        assert 'room network: HTTPS' in printed and 'serving the playground at https://' in printed, printed
        port = address(printed, 'https')
        trusting = ssl.create_default_context()
        authority.configure_trust(trusting)
        with urllib.request.urlopen(
            f"https://127.0.0.1:{port}/classroom/config.json", context=trusting, timeout=10
        ) as response:
            assert json.load(response)['mode'] == 'https'
        with urllib.request.urlopen(f"https://127.0.0.1:{port}/", context=trusting, timeout=10) as response:
            assert response.headers['Cross-Origin-Opener-Policy'] == 'same-origin'
        with pytest.raises(urllib.error.URLError, match='CERTIFICATE_VERIFY_FAILED'):  # a device without the authority
            urllib.request.urlopen(f"https://127.0.0.1:{port}/", context=ssl.create_default_context(), timeout=10)
    finally:
        process.kill()
        process.wait()


@pytest.mark.parametrize(
    'args, says',
    [
        (['--tls', 'missing.pem', 'missing.key'], '--tls: missing.pem is not a file'),
        (['--tls', 'build.py', 'build.py'], '--tls: the certificate and key could not be used'),
        (['--tls', 'build.py', 'build.py', '--managed'], '--managed is for plain HTTP'),
    ],
)
def test_serve_refuses_a_bad_tls_setup_with_a_message(args, says):
    result = subprocess.run(
        [sys.executable, 'build.py', 'serve', '--port', '0', *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode != 0 and says in result.stdout + result.stderr, result.stdout + result.stderr
