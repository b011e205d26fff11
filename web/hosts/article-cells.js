// An article's cells, as embed.js says (its comment is the author's guide): this module and the ones it imports are
// bundled into hosts/article-cells.bundle.js, one request where their imports were some seven levels, each a
// round trip on a CDN. Every module's own URL is written as "../folder/file", which resolves alike from here.
import "./article-language.js"; // first: the cells' language, before the catalogue loads
import { hostedCell } from "./cell-host.js";
import { codeOf } from "../dom/code-text.js";
import { button } from "../dom/element.js";
import { codeBlocks } from "./code-blocks.js";
import { makeExercise } from "../cell/exercise.js";
import { fencedExercises, htmlExercises } from "./exercise-blocks.js";
import { quizOption } from "../formats/exercise-markers.js";
import { resizeFrames } from "./frame-height.js";
import { EnvCells } from "../cell/env-cells.js";
import { registerServiceWorker } from "../offline/offline.js";
import { Session } from "../session/session.js";
import { playgroundLink } from "./playground-link.js";
import { playgroundPages } from "./playground-pages.js";
import { encodeCode } from "../formats/share-link.js";
import { t } from "../i18n/messages.js";

/**
 * Turns the page's code blocks into cells. `embed` is embed.js's own URL, whose query is the page's settings;
 * `servesPages`, whether its site serves the playground's pages (a CDN's copy does not).
 */
export function startArticle(embed, servesPages) {
  const query = embed.searchParams;
  const DEFAULT_ENV = query.get("env") || "page";
  const PAGE_TRIES = /^(\d+|never)$/.test(query.get("tries") ?? "") ? (query.get("tries") === "never" ? "never" : Number(query.get("tries"))) : undefined;

  const session = new Session();
  const envCells = new EnvCells(session);
  const pageTheme = query.get("theme") || document.querySelector('meta[name="backprop-playground-theme"]')?.content || "auto";

  const envOf = (element) => element.dataset.env || DEFAULT_ENV;

  for (const script of document.querySelectorAll("script[data-playground-setup]")) {
    envCells.addSetup(envOf(script), codeOf(script));
  }

  const autorun = new IntersectionObserver((entries) => {
    for (const { isIntersecting, target } of entries) {
      if (!isIntersecting) continue;
      autorun.unobserve(target);
      envCells.run(target.cell);
    }
  }, { threshold: 0.25 });

  /** A cell in place of `pre` (or of `element`, a fenced block's wrapper), running `code`; `quiz` from a `# quiz` line. */
  function makeCell(pre, { element = pre, code = codeOf(pre), quiz = pre.hasAttribute?.("data-quiz") ? quizOption(pre.dataset.quiz) : null } = {}) {
    const env = envOf(pre);
    const { host, cell, parts } = hostedCell({
      session,
      envCells,
      code,
      env,
      name: `[${envCells.cells.length + 1}]`,
      theme: pre.dataset.theme || pageTheme,
      collapsed: pre.hasAttribute("data-collapsed"),
      readOnly: pre.hasAttribute("data-readonly"),
      quiz,
    });
    const restart = button(t("Restart"), { className: "quiet", testid: "restart", title: t('Forget every name that the cells of env "{env}" defined', { env }) });
    restart.addEventListener("click", () => {
      envCells.reset(env);
      cell.output.startRun();
      cell.output.message("notice", t("Restarted: this env's names are gone. The next Run runs its cells again from the first."));
    });
    parts.tools.append(restart);
    const pages = playgroundPages(pre, query.get("playground"), servesPages);
    if (pages) {
      const open = playgroundLink(() => codeForPlayground(cell), () => cell.points.get(), pages.index);
      const asNotebook = document.createElement("a");
      Object.assign(asNotebook, { href: pages.notebook, target: "_blank", rel: "noopener", textContent: t("Open as notebook ↗") });
      asNotebook.dataset.testid = "open-as-notebook";
      asNotebook.addEventListener("click", async (event) => {
        event.preventDefault();
        window.open(await notebookLink(env, pages.notebook), "_blank", "noopener");
      });
      parts.tools.append(open, asNotebook);
    }
    const start = () => session.start();
    host.addEventListener("pointerenter", start, { once: true });
    host.addEventListener("focusin", start, { once: true });
    element.replaceWith(host);
    if (pre.hasAttribute("data-autorun")) autorun.observe(host);
    return cell;
  }

  /** notebook.html with this env's cells (its hidden setup first) as a notebook, carried in the link itself. */
  async function notebookLink(env, page) {
    const sources = [envCells.setups.get(env), ...envCells.cells.filter((cell) => cell.env === env).map((cell) => cell.getText())];
    const title = document.title || "article";
    const { newNotebookText } = await import("../formats/ipynb.js"); // run only when a reader asks for the notebook (the bundle holds it)
    const text = newNotebookText(sources.filter(Boolean), { title });
    const name = `${title.replace(/[^\w -]+/g, "").trim().slice(0, 60) || "article"}.ipynb`;
    return `${page}#name=${encodeURIComponent(name)}&nb=${await encodeCode(text)}`;
  }

  /** The cell's code with its env's setup and earlier cells before it, so that it runs on its own. */
  function codeForPlayground(cell) {
    const earlier = envCells.cells.filter((other) => other.env === cell.env && other.number < cell.number);
    return [envCells.setups.get(cell.env), ...earlier.map((other) => other.getText()), cell.getText()].filter(Boolean).join("\n\n");
  }

  let exercises = 0;
  // Fenced blocks are read before any block is replaced; checks, hints and solutions leave the page at once
  // (removed, not hidden: a host's stylesheet could show a hidden block again).
  const fenced = query.has("lang") ? fencedExercises(codeBlocks(document, query.get("lang"))) : { exercises: [], cells: [], hidden: [] };
  for (const element of fenced.hidden) element.remove();
  const htmlForm = htmlExercises(document);
  for (const pre of document.querySelectorAll("pre[data-playground]")) {
    const exercise = htmlForm.find((one) => one.element === pre);
    if (exercise) addExercise(exercise);
    else makeCell(pre);
  }
  for (const { element, code, quiz } of fenced.cells) makeCell(element, { code, quiz: quiz ?? null });
  for (const exercise of fenced.exercises) addExercise(exercise);

  function addExercise(exercise) {
    exercises += 1;
    const { host } = makeExercise(exercise, session, { theme: exercise.theme || pageTheme, name: t("Exercise {number}", { number: exercises }), tries: PAGE_TRIES });
    exercise.element.replaceWith(host);
  }
  performance.mark("cells-shown"); // read by bench/page.py
  // Exercises report their results to a classroom, when this site is served as one (docs/classroom.md, "Classroom").
  if (exercises && embed.origin === location.origin) import("../room/classroom.js").then(({ joinClassroom }) => joinClassroom());
  // On this site's own pages (article.html, course.html) the service worker keeps everything for offline
  // use; an article on another site is outside its reach (docs/hosting.md, "Offline").
  addEventListener("load", () => registerServiceWorker(session).catch(() => {}));
  resizeFrames();
}
