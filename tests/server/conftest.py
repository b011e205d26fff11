"""What the server's tests serve beside the classroom's API: one page, not a site build."""

import pytest


@pytest.fixture(scope='session')
def tiny_site(tmp_path_factory):
    folder = tmp_path_factory.mktemp('tiny-site')
    (folder / 'index.html').write_text('<!doctype html><meta charset="utf-8"><title>tiny</title>')
    return folder
