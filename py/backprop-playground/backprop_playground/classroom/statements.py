"""The xAPI 1.0.3 statements the classroom takes: one checked result each, as the page makes them
(web/room/classroom.js). A statement is turned into one row of the store or refused with a reason."""

import json
import re
import uuid
from datetime import datetime, timezone
from urllib.parse import unquote, urlsplit

XAPI_VERSION = '1.0.3'
VERB_PREFIX = 'http://adlnet.gov/expapi/verbs/'
VERBS = {'attempted', 'passed', 'failed'}
MESSAGE = 'urn:backprop-playground:message'  # result.extensions: the check's message, for the board
OBJECT_FRAGMENT = re.compile(r'^(exercise|test)=([\w.:%-]{1,200})$')


PLACEHOLDER = re.compile(r'\{(\w+)\}')


def N_(message):  # noqa: N802 (gettext's name for a message marked for the catalogue and translated later)
    """Marks a refusal that a page shows a learner: `build.py messages` puts it in the catalogue, and the page
    shows it in its language (web/i18n/catalogue.js, refusalText)."""
    return message


class Refused(Exception):
    """A request the classroom does not take: its status and a message for the client, `message` with each
    {name} filled from `values`; the answer carries both too, for a page to show it in its own language."""

    def __init__(self, status, message, **values):
        self.template = message
        self.values = {name: str(value) for name, value in values.items()}
        super().__init__(PLACEHOLDER.sub(lambda m: self.values.get(m.group(1), m.group(0)), message))
        self.status = status

    def answer(self):
        """The JSON answer: `error` as English writes it; `message` and `values`, what it was made from."""
        return {'error': str(self), 'message': self.template, 'values': self.values}


def text(value, limit):
    return isinstance(value, str) and 0 < len(value.strip()) and len(value) <= limit


def parse(body):
    """The statements of a POST body (one or a list). Raises Refused."""
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: [[[[…
        raise Refused(400, "the body is not JSON") from None
    statements = data if isinstance(data, list) else [data]
    if not statements:
        raise Refused(400, "no statements")
    return statements


def row(statement, host):
    """The store's row for one statement from the site at `host`. Raises Refused."""
    if not isinstance(statement, dict):
        raise Refused(400, "a statement must be a JSON object")
    try:
        statement_id = str(uuid.UUID(statement.get('id', '')))
    except (ValueError, TypeError, AttributeError):
        raise Refused(400, "a statement needs an `id` that is a UUID") from None
    actor = statement.get('actor')
    account = actor.get('account') if isinstance(actor, dict) else None
    if not isinstance(account, dict) or actor.get('objectType', 'Agent') != 'Agent':
        raise Refused(400, "a statement needs an `actor`, an Agent with an `account`")
    learner, name = account.get('name'), actor.get('name')
    if not (text(learner, 100) and text(name, 100) and text(account.get('homePage'), 2000)):
        raise Refused(400, "the actor needs a `name` and an account with `homePage` and `name` (up to 100 characters)")
    verb = statement.get('verb')
    verb_id = verb.get('id') if isinstance(verb, dict) else None
    if not (isinstance(verb_id, str) and verb_id.startswith(VERB_PREFIX) and verb_id[len(VERB_PREFIX) :] in VERBS):
        raise Refused(400, f"the verb must be {VERB_PREFIX} + attempted, passed or failed")
    target = statement.get('object')
    object_id = target.get('id') if isinstance(target, dict) else None
    parts = urlsplit(object_id) if isinstance(object_id, str) else None
    found = OBJECT_FRAGMENT.match(parts.fragment) if parts else None
    if not found or parts.netloc != host or parts.scheme not in ('http', 'https'):
        raise Refused(400, "the object must be a page of this classroom's site with #exercise=ID or #test=ID")
    result = statement.get('result', {})
    if not isinstance(result, dict):
        raise Refused(400, "`result` must be an object")
    response, score = result.get('response'), result.get('score', {})
    message = (result.get('extensions') or {}).get(MESSAGE) if isinstance(result.get('extensions'), dict) else None
    if (
        response is not None
        and not isinstance(response, str)
        or not isinstance(score, dict)
        or message is not None
        and not isinstance(message, str)
    ):
        raise Refused(400, "`result.response` and the message must be text, and `result.score` an object")
    raw, maximum = score.get('raw'), score.get('max')
    if any(
        value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)))
        for value in (raw, maximum)
    ):
        raise Refused(400, "`result.score.raw` and `.max` must be numbers")
    stored = datetime.now(timezone.utc).isoformat(timespec='milliseconds')
    return (
        statement_id,
        learner,
        name,
        verb_id[len(VERB_PREFIX) :],
        unquote(found.group(2)),
        response,
        message,
        raw,
        maximum,
        stored,
        json.dumps(statement),
    )
