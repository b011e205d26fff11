// A classic script, so that it runs where module scripts cannot: a page opened from file://.
// Browsers refuse workers and modules there, so say at once what to do instead of spinning.
if (location.protocol === "file:") {
  document.addEventListener("DOMContentLoaded", () => {
    const text = "This page must be served over HTTP: browsers do not run Python workers from a file:// page. " +
      "In the site's folder run `python build.py serve` (or `python -m http.server`), then open http://localhost:8000/.";
    const status = document.querySelector('[data-testid="status"]');
    if (status) {
      status.dataset.state = "error";
      status.querySelector(".status-text").textContent = text;
    }
    const note = document.createElement("p");
    note.dataset.testid = "file-warning";
    note.textContent = text;
    note.style.cssText = "margin: 0; padding: 0.75rem 1rem; background: #fef2f2; color: #b91c1c; font: 15px system-ui, sans-serif;";
    document.body.prepend(note);
  });
}
