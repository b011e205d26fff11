"""How learners reach the room, and what their browsers can do there (docs/classroom.md, "Classroom"): plain HTTP
on a LAN address, which browsers treat as not secure; plain HTTP to managed devices whose policy treats the
origin as secure; or HTTPS. `serve` prints it; the teacher's board says it too."""

import socket

MODES = ('plain-http', 'managed', 'https')
NOTES = {
    'plain-http': "plain HTTP: browsers treat a LAN address as not secure, so learners' pages run Python, exercises "
    "and notebooks and send their results, but keep no offline copy (a reload needs this laptop) and Stop "
    "restarts Python. Tell the class to open the page once this laptop serves, and to keep the tab open. "
    "For everything: --tls CERT KEY, or devices managed with the policy below and --managed.",
    'managed': "plain HTTP to managed devices whose policy treats {origin} as secure: offline after one visit, Stop "
    "in place. The teacher's board counts the browsers that really do.",
    'https': "HTTPS: devices that trust the certificate's authority keep the site offline after one visit, and Stop "
    "interrupts Python in place.",
}


def mode_of(tls, managed):
    return 'https' if tls else 'managed' if managed else 'plain-http'


def policy_lines(origin, host):
    """The browsers' policies that treat the room's plain-HTTP origin as secure."""
    return [
        f'  Chrome, Edge: OverrideSecurityRestrictionsOnInsecureOrigin = ["{origin}"]',
        f'  Firefox:      dom.securecontext.allowlist = "{host}"',
    ]


def lan_address():
    """This laptop's address on the room's network, as learners type it. Debian maps the machine's own name to
    a loopback address, so that is the last resort: first the address the system would send from towards a
    private network (a UDP socket's connect sends nothing), then the name's addresses, then the name."""
    for probe in ('10.255.255.255', '192.168.255.255', '172.31.255.255'):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            try:
                udp.connect((probe, 9))
                address = udp.getsockname()[0]
            except OSError:
                continue
        if not address.startswith('127.') and address != '0.0.0.0':
            return address
    try:
        found = {info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
    except OSError:
        found = set()
    return next((address for address in sorted(found) if not address.startswith('127.')), socket.gethostname())
