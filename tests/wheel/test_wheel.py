"""The package a teacher installs: `python build.py wheel` writes backprop_playground-VERSION-py3-none-any.whl,
which a fresh virtual environment installs with pip from the file alone (no index, no Node on PATH), and
whose `backprop-playground serve --classroom DIR` serves the same site, offline, classroom included; a
learner's page from it runs an exercise whose result reaches the room."""

import json
import re
import shutil
import subprocess
import sys
import urllib.request
import venv

import pytest
from playwright.sync_api import expect

from backprop_playground.steps.archive import version
from support import ROOT
from support.pages import check, exercise
from support.servers import NAME, join, static_origin

pytestmark = pytest.mark.usefixtures('site')


@pytest.fixture(scope='module')
def installed(tmp_path_factory):
    """(the environment's bin folder, an environment for its commands: PATH holds that folder alone)."""
    folder = tmp_path_factory.mktemp('teacher')
    built = subprocess.run([sys.executable, 'build.py', 'wheel'], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    wheel = built.stdout.strip().splitlines()[-1]
    assert re.fullmatch(rf".*/backprop_playground-{re.escape(version())}-py3-none-any\.whl", wheel), wheel
    venv.create(folder / 'venv', with_pip=True)
    bin_folder = folder / 'venv' / 'bin'
    env = {'PATH': str(bin_folder), 'HOME': str(folder), 'PIP_NO_INDEX': '1', 'PIP_DISABLE_PIP_VERSION_CHECK': '1'}
    assert shutil.which('node', path=env['PATH']) is None and shutil.which('npm', path=env['PATH']) is None
    subprocess.run([str(bin_folder / 'pip'), 'install', '--quiet', wheel], env=env, check=True, cwd=folder, timeout=600)
    return bin_folder, env, folder


def start(command, env, cwd):
    """Starts a serve command; returns (process, its URL, what it printed)."""
    process = subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    printed = []
    for line in process.stdout:
        printed.append(line)
        if line.startswith('teacher:') or (line.startswith('room network:') and '--classroom' not in command):
            break
    text = ''.join(printed)
    found = re.search(r'serving the playground at (http://[^/]+/)', text)
    assert found, text
    return process, found.group(1).replace('localhost', '127.0.0.1'), text


def test_the_wheel_serves_the_site_and_the_classroom_without_node_or_network(installed, page, tmp_path):
    bin_folder, env, folder = installed
    room = tmp_path / 'class'
    process, url, printed = start(
        [str(bin_folder / 'backprop-playground'), 'serve', '--port', '0', '--classroom', str(room)], env, folder
    )
    try:
        assert f"the record is {room / 'classroom.sqlite'}" in printed
        # The same site as the checkout's dist/: the same build.json, the same pages.
        with urllib.request.urlopen(url + 'build.json') as response:
            assert json.load(response) == json.loads((ROOT / 'dist' / 'build.json').read_text())
        join(page, url)
        check(exercise(page, 'mul-returns-value'), 'failed')
        token = (room / 'teacher-token').read_text().strip()
        request = urllib.request.Request(url + 'classroom/progress', headers={'Authorization': f'Bearer {token}'})
        for _ in range(100):
            with urllib.request.urlopen(request) as response:
                students = json.load(response)['students']
            if students:
                break
            page.wait_for_timeout(100)
        assert students[0]['name'] == NAME and students[0]['exercises']['mul-returns-value']['state'] == 'failed'
    finally:
        process.kill()
        process.wait()


def test_python_m_serves_too_and_the_wheel_builds_nothing(installed, page):
    bin_folder, env, folder = installed
    process, url, _ = start(
        [str(bin_folder / 'python'), '-m', 'backprop_playground', 'serve', '--port', '0'], env, folder
    )
    try:
        page.goto(url)
        expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=90_000)
    finally:
        process.kill()
        process.wait()
    refused = subprocess.run(
        [str(bin_folder / 'backprop-playground'), 'build'], env=env, cwd=folder, capture_output=True, text=True
    )
    assert refused.returncode != 0 and 'needs a checkout of the repository' in refused.stderr


def test_the_wheels_check_command_runs_the_pages_runtime_from_the_site_it_carries(installed):
    """No source of the runtime is installed: check runs it from the wheels inside the site."""
    bin_folder, env, folder = installed
    lesson = ROOT / 'web' / 'lessons' / 'build-the-engine.md'
    done = subprocess.run(
        [str(bin_folder / 'backprop-playground'), 'check', str(lesson)],
        env=env,
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0 and done.stdout.strip().endswith('4 exercises checked, 0 wrong'), (
        done.stdout + done.stderr
    )


def test_the_wheels_export_writes_the_site_for_any_host_and_keeps_what_it_did_not_write(installed, page, tmp_path):
    bin_folder, env, folder = installed
    target = tmp_path / 'public'
    done = subprocess.run(
        [str(bin_folder / 'backprop-playground'), 'export', str(target)],
        env=env,
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1].startswith(f"exported the playground into {target}/")
    assert json.loads((target / 'build.json').read_text()) == json.loads((ROOT / 'dist' / 'build.json').read_text())
    assert max(p.stat().st_size for p in target.rglob('*') if p.is_file()) <= 20 * 10**6  # every static host takes it
    # A plain static server, as an author's host: the exported page runs.
    server, url = static_origin(target)
    try:
        page.goto(url + 'index.html')
        expect(page.get_by_test_id('status')).to_have_attribute('data-state', 'ready', timeout=90_000)
    finally:
        server.shutdown()
    # Exporting again over the export is fine, and keeps what the author added; a folder of the author's own files
    # is refused, and kept as it was.
    (target / '_headers').write_text('/*\n  Cross-Origin-Opener-Policy: same-origin\n')
    again = subprocess.run(
        [str(bin_folder / 'backprop-playground'), 'export', str(target)],
        env=env,
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert again.returncode == 0, again.stderr
    assert (target / '_headers').read_text() == '/*\n  Cross-Origin-Opener-Policy: same-origin\n'
    theirs = tmp_path / 'my-blog'
    theirs.mkdir()
    (theirs / 'index.html').write_text('my own page')
    refused = subprocess.run(
        [str(bin_folder / 'backprop-playground'), 'export', str(theirs)],
        env=env,
        cwd=folder,
        capture_output=True,
        text=True,
    )
    assert refused.returncode != 0 and 'is not empty and holds no earlier export' in refused.stderr
    assert [p.name for p in theirs.iterdir()] == ['index.html'] and (theirs / 'index.html').read_text() == 'my own page'
