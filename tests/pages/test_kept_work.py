"""A learner's work kept by an earlier build comes back in this one: tests/data/kept-before-the-house.json is
what the build before the Python side was laid out anew (issue 33) left in a browser (the main page's
code, an exercise's answer, a notebook edited in notebook.html), seeded into a fresh browser on this origin."""

import json

import pytest
from playwright.sync_api import expect

from support import ROOT, STARTUP_TIMEOUT_MS
from support.pages import cells, exercise

pytestmark = pytest.mark.usefixtures('site')
KEPT = json.loads((ROOT / 'tests' / 'data' / 'kept-before-the-house.json').read_text())

SEED = '''async ({ local, notebooks }) => {
  for (const [key, value] of Object.entries(local)) localStorage.setItem(key, value);
  const db = await new Promise((resolve, reject) => {
    const opening = indexedDB.open("backprop-playground", 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore("notebooks", { keyPath: "key" });
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
  await new Promise((resolve, reject) => {
    const transaction = db.transaction("notebooks", "readwrite");
    for (const record of notebooks) transaction.objectStore("notebooks").put(record);
    transaction.oncomplete = resolve;
    transaction.onerror = () => reject(transaction.error);
  });
  db.close();
}'''


def test_work_kept_by_the_earlier_build_comes_back(page, site_url):
    page.goto(site_url + 'build.json')  # a document of this origin, before any page of the site has run
    page.evaluate(SEED, KEPT)

    page.goto(site_url)
    expect(page.get_by_test_id('editor')).to_contain_text(
        "print('typed before the upgrade')", timeout=STARTUP_TIMEOUT_MS
    )

    page.goto(site_url + 'course.html')
    expect(exercise(page, 'mul-returns-value').locator('.cm-content')).to_contain_text(
        '# my answer, before the upgrade'
    )

    page.goto(site_url + 'notebook.html')  # with nothing else to open, it opens the newest kept notebook
    code = cells(page).first.locator('.cm-content')
    expect(code).to_contain_text('x = 2', timeout=STARTUP_TIMEOUT_MS)
    expect(code).to_contain_text("print('edited before the upgrade', x)")
    expect(page.get_by_test_id('markdown-cell').first).to_contain_text('Kept before the upgrade')
    expect(page.get_by_test_id('recent-notebook').first).to_contain_text('kept.ipynb')
