// The examples menu: each file in examples/ is a short, commented program from the tutorials.
export const EXAMPLES = [
  { file: "neuron.py", title: "A tanh neuron, backward()" },
  { file: "manual-backprop.py", title: "Backprop by hand: L = d * f" },
  { file: "accumulation.py", title: "Gradients accumulate: a + a" },
  { file: "gradient-descent.py", title: "Gradient descent on two weights" },
  { file: "own-value.py", title: "Write your own Value class" },
  { file: "moons-mlp.py", title: "Train an MLP on the moons" },
];

export async function exampleText(file) {
  if (!EXAMPLES.some((example) => example.file === file)) throw new Error(`There is no example called "${file}".`);
  const response = await fetch(new URL(`../examples/${file}`, import.meta.url));
  if (!response.ok) throw new Error(`examples/${file}: ${response.status} ${response.statusText}`);
  return response.text();
}
