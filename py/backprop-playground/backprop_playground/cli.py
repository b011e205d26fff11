"""Backprop Playground on the laptop.

    build                             build dist/ from the checkout (installs the npm packages first if they are missing)
    build --full                      the same, from nothing: dist/ and the machine's build cache made anew
    serve [--host H] [--port P]       serve the site with COOP/COEP, brotli and gzip (from a checkout: build it first)
    serve --classroom DIR             the same, and keep the room's results in DIR
    serve --locale fr                 the pages open in French (or es, en), unless a reader chooses another
    serve --tls CERT KEY              over HTTPS, for devices that trust CERT's authority
    serve --managed                   plain HTTP to devices whose policy treats this origin as secure
    zip                               build, then write one zip of the site; its path is the last line
    wheel                             build, then write the wheel a teacher installs; its path is the last line
    package                           build, then write the npm package that a CDN serves to articles (npm pack);
                                      its path is the last line
    export DIR                        write the static site into DIR, for any host (from the wheel: no Node)
    docs                              build, then the documentation site into dist/docs/ (needs MkDocs)
    messages                          write locales/backprop-playground.pot from the sources, and bring each
                                      locales/*.po up to date with it (msgmerge; docs/translating.md)
    check PATH…                       check the exercises of Markdown, notebook or HTML files: every solution must
                                      pass its checks and every starter fail them (nothing is built)

In a checkout, `python build.py COMMAND` runs these. Installed from the wheel, `backprop-playground serve`
(or `python -m backprop_playground serve`) serves the site the wheel carries: nothing is built there.
"""

import argparse
import ssl
import sys
from pathlib import Path

from . import paths
from .classroom.network import NOTES, lan_address, mode_of, policy_lines
from .server import make_server, site_locales

COMMANDS = ['build', 'serve', 'zip', 'wheel', 'package', 'export', 'docs', 'check', 'messages']


def main(argv=None, prog=None):
    parser = argparse.ArgumentParser(
        prog=prog, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument('command', nargs='?', choices=COMMANDS, default='build' if paths.in_checkout() else 'serve')
    parser.add_argument(
        'files',
        nargs='*',
        metavar='PATH',
        help='check: the files whose exercises to check; export: the folder to write',
    )
    parser.add_argument('--host', default='127.0.0.1', help='0.0.0.0 to serve a classroom network')
    parser.add_argument('--port', type=int, default=8000)
    parser.add_argument(
        '--full',
        action='store_true',
        help="build dist/ from nothing, the machine's build cache emptied first ($BACKPROP_PLAYGROUND_CACHE/build)",
    )
    parser.add_argument(
        '--classroom',
        metavar='DIR',
        type=Path,
        help="keep the learners' results in DIR/classroom.sqlite and serve the teacher's board",
    )
    parser.add_argument(
        '--locale',
        help="the language the pages open in (fr, es, en): the board, room.html and learners' pages follow it "
        "unless a learner chose another on the main page's menu",
    )
    parser.add_argument(
        '--tls',
        nargs=2,
        metavar=('CERT', 'KEY'),
        type=Path,
        help='serve over HTTPS with this certificate (chain) and private key, both PEM files',
    )
    parser.add_argument(
        '--managed',
        action='store_true',
        help="learners' devices are managed with a policy that treats this plain-HTTP origin as secure",
    )
    parser.add_argument(
        '--forward',
        metavar='URL',
        help="with --classroom: also send every statement to the school's Learning Record Store at this "
        "xAPI address (http://lrs.school:8100/xAPI/), exactly once",
    )
    parser.add_argument(
        '--forward-auth',
        metavar='FILE',
        type=Path,
        help="the LRS's Basic-auth credentials, one line user:password (or the environment variable "
        "BACKPROP_PLAYGROUND_FORWARD_AUTH); never given on the command line",
    )
    args = parser.parse_args(argv)
    if args.tls and args.managed:
        parser.error('--managed is for plain HTTP; with --tls the origin is secure already')
    for path in args.tls or []:
        if not path.is_file():
            parser.error(f"--tls: {path} is not a file")
    if args.classroom and args.classroom.resolve().is_relative_to(paths.served_site().resolve()):
        # There the room's token, record and hand-ins would be served as files, and the next build deletes them.
        parser.error(
            f"--classroom: {args.classroom} is inside the site it serves ({paths.served_site()}): "
            "keep the room's folder elsewhere"
        )
    if args.command == 'check':
        from .check import main as check

        sys.exit(check(args.files))
    if args.command == 'messages':
        from .catalogues.update import update

        sys.exit(update())
    if args.command == 'export' and len(args.files) != 1:
        parser.error("export takes one folder: export DIR")
    elif args.files and args.command != 'export':
        parser.error(f"{args.command} takes no files")
    if paths.in_checkout():
        from .steps import build

        build(full=args.full)
    elif args.command not in ('serve', 'export'):
        parser.error(
            f"{args.command} needs a checkout of the repository (its web/ and npm packages); "
            "the installed package serves or exports the site it carries"
        )
    if args.command == 'export':
        from .export import export

        try:
            print(export(paths.served_site(), Path(args.files[0])))
        except ValueError as error:
            sys.exit(f"backprop-playground: export: {error}")
    if args.command == 'zip':
        from .steps.archive import zip_site

        print(zip_site())
    elif args.command == 'wheel':
        from .steps.archive import wheel

        print(wheel())
    elif args.command == 'package':
        from .steps.package import package

        print(package())
    elif args.command == 'docs':
        from .steps.docs import build_docs

        print(build_docs())
    elif args.command == 'serve':
        serve(args)


def serve(args):
    mode = mode_of(args.tls, args.managed)
    room = forward = None
    if args.forward or args.forward_auth:
        from .classroom.forward import target_of

        if not (args.forward and args.classroom):
            sys.exit(
                "backprop-playground: --forward URL sends a room's record on, so it needs --classroom DIR "
                "(and --forward-auth goes with --forward)"
            )
        try:
            forward = target_of(args.forward, args.forward_auth)
        except ValueError as error:
            sys.exit(f"backprop-playground: {error}")
    languages = site_locales() if args.locale else []
    locale = next((known for known in languages if known.lower() == args.locale.lower()), None)
    if args.locale and not locale:
        sys.exit(f"backprop-playground: --locale {args.locale}: the site's languages are {', '.join(languages)}")
    if args.classroom:
        from .classroom import Classroom

        room = Classroom(args.classroom, mode=mode, forward=forward)
    try:
        server = make_server(args.host, args.port, room=room, tls=args.tls, locale=locale)
    except (ssl.SSLError, OSError) as error:
        what = (
            '--tls: the certificate and key could not be used'
            if args.tls and isinstance(error, ssl.SSLError)
            else 'could not serve'
        )
        sys.exit(f"backprop-playground: {what} ({error})")
    scheme = 'https' if args.tls else 'http'
    host = {'127.0.0.1': 'localhost', '0.0.0.0': lan_address()}.get(args.host, args.host)
    origin = f"{scheme}://{host}:{server.server_address[1]}"
    print(f"serving the playground at {origin}/ (Ctrl+C to stop)", flush=True)
    if locale:
        print(f"language: {locale}, unless a reader chooses another")
    if args.host in ('127.0.0.1', 'localhost'):
        print(f"room network: this laptop only (add --host 0.0.0.0 to serve the room's network; there it is {mode})")
    else:
        print(f"room network: {NOTES[mode].format(origin=origin)}")
        if mode != 'https':
            print(
                'the policy for managed devices (docs/classroom.md, "Classroom"):',
                *policy_lines(origin, host),
                sep='\n',
            )
    if room:
        handed_out = ', '.join(one['assignment'] for one in room.coursework.handouts()) or 'nothing yet'
        print(f"learners: {origin}/room.html")
        print(
            f"classroom: hands out {room.folder / 'release'}/ ({handed_out}), collects into "
            f"{room.folder / 'submitted'}/; the record is {room.path}"
        )
        print(f"teacher: {origin}/teacher.html#token={room.token}", flush=True)
    if forward:
        print(
            f"forwarding: every statement also goes to the LRS at {forward.statements} (credentials from "
            f"{forward.credentials_from}); the teacher's board shows what waits"
        )
    sys.stdout.flush()  # a teacher's terminal, or a program that reads what serve prints, sees it all now
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
