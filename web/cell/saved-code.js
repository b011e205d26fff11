// The editor's text survives a reload: it is kept in localStorage on every change, and so are the points
// the learner drew for it (cell/points.js). Code (and points) put aside when a link brought other code stay
// under second keys until the learner restores or drops them.
// read() and write() serve other stored text too (exercises' progress).
import { validPoints } from "../formats/points.js";

const KEY = "backprop-playground:code";
const ASIDE_KEY = "backprop-playground:code-before-link";
const POINTS_KEY = "backprop-playground:points";
const POINTS_ASIDE_KEY = "backprop-playground:points-before-link";

export function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage can be blocked (private mode, sandboxed embeds)
  }
}

export function write(key, text) {
  try {
    if (text === null) localStorage.removeItem(key);
    else localStorage.setItem(key, text);
  } catch {
    // nothing to do: the text stays in the editor
  }
}

export const savedCode = () => read(KEY);
export const saveCode = (text) => write(KEY, text);
export const codeAside = () => read(ASIDE_KEY);
export const putCodeAside = (text) => write(ASIDE_KEY, text);

function readPoints(key) {
  try {
    return validPoints(JSON.parse(read(key)));
  } catch {
    return null;
  }
}

const writePoints = (key, points) => write(key, validPoints(points) ? JSON.stringify(points) : null);
export const savedPoints = () => readPoints(POINTS_KEY);
export const savePoints = (points) => writePoints(POINTS_KEY, points);
export const pointsAside = () => readPoints(POINTS_ASIDE_KEY);
export const putPointsAside = (points) => writePoints(POINTS_ASIDE_KEY, points);
