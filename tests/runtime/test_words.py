"""playground_runtime.words: the runtime's words from the catalogue the page hands its Python (issue 45), with
Python's own messages and the learner's names left as they are, and English without one."""

import json

import pytest

from backprop_playground.catalogues import compiled
from playground_runtime import use_catalogue, words
from playground_runtime.checks import run_checks
from playground_runtime.errors import runtime_error
from playground_runtime.teaching import grad_check
from scalargrad import Value
from scalargrad.graph import trace
from support import ROOT


def catalogue(locale):
    return json.dumps(compiled.catalogue(locale, (ROOT / 'locales' / f'{locale}.po').read_text(encoding='utf-8')))


@pytest.fixture
def french():
    use_catalogue(catalogue('fr'))
    yield
    use_catalogue('')


def failing_check():
    return run_checks("expect_grad(a, 2.0, 'a is used twice')", {'a': Value(1.0, label='a')}, None)


def test_a_check_s_words_are_french_and_its_numbers_and_names_as_python_writes_them(french):
    assert failing_check()['message'] == 'a.grad vaut 0.0, attendu 2.0: a is used twice'  # the author's words stay
    assert run_checks("expect(True, 'x')", {}, None) == {
        'status': 'passed',
        'message': 'Toutes les vérifications sont passées.',
    }


def test_an_error_keeps_python_s_own_message_in_the_runtime_s_french_frame(french):
    message = runtime_error(ModuleNotFoundError("No module named 'numpy'", name='numpy'))['message']
    assert message.startswith("No module named 'numpy' : ce playground n'a pas numpy, et il fonctionne hors ligne")
    assert 'utilisez des listes et le module math' in message


def test_plurals_follow_french_rules_and_the_gradient_check_says_them(french):
    assert (
        words.ngettext(' ({count} more value like it)', ' ({count} more values like it)', 1)
        == ' ({count} autre valeur comme elle)'
    )
    assert (
        words.ngettext(' ({count} more value like it)', ' ({count} more values like it)', 2)
        == ' ({count} autres valeurs comme elle)'
    )
    a = Value(2.0, label='a')
    out = a * a
    out.label = 'out'
    nodes, edges = trace(out)
    result = grad_check(out, nodes, edges, [f'v{i}' for i in range(len(nodes))], 'LR')
    assert result['reason'].startswith('out.grad vaut 0.0 : aucune rétropropagation')


def test_without_a_catalogue_or_with_a_bad_one_the_words_are_english():
    use_catalogue('')
    assert failing_check()['message'] == 'a.grad is 0.0, expected 2.0: a is used twice'
    use_catalogue(
        json.dumps({'locale': 'xx', 'plural': 'n; import os', 'messages': {'All checks passed.': ['not', 'a text']}})
    )
    try:
        assert run_checks("expect(True, 'x')", {}, None)['message'] == 'All checks passed.'
        assert words.ngettext('{count} thing', '{count} things', 1) == '{count} thing'
        assert words.ngettext('{count} thing', '{count} things', 0) == '{count} things'
    finally:
        use_catalogue('')


def test_a_program_cannot_change_the_catalogue_s_messages(french):
    with pytest.raises(TypeError):
        words._messages['All checks passed.'] = 'changed'
