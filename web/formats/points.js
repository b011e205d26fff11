// A cell's own data as text and lists: the points a learner draws on a decision-boundary chart or pastes as
// CSV, kept with the program (saved code, share links, notebooks) and sent with each run, where
// scalargrad.datasets.points() returns them. A point is [x1, x2, label], the label 0 or 1; no points at all
// means "the moons". cell/points.js keeps a cell's points (PointStore).
import { t, tn } from "../i18n/catalogue.js";

export const MAX_POINTS = 10_000;

const isPoint = (p) => Array.isArray(p) && p.length === 3 && Number.isFinite(p[0]) && Number.isFinite(p[1]) && (p[2] === 0 || p[2] === 1);

/** `list` as points, or null when it is none or not points (what storage or a link held may be anything). */
export function validPoints(list) {
  if (!Array.isArray(list) || !list.length || list.length > MAX_POINTS || !list.every(isPoint)) return null;
  return list.map(([x, y, label]) => [x, y, label]);
}

/**
 * CSV text (`x,y,label` a line; a header line, blank lines and `#` comments allowed; commas, semicolons,
 * tabs or spaces between) as {points}, or {error} naming the first bad line.
 */
export function parseCsv(text) {
  const points = [];
  let seen = false; // a line that is not blank or a comment: only the first may be a header
  const lines = String(text).split(/\r?\n/);
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i].trim();
    if (!line || line.startsWith("#")) continue;
    const fields = line.split(/\s*[,;\t]\s*|\s+/);
    if (!seen && fields.every((f) => Number.isNaN(Number(f)))) { // a header: x,y,label
      seen = true;
      continue;
    }
    seen = true;
    const where = { line: i + 1, text: line.length > 40 ? `${line.slice(0, 40)}…` : line };
    if (fields.length !== 3) {
      return { error: tn('Line {line} ("{text}") has {count} field; each line is x,y,label.', 'Line {line} ("{text}") has {count} fields; each line is x,y,label.', fields.length, { ...where, count: fields.length }) };
    }
    const [x, y, label] = fields.map(Number);
    if (!fields.slice(0, 2).every((f) => f !== "" && Number.isFinite(Number(f)))) return { error: t('Line {line} ("{text}"): x and y must be numbers.', where) };
    if (label !== 0 && label !== 1) return { error: t('Line {line} ("{text}"): the label must be 0 or 1.', where) };
    points.push([x, y, label]);
    if (points.length > MAX_POINTS) return { error: t("More than {count} points: keep at most that many.", { count: MAX_POINTS.toLocaleString("en") }) };
  }
  if (!points.length) return { error: t("No points found: write one x,y,label a line, for example 0.5,-0.2,1.") };
  return { points };
}

export const pointsCsv = (points) => ["x,y,label", ...(points ?? []).map(([x, y, label]) => `${x},${y},${label}`)].join("\n");
