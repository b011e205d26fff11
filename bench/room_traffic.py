"""What a learner's page sends a room, for the room's benches: an exercise's statement, as
web/room/classroom.js makes it, and its POST, timed."""

import json
import time
import urllib.request
import uuid

VERB = 'http://adlnet.gov/expapi/verbs/'


def statement(url, learner, i):
    """Learner `learner`'s i-th statement: every third one a pass, a Value class as the response."""
    return {
        'id': str(uuid.uuid4()),
        'actor': {
            'objectType': 'Agent',
            'name': f'Learner {learner}',
            'account': {'homePage': url, 'name': f'key-{learner}'},
        },
        'verb': {'id': VERB + ('passed' if i % 3 == 2 else 'failed')},
        'object': {'objectType': 'Activity', 'id': f"{url}course.html#exercise=exercise-{i % 4}"},
        'result': {'success': i % 3 == 2, 'response': 'class Value:\n    ...\n' * 20},
        'timestamp': time.strftime('%Y-%m-%dT%H:%M:%S.000Z', time.gmtime()),
    }


def post(url, body):
    """Seconds until the room answered, and its status."""
    request = urllib.request.Request(
        url + 'classroom/xapi/statements',
        data=json.dumps(body).encode(),
        headers={'Content-Type': 'application/json', 'X-Experience-API-Version': '1.0.3'},
    )
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=60) as response:
        response.read()
        return time.perf_counter() - started, response.status
