// The examples menu: each file in examples/ is a short, commented program from the tutorials. Their names are
// translated; the programs, comments included, are code and stay as the tutorials write them.
import { t } from "../i18n/messages.js";
import neuron from "../examples/neuron.py"; // its text, which the page's bundle carries (bundles.py)

export const EXAMPLES = [
  { file: "neuron.py", title: t("A tanh neuron, backward()"), text: neuron },
  { file: "manual-backprop.py", title: t("Backprop by hand: L = d * f") },
  { file: "accumulation.py", title: t("Gradients accumulate: a + a") },
  { file: "gradient-descent.py", title: t("Gradient descent on two weights") },
  { file: "own-value.py", title: t("Write your own Value class") },
  { file: "moons-mlp.py", title: t("Train an MLP on the moons") },
];

/**
 * The first example's text, without a request: the main page opens with it, and draws it in its first frame
 * (its bundle is render-blocking and, in English and without a link, awaits nothing before its cell is made);
 * embed.html shows it when it is given no code.
 */
export const FIRST_EXAMPLE = EXAMPLES[0].text;

/** An example's text: the one its page's bundle carries, else fetched from examples/. */
export async function exampleText(file) {
  const example = EXAMPLES.find((entry) => entry.file === file);
  if (!example) throw new Error(t("There is no example called \"{file}\".", { file }));
  if (example.text !== undefined) return example.text;
  const response = await fetch(new URL(`../examples/${file}`, import.meta.url));
  if (!response.ok) throw new Error(`examples/${file}: ${response.status} ${response.statusText}`);
  return response.text();
}
