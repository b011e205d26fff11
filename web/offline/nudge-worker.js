// Started by offline.js while a new build waits to take over: loading a worker is when Chromium looks again
// at whether the new service worker can take over. It has nothing to do.
close();
