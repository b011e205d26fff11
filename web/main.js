// Wires the page: editor, examples menu, Run/Stop, status, output list, Python and graph workers.
import { createEditor } from "./editor.bundle.js";
import { EXAMPLES } from "./examples.js";
import { GraphRenderer } from "./graph-renderer.js";
import { OutputList } from "./output-list.js";
import { PythonRestarted } from "./python-client.js";
import { saveCode, savedCode } from "./saved-code.js";
import { python } from "./start-python.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const status = $("status");
const statusText = status.querySelector(".status-text");
const statusBar = status.querySelector("progress");
const runButton = $("run");
const stopButton = $("stop");
const examples = $("examples");

function setStatus(state, text, fraction) {
  status.dataset.state = state;
  statusText.textContent = text;
  statusBar.hidden = fraction === undefined;
  if (fraction !== undefined) statusBar.value = fraction;
  runButton.disabled = state === "running";
  stopButton.disabled = state !== "running";
}

const renderer = new GraphRenderer();
const output = new OutputList($("output"), renderer);
let runWhenReady = false;

python.connect({
  onProgress: ({ step, steps, text }) =>
    setStatus("loading", runWhenReady ? `${text} Your program runs once Python is ready.` : text, (step - 1) / steps),
  onReady: ({ python: version, interruptible, timings }) => {
    performance.mark("python-ready", { detail: timings });
    renderer.warmUp();
    setStatus("ready", `Ready · Python ${version}${interruptible ? "" : " · Stop restarts Python"}`);
    if (runWhenReady) {
      runWhenReady = false;
      run();
    }
  },
  onFailed: (error, wasReady) => {
    if (!wasReady) setStatus("error", `Python could not start: ${error}. Reload the page to try again.`);
  },
});

const editor = createEditor({
  parent: document.getElementById("editor"),
  doc: savedCode() ?? "",
  onRun: () => run(),
  onChange: saveCode,
});
performance.mark("editor-usable"); // read by bench/page.py

async function run() {
  if (status.dataset.state === "running") return; // one run at a time, graphs included
  if (!python.ready) {
    runWhenReady = true;
    statusText.textContent = "Python is still loading; your program runs once it is ready.";
    return;
  }
  editor.clearError();
  output.startRun();
  setStatus("running", "Running…");
  let result;
  try {
    result = await python.run(editor.getText(), (event) => output.add(event));
  } catch (error) {
    if (!(error instanceof PythonRestarted)) throw error;
    renderer.cancelAll();
    await output.settled();
    output.message("warning", error.message);
    setStatus("loading", "Restarting Python…", 0);
    return;
  }
  await output.settled();
  if (result.status === "ok") {
    setStatus("ready", "Ready · finished");
  } else if (result.status === "interrupted") {
    output.message("warning", "Stopped: KeyboardInterrupt. Python kept its state and is ready.");
    setStatus("ready", "Ready · stopped");
  } else {
    const { error } = result;
    output.error(error);
    if (error.line) editor.markError(error.line, `${error.type}: ${error.message}`);
    setStatus("error", `${error.type}${error.line ? ` on line ${error.line}` : ""} · see the output`);
  }
}

function stop() {
  if (python.running) python.stop();
  else renderer.cancelAll(); // Python is done, the graphs are still being laid out
}

runButton.addEventListener("click", () => run());
stopButton.addEventListener("click", stop);
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && status.dataset.state === "running") stop();
});
$("clear").addEventListener("click", () => output.clear());

for (const { file, title } of EXAMPLES) examples.append(new Option(title, file));
async function exampleText(file) {
  const response = await fetch(new URL(`examples/${file}`, document.baseURI));
  if (!response.ok) throw new Error(`examples/${file}: ${response.status} ${response.statusText}`);
  return response.text();
}

examples.addEventListener("change", async () => {
  const file = examples.value;
  examples.value = "";
  if (!file) return;
  try {
    editor.setText(await exampleText(file));
    editor.focus();
  } catch (error) {
    statusText.textContent = `Could not load the example: ${error.message}`;
  }
});

if (!editor.getText()) {
  exampleText(EXAMPLES[0].file).then((text) => editor.getText() || editor.setText(text), () => {});
}

window.playground = { editor, python }; // for the browser console and the tests' diagnostics
