"""The room hands out and collects (classroom/coursework.py under the site's server), without a browser: what
is handed out and nothing else of the room's folder, hand-ins in nbgrader's layout, two learners of one
name, refusals with nothing written, a refused body's answer that reaches the client, feedback for its
learner alone, the board's zip, and kill -9 during hand-ins."""

import http.client
import io
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
import zipfile
from datetime import datetime

import pytest

from backprop_playground import classroom
from support import ROOT, files_of
from support.http_calls import call, free_port, raw_get
from support.lazy import nbformat, nbgrader_utils
from support.servers import room_in_a_process, serving, stop

SECRET = 'the solution: 42'


def notebook(answer='x = 1'):
    return nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell('# ps1', id='intro'), nbformat.v4.new_code_cell(answer, id='answer')]
    )


def course(folder):
    """An nbgrader course as a teacher has it: source/ with the solutions, release/ what goes out, their
    config and gradebook, the room's folder itself."""
    (folder / 'source' / 'ps1').mkdir(parents=True)
    (folder / 'source' / 'ps1' / 'ps1.ipynb').write_text(nbformat.writes(notebook(SECRET)))
    (folder / 'release' / 'ps1').mkdir(parents=True)
    (folder / 'release' / 'ps1' / 'ps1.ipynb').write_text(nbformat.writes(notebook('# your answer here')))
    (folder / 'release' / 'ps1' / 'data.csv').write_text('x,y\n1,2\n')
    (folder / 'release' / 'ps1' / '.ipynb_checkpoints').mkdir()
    (folder / 'release' / 'ps1' / '.ipynb_checkpoints' / 'ps1-checkpoint.ipynb').write_text(SECRET)
    (folder / 'release' / 'lesson 1').mkdir(parents=True)
    (folder / 'release' / 'lesson 1' / 'intro.md').write_text('# Intro\n\n```python\nprint(1)\n```\n')
    (folder / 'nbgrader_config.py').write_text(f'c = get_config()  # {SECRET}\n')
    (folder / 'gradebook.db').write_bytes(SECRET.encode())
    return folder


def teachers_files(folder):
    """What the teacher made in the room's folder, by content: what the room must never change."""
    teachers = ('source', 'release', 'nbgrader_config.py', 'gradebook.db')
    return {path: digest for path, digest in files_of(folder).items() if path.split('/')[0] in teachers}


@pytest.fixture
def room(tmp_path, tiny_site):
    folder = course(tmp_path / 'room')
    kept = classroom.Classroom(folder)
    server, url = serving(room=kept, directory=tiny_site)
    yield url, kept
    stop(server)


def hand_in(base, key='key-ana', name='Ana', assignment='ps1', file='ps1.ipynb', nb=None, **extra):
    body = {
        'key': key,
        'name': name,
        'assignment': assignment,
        'file': file,
        'notebook': notebook() if nb is None else nb,
        **extra,
    }
    return call(base + 'classroom/hand-in', body, {'Content-Type': 'application/json'})


def test_what_is_in_release_is_handed_out_and_nothing_else_of_the_folder(room):
    base, kept = room
    status, text = call(base + 'classroom/handouts')
    assert status == 200
    assert json.loads(text)['handouts'] == [
        {'assignment': 'lesson 1', 'files': ['intro.md']},
        {'assignment': 'ps1', 'files': ['data.csv', 'ps1.ipynb']},
    ]
    assert json.loads(text)['mine'] == {'student': None, 'handed_in': {}, 'feedback': {}}
    status, body = raw_get(base, '/classroom/release/ps1/ps1.ipynb')
    assert status == 200 and ''.join(json.loads(body)['cells'][1]['source']) == '# your answer here'
    assert raw_get(base, '/classroom/release/lesson%201/intro.md') == (200, b'# Intro\n\n```python\nprint(1)\n```\n')
    assert raw_get(base, '/classroom/release/ps1/data.csv')[0] == 200
    kept.coursework.hand_in(
        json.dumps({'key': 'k', 'name': 'Ana', 'assignment': 'ps1', 'file': 'ps1.ipynb', 'notebook': notebook(SECRET)})
    )
    for target in [
        '/classroom/release/../source/ps1/ps1.ipynb',
        '/classroom/release/ps1/../../source/ps1/ps1.ipynb',
        '/classroom/release/%2e%2e/source/ps1/ps1.ipynb',
        '/classroom/release/ps1/..%2f..%2fnbgrader_config.py',
        '/classroom/release/ps1/%2e%2e%2f%2e%2e%2fgradebook.db',
        '/classroom/release/ps1/.ipynb_checkpoints/ps1-checkpoint.ipynb',
        '/classroom/release/ps1%00/ps1.ipynb',
        '/classroom/release/ps1/',
        '/classroom/release/',
        '/classroom/release/..%5csource%5cps1%5cps1.ipynb',
        '/classroom/teacher-token',
        '/classroom/classroom.sqlite',
        '/classroom/release/ps1/../../teacher-token',
        '/classroom/release/ps1/../../submitted/ana/ps1/ps1.ipynb',
        '/source/ps1/ps1.ipynb',
        '/teacher-token',
        '/classroom/submitted/ana/ps1/ps1.ipynb',
        '/classroom/release//etc/passwd',
        '/classroom/release/ps1/%2fetc%2fpasswd',
    ]:
        status, body = raw_get(base, target)
        assert status in (400, 404), target
        assert SECRET.encode() not in body and kept.token.encode() not in body, target


def test_a_hand_in_lands_in_nbgraders_layout_with_its_timestamp_and_students_csv(room):
    base, kept = room
    status, text = hand_in(base, name='Zoë Ng', nb=notebook('x = 42'))
    assert status == 200, text
    answer = json.loads(text)
    assert answer['student'] == 'zoe_ng' and datetime.fromisoformat(answer['at'])
    folder = kept.folder / 'submitted' / 'zoe_ng' / 'ps1'
    assert sorted(path.name for path in folder.iterdir()) == ['ps1.ipynb', 'timestamp.txt']
    saved = nbformat.reads((folder / 'ps1.ipynb').read_text(), as_version=4)
    nbformat.validate(saved)
    assert saved.cells[1].source == 'x = 42' and saved.cells[1].id == 'answer'
    # nbgrader's own reader of timestamp.txt takes it.
    stamp = nbgrader_utils.parse_utc((folder / 'timestamp.txt').read_text())
    assert stamp.isoformat(timespec='seconds') == answer['at'].replace('+00:00', '')
    assert (kept.folder / 'students.csv').read_text().splitlines() == [
        'id,first_name,last_name,email',
        'zoe_ng,Zoë,Ng,',
    ]
    # A Markdown lesson is handed in as the notebook Download .ipynb makes of it.
    assert hand_in(base, name='Zoë Ng', assignment='lesson 1', file='intro.md')[0] == 200
    assert (kept.folder / 'submitted' / 'zoe_ng' / 'lesson 1' / 'intro.ipynb').is_file()
    mine = json.loads(call(base + 'classroom/handouts', headers={'X-Learner-Key': 'key-ana'})[1])['mine']
    assert mine['student'] == 'zoe_ng' and sorted(mine['handed_in']) == ['lesson 1/intro.md', 'ps1/ps1.ipynb']
    assert mine['handed_in']['ps1/ps1.ipynb'] == answer['at'] and mine['feedback'] == {}
    other = json.loads(call(base + 'classroom/handouts', headers={'X-Learner-Key': 'key-someone'})[1])['mine']
    assert other == {'student': None, 'handed_in': {}, 'feedback': {}}


def test_two_learners_of_one_name_never_share_a_folder_and_a_second_hand_in_replaces_the_first(room):
    base, kept = room
    assert json.loads(hand_in(base, key='key-1', name='Ana', nb=notebook('first = 1'))[1])['student'] == 'ana'
    assert json.loads(hand_in(base, key='key-2', name='Ana', nb=notebook('other = 2'))[1])['student'] == 'ana_2'
    # The same learner under a new name keeps their folder.
    assert json.loads(hand_in(base, key='key-1', name='Ana Lima', nb=notebook('second = 1'))[1])['student'] == 'ana'
    submitted = kept.folder / 'submitted'
    assert nbformat.read(submitted / 'ana' / 'ps1' / 'ps1.ipynb', 4).cells[1].source == 'second = 1'
    assert nbformat.read(submitted / 'ana_2' / 'ps1' / 'ps1.ipynb', 4).cells[1].source == 'other = 2'
    (previous,) = (kept.folder / 'previous' / 'ana' / 'ps1').iterdir()
    assert nbformat.read(previous / 'ps1.ipynb', 4).cells[1].source == 'first = 1'
    assert (previous / 'timestamp.txt').is_file()
    assert (kept.folder / 'students.csv').read_text().splitlines()[1:] == ['ana,Ana,Lima,', 'ana_2,Ana,,']
    # A name a spreadsheet would run as a formula is written as text; a name of nothing folder-safe still gets one.
    assert json.loads(hand_in(base, key='key-3', name='=HYPERLINK("x")', nb=notebook())[1])['student'] == 'hyperlink_x'
    assert json.loads(hand_in(base, key='key-4', name='李雷', nb=notebook())[1])['student'] == 'learner'
    assert 'hyperlink_x,"\'=HYPERLINK(""x"")",,' in (kept.folder / 'students.csv').read_text()


def nothing_written(folder):
    return not (folder / 'submitted').exists() and not (folder / 'students.csv').exists()


def test_bad_hand_ins_are_refused_with_a_message_and_nothing_is_written(room):
    base, kept = room
    before = teachers_files(kept.folder)
    bad = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell('x')])
    cases = [
        ('not JSON', b'{"key": ', 400),
        ('a list', [], 400),
        ('no key', {'name': 'Ana', 'assignment': 'ps1', 'file': 'ps1.ipynb', 'notebook': notebook()}, 400),
        ('no name', {'key': 'k', 'assignment': 'ps1', 'file': 'ps1.ipynb', 'notebook': notebook()}, 400),
        (
            'nbformat 3',
            {
                **json.loads(json.dumps({'key': 'k', 'name': 'A', 'assignment': 'ps1', 'file': 'ps1.ipynb'})),
                'notebook': {**bad, 'nbformat': 3},
            },
            400,
        ),
        (
            'cells not a list',
            {'key': 'k', 'name': 'A', 'assignment': 'ps1', 'file': 'ps1.ipynb', 'notebook': {**bad, 'cells': {}}},
            400,
        ),
        (
            'a cell of no type',
            {
                'key': 'k',
                'name': 'A',
                'assignment': 'ps1',
                'file': 'ps1.ipynb',
                'notebook': {**bad, 'cells': [{'cell_type': 'script', 'source': 'x'}]},
            },
            400,
        ),
        (
            'a notebook that is text',
            {'key': 'k', 'name': 'A', 'assignment': 'ps1', 'file': 'ps1.ipynb', 'notebook': 'x = 1'},
            400,
        ),
        (
            'an assignment not handed out',
            {'key': 'k', 'name': 'A', 'assignment': 'ps2', 'file': 'ps1.ipynb', 'notebook': notebook()},
            400,
        ),
        (
            'a file not handed out',
            {'key': 'k', 'name': 'A', 'assignment': 'ps1', 'file': 'ps9.ipynb', 'notebook': notebook()},
            400,
        ),
        (
            'a data file',
            {'key': 'k', 'name': 'A', 'assignment': 'ps1', 'file': 'data.csv', 'notebook': notebook()},
            400,
        ),
        ('JSON nested past any notebook', b'[' * 200_000, 400),
    ]
    # What nbformat's schema refuses (nbformat.validate would say so too): the room refuses it first.
    for what, change in [
        ('a markdown cell with outputs', lambda nb: nb['cells'][0].update(outputs=[], execution_count=None)),
        ('a code cell without outputs', lambda nb: nb['cells'][1].pop('outputs')),
        ('an output of no type', lambda nb: nb['cells'][1].update(outputs=[{'text': 'x'}])),
        ('a cell id with a space', lambda nb: nb['cells'][1].update(id='my cell')),
        ('a notebook with more', lambda nb: nb.update(worksheets=[])),
        ('a stream with no name or text', lambda nb: nb['cells'][1].update(outputs=[{'output_type': 'stream'}])),
        (
            'a stream whose text is a number',
            lambda nb: nb['cells'][1].update(outputs=[{'output_type': 'stream', 'name': 'stdout', 'text': 5}]),
        ),
        (
            'a display without metadata',
            lambda nb: nb['cells'][1].update(outputs=[{'output_type': 'display_data', 'data': {'text/plain': 'x'}}]),
        ),
        (
            'a result counted as text',
            lambda nb: nb['cells'][1].update(
                outputs=[{'output_type': 'execute_result', 'data': {}, 'metadata': {}, 'execution_count': '1'}]
            ),
        ),
        (
            'data that is a number',
            lambda nb: nb['cells'][1].update(
                outputs=[{'output_type': 'display_data', 'data': {'text/plain': 1}, 'metadata': {}}]
            ),
        ),
        (
            'an error whose traceback is text',
            lambda nb: nb['cells'][1].update(
                outputs=[{'output_type': 'error', 'ename': 'E', 'evalue': '', 'traceback': 'x'}]
            ),
        ),
        ('a kernelspec that is a number', lambda nb: nb['metadata'].update(kernelspec=5)),
        ('a language with no name', lambda nb: nb['metadata'].update(language_info={'version': '3'})),
        ('an attachment that is text', lambda nb: nb['cells'][0].update(attachments={'a.png': 'x'})),
    ]:
        wrong = json.loads(nbformat.writes(notebook()))
        change(wrong)
        with pytest.raises(nbformat.ValidationError):
            nbformat.validate(wrong)
        cases.append(
            (what, {'key': 'k', 'name': 'A', 'assignment': 'ps1', 'file': 'ps1.ipynb', 'notebook': wrong}, 400)
        )
    for name in ['../source', 'ps1/../ps1', '..', 'ps1\\x', 'ps1\x00', '/ps1', '.']:
        cases.append(
            (
                f'assignment {name!r}',
                {'key': 'k', 'name': 'A', 'assignment': name, 'file': 'ps1.ipynb', 'notebook': notebook()},
                400,
            )
        )
        cases.append(
            (
                f'file {name!r}',
                {'key': 'k', 'name': 'A', 'assignment': 'ps1', 'file': name, 'notebook': notebook()},
                400,
            )
        )
    for what, body, expected in cases:
        status, text = call(base + 'classroom/hand-in', body, {'Content-Type': 'application/json'})
        assert status == expected, (what, text)
        assert json.loads(text)['error'], what
    assert nothing_written(kept.folder)
    assert teachers_files(kept.folder) == before
    assert call(base + 'index.html')[0] == 200, 'the site is still served'


def test_a_notebook_with_every_kind_of_output_is_taken_as_nbformat_takes_it(room):
    base, kept = room
    rich = notebook()
    rich.metadata.update(kernelspec={'name': 'python3', 'display_name': 'Python 3'}, language_info={'name': 'python'})
    rich.cells[0]['attachments'] = {'a.png': {'image/png': 'iVBORw0KGgo='}}
    rich.cells[1].outputs = [
        nbformat.v4.new_output('stream', name='stdout', text=['a\n', 'b\n']),
        nbformat.v4.new_output(
            'display_data', data={'image/svg+xml': '<svg/>', 'application/vnd.custom+json': {'n': 1}}
        ),
        nbformat.v4.new_output('execute_result', data={'text/plain': '3'}, execution_count=1),
        nbformat.v4.new_output('error', ename='ValueError', evalue='no', traceback=['Traceback', 'ValueError: no']),
    ]
    nbformat.validate(rich)
    status, text = hand_in(base, key='key-rich', name='Rich', nb=rich)
    assert status == 200, text
    assert (
        json.loads((kept.folder / 'submitted' / 'rich' / 'ps1' / 'ps1.ipynb').read_text())['cells'][1]['outputs']
        == rich.cells[1].outputs
    )


def test_a_learner_is_never_given_an_id_the_folder_already_uses_and_students_csv_catches_up(room):
    """A course folder used before (its submitted/ archived, its feedback/ kept): a new Ana is not the old
    one. A learner whose students.csv line was lost (a full disk, a crash) gets it at their next hand-in."""
    base, kept = room
    (kept.folder / 'feedback' / 'ana' / 'ps1').mkdir(parents=True)
    (kept.folder / 'feedback' / 'ana' / 'ps1' / 'ps1.html').write_text("<p>the old Ana's grade</p>")
    (kept.folder / 'autograded' / 'ana_2').mkdir(parents=True)
    assert json.loads(hand_in(base, key='key-new', name='Ana')[1])['student'] == 'ana_3'
    assert (
        json.loads(call(base + 'classroom/handouts', headers={'X-Learner-Key': 'key-new'})[1])['mine']['feedback'] == {}
    )
    (kept.folder / 'students.csv').write_text('id,first_name,last_name,email\n')
    assert hand_in(base, key='key-new', name='Ana', nb=notebook('again = 1'))[0] == 200
    assert (kept.folder / 'students.csv').read_text().splitlines()[1:] == ['ana_3,Ana,,']


def test_a_hand_in_waits_while_the_laptops_disk_is_nearly_full(room, monkeypatch):
    base, kept = room
    monkeypatch.setattr(classroom.coursework, 'FREE_SPACE_FLOOR', 1 << 62)
    status, text = hand_in(base)
    assert status == 507 and 'disk space' in json.loads(text)['error']
    assert nothing_written(kept.folder)
    monkeypatch.undo()
    assert hand_in(base)[0] == 200


def test_a_refused_body_gets_its_answer_and_the_server_stays_up(room):
    """A client still sending a body the server refuses reads the 413, as RFC 9112 §9.6 advises (urllib saw
    a broken pipe when the server closed at once)."""
    base, kept = room
    huge = notebook('x = 1')
    huge.cells.append(nbformat.v4.new_markdown_cell('a' * (21 * 1024 * 1024)))
    status, text = hand_in(base, nb=huge)
    assert status == 413 and '20 MB' in json.loads(text)['error']
    too_long = statement(base, 'key-ana', 'Ana')
    too_long[0]['result']['response'] = 'x' * 5_000_000
    status, text = post_statements(base, too_long)
    assert status == 413 and json.loads(text)['error']
    assert nothing_written(kept.folder)
    assert hand_in(base)[0] == 200, 'the server still takes hand-ins'


def test_more_than_10_hand_ins_a_minute_from_one_learner_are_refused(room):
    base, kept = room
    for _ in range(10):
        assert hand_in(base)[0] == 200
    status, text = hand_in(base)
    assert status == 429 and 'wait' in json.loads(text)['error']
    assert hand_in(base, key='key-bo', name='Bo')[0] == 200, 'another learner is not held back'


def test_a_refusal_says_what_it_was_made_from_so_that_a_page_shows_it_in_its_language(room):
    base, _ = room
    status, text = hand_in(base, assignment='ps2')
    assert status == 400
    assert json.loads(text) == {
        'error': 'ps2/ps1.ipynb was not handed out in this room',  # English, as before
        'message': '{assignment}/{file} was not handed out in this room',  # in the catalogue (N_)
        'values': {'assignment': 'ps2', 'file': 'ps1.ipynb'},
    }
    for _ in range(10):
        hand_in(base)
    answer = json.loads(hand_in(base)[1])
    assert answer['values'] == {'count': '10'} and answer['error'] == answer['message'].replace('{count}', '10')


def statement(base, learner, name):
    """A checked result, as a page sends it (classroom.js)."""
    return [
        {
            'id': str(uuid.uuid4()),
            'actor': {'objectType': 'Agent', 'name': name, 'account': {'homePage': base, 'name': learner}},
            'verb': {'id': 'http://adlnet.gov/expapi/verbs/passed'},
            'object': {'id': f"{base}course.html#exercise=mul"},
            'result': {'success': True, 'response': 'a * b'},
        }
    ]


def post_statements(base, statements):
    return call(
        base + 'classroom/xapi/statements',
        statements,
        {'Content-Type': 'application/json', 'X-Experience-API-Version': '1.0.3'},
    )


def feedback_of(base, assignment, name, key):
    return call(base + f'classroom/feedback/{assignment}/{name}', headers={'X-Learner-Key': key} if key else {})


def test_feedback_goes_to_its_learner_alone(room):
    base, kept = room
    hand_in(base, key='key-ana', name='Ana')
    hand_in(base, key='key-bo', name='Bo')
    for student, text in [('ana', 'Ana: 5 of 5'), ('bo', 'Bo: 2 of 5')]:
        folder = kept.folder / 'feedback' / student / 'ps1'
        folder.mkdir(parents=True)
        (folder / 'ps1.html').write_text(f'<!doctype html><p>{text}</p>')
    assert feedback_of(base, 'ps1', 'ps1.html', 'key-ana') == (200, '<!doctype html><p>Ana: 5 of 5</p>')
    assert feedback_of(base, 'ps1', 'ps1.html', 'key-bo') == (200, '<!doctype html><p>Bo: 2 of 5</p>')
    for key in [None, '', 'key-an', 'key-ana ', 'KEY-ANA', 'ana', 'key-nobody']:
        status, text = feedback_of(base, 'ps1', 'ps1.html', key)
        assert status == 404 and 'of 5' not in text, key
    for assignment, name in [('ps1', '..%2f..%2fbo%2fps1%2fps1.html'), ('..', 'ps1.html'), ('ps1', 'ps1.ipynb')]:
        assert feedback_of(base, assignment, name, 'key-ana')[0] == 404
    mine = json.loads(call(base + 'classroom/handouts', headers={'X-Learner-Key': 'key-bo'})[1])['mine']
    assert mine['feedback'] == {'ps1/ps1.ipynb': 'ps1.html'}


def test_the_board_shows_hand_ins_and_zips_an_assignment_in_nbgraders_layout(room):
    base, kept = room
    hand_in(base, key='key-ana', name='Ana', nb=notebook('a = 1'))
    hand_in(base, key='key-bo', name='Bo', nb=notebook('b = 2'))
    assert post_statements(base, statement(base, 'key-ana', 'Ana'))[0] == 200
    for headers in [{}, {'Authorization': 'Bearer wrong'}]:
        assert call(base + 'classroom/hand-ins/ps1.zip', headers=headers)[0] == 401
    auth = {'Authorization': f'Bearer {kept.token}'}
    progress = json.loads(call(base + 'classroom/progress', headers=auth)[1])
    assert progress['assignments'] == ['lesson 1', 'ps1']
    by_name = {student['name']: student for student in progress['students']}
    assert sorted(by_name) == ['Ana', 'Bo'], 'a learner who only handed in is on the board too'
    assert list(by_name['Bo']['hand_ins']) == ['ps1'] and datetime.fromisoformat(by_name['Bo']['hand_ins']['ps1'])
    assert by_name['Ana']['exercises'] and by_name['Bo']['exercises'] == {}
    with urllib.request.urlopen(urllib.request.Request(base + 'classroom/hand-ins/ps1.zip', headers=auth)) as response:
        assert response.headers['Content-Type'] == 'application/zip'
        assert 'ps1.zip' in response.headers['Content-Disposition']
        archive = zipfile.ZipFile(io.BytesIO(response.read()))
    assert sorted(archive.namelist()) == [
        'submitted/ana/ps1/ps1.ipynb',
        'submitted/ana/ps1/timestamp.txt',
        'submitted/bo/ps1/ps1.ipynb',
        'submitted/bo/ps1/timestamp.txt',
    ]
    assert json.loads(archive.read('submitted/bo/ps1/ps1.ipynb'))['cells'][1]['source'] == 'b = 2'
    assert call(base + 'classroom/hand-ins/..%2fsource.zip', headers=auth)[0] == 404


def hand_ins_until_killed(folder, port, site, learners=8, megabytes=1):
    """`learners` learners hand in one notebook after another (each within its 10 a minute) while the
    server is killed with SIGKILL at a moment when hand-ins are being written. Returns {student: the
    number of the last hand-in acknowledged}."""
    process, base = room_in_a_process(folder, port, site)
    acknowledged, refused, lock, first = {}, [], threading.Lock(), threading.Barrier(learners + 1, timeout=60)

    def learner(n):
        for i in range(1, 11):
            answer = f"learner_{n} = {i}  # {'x' * int(megabytes * 1e6)}"
            try:
                status, text = hand_in(base, key=f'key-{n}', name=f'Learner {n}', nb=notebook(answer))
            except (OSError, http.client.HTTPException):
                break  # the server is gone, maybe mid-answer
            finally:
                if i == 1:
                    first.wait()
            with lock:
                if status == 200:
                    acknowledged[json.loads(text)['student']] = i
                else:
                    refused.append(text)

    threads = [threading.Thread(target=learner, args=(n,)) for n in range(learners)]
    for thread in threads:
        thread.start()
    first.wait()  # every learner has handed in once; the next ones are on their way
    time.sleep(random.uniform(0.05, 0.4))
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    for thread in threads:
        thread.join()
    assert refused == []
    return acknowledged


def test_kill_9_during_hand_ins_leaves_every_acknowledged_one_whole_and_no_partial_file_for_nbgrader(
    tmp_path, tiny_site
):
    folder, port = course(tmp_path / 'room'), free_port()
    before = teachers_files(folder)
    submitted = folder / 'submitted'
    for _ in range(3):
        acknowledged = hand_ins_until_killed(folder, port, tiny_site)
        assert len(acknowledged) == 8
        for student, number in acknowledged.items():
            saved = nbformat.read(submitted / student / 'ps1' / 'ps1.ipynb', 4)  # whole: it parses
            # The acknowledged hand-in, or one after it that was written whole before the kill.
            assert int(saved.cells[1].source.split(' = ')[1].split()[0]) >= number, student
            nbgrader_utils.parse_utc((submitted / student / 'ps1' / 'timestamp.txt').read_text())
        assert {path.name for path in submitted.rglob('*')} == {*acknowledged, 'ps1', 'ps1.ipynb', 'timestamp.txt'}
        assert teachers_files(folder) == before
    # The room starts again on its folder: the same students, and the teacher's files untouched.
    process, base = room_in_a_process(folder, port, tiny_site)
    try:
        status, text = hand_in(base, key='key-0', name='Learner 0')
        assert status == 200 and json.loads(text)['student'] == 'learner_0'
        assert teachers_files(folder) == before
    finally:
        process.kill()
        process.wait()


def test_a_restart_deletes_the_partial_files_a_crash_left_and_no_others(tmp_path):
    folder = course(tmp_path / 'room')
    incoming = folder / '.incoming'
    incoming.mkdir()
    left, writing = incoming / f"{uuid.uuid4()}.partial", incoming / f"{uuid.uuid4()}.partial"
    for path in (left, writing, incoming / 'notes.txt'):
        path.write_bytes(b'{"cells": [')
    hour_ago = time.time() - 3600
    os.utime(left, (hour_ago, hour_ago))
    os.utime(incoming / 'notes.txt', (hour_ago, hour_ago))
    before = teachers_files(folder)
    classroom.Classroom(folder)
    # Another room server on the same folder may be writing the young one now.
    assert sorted(path.name for path in incoming.iterdir()) == sorted([writing.name, 'notes.txt'])
    assert teachers_files(folder) == before


def test_serve_on_a_course_folder_prints_the_learners_page_and_leaves_the_teachers_files_alone(tmp_path, site):
    folder = course(tmp_path / 'room')
    before = teachers_files(folder)
    for _ in range(2):  # a start, then a restart on the same folder
        process = subprocess.Popen(
            [sys.executable, 'build.py', 'serve', '--port', '0', '--classroom', str(folder)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        printed = []
        try:
            for line in process.stdout:
                printed.append(line)
                if line.startswith('teacher:'):
                    break
            text = ''.join(printed)
            learners = next(line for line in printed if line.startswith('learners: '))
            assert learners.startswith('learners: http://localhost:') and learners.rstrip().endswith('/room.html'), text
            assert f"hands out {folder / 'release'}/ (lesson 1, ps1)" in text, text
            port = learners.rsplit(':', 1)[1].split('/')[0]
            assert call(f"http://127.0.0.1:{port}/room.html")[0] == 200
        finally:
            process.kill()
            process.wait()
        assert teachers_files(folder) == before
    # What the room itself keeps beside the teacher's files, and nothing else.
    made = {path.name for path in folder.iterdir()} - {'source', 'release', 'nbgrader_config.py', 'gradebook.db'}
    assert made <= {'classroom.sqlite', 'classroom.sqlite-shm', 'classroom.sqlite-wal', 'teacher-token'}, made


def test_a_room_folder_inside_the_served_site_is_refused_before_anything_is_built_or_served(tmp_path):
    """There its token, record and hand-ins would be files anyone could fetch, and the next build deletes them."""
    ended = subprocess.run(
        [sys.executable, 'build.py', 'serve', '--classroom', 'dist/the-room'],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ended.returncode == 2 and 'is inside the site it serves' in ended.stderr
    assert not (ROOT / 'dist' / 'the-room').exists()
