// Which of a catalogue's plural forms a number takes: gettext's Plural-Forms expression (a C expression of n,
// such as "n > 1" or Polish's "n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2"), read by a
// small parser rather than eval (the page's CSP allows none), to a function of n.
const TOKENS = /\d+|n|&&|\|\||[=!<>]=|[-+*/%<>!?:()]|\S/g; // \S: anything else, refused below
const KNOWN = /^(\d+|n|&&|\|\||[=!<>]=|[-+*/%<>!?:()])$/;
const BINARY = [["||"], ["&&"], ["==", "!="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"]];
const APPLY = {
  "||": (a, b) => truthy(a) || truthy(b), "&&": (a, b) => truthy(a) && truthy(b), "==": (a, b) => a === b, "!=": (a, b) => a !== b,
  "<": (a, b) => a < b, "<=": (a, b) => a <= b, ">": (a, b) => a > b, ">=": (a, b) => a >= b,
  "+": (a, b) => a + b, "-": (a, b) => a - b, "*": (a, b) => a * b, "/": (a, b) => Math.trunc(a / b), "%": (a, b) => a % b,
};

export function pluralRule(expression) {
  const tokens = expression.match(TOKENS) ?? [];
  if (!tokens.every((token) => KNOWN.test(token))) throw new Error(`not a plural expression: ${expression}`);
  let at = 0;
  const next = () => tokens[at++];
  const conditional = () => {
    const test = binary(0);
    if (tokens[at] !== "?") return test;
    next();
    const yes = conditional();
    if (next() !== ":") throw new Error(`a ? without its : in ${expression}`);
    const no = conditional();
    return (n) => (truthy(test(n)) ? yes(n) : no(n));
  };
  const binary = (level) => {
    if (level === BINARY.length) return unary();
    let left = binary(level + 1);
    while (BINARY[level].includes(tokens[at])) {
      const [apply, l, right] = [APPLY[next()], left, binary(level + 1)];
      left = (n) => Number(apply(l(n), right(n)));
    }
    return left;
  };
  const unary = () => {
    const token = next();
    if (token === "!") {
      const operand = unary();
      return (n) => Number(!truthy(operand(n)));
    }
    if (token === "(") {
      const inner = conditional();
      if (next() !== ")") throw new Error(`a ( without its ) in ${expression}`);
      return inner;
    }
    if (token === "n") return (n) => n;
    if (/^\d+$/.test(token ?? "")) return () => Number(token);
    throw new Error(`not a plural expression: ${expression}`);
  };
  const rule = conditional();
  if (at !== tokens.length) throw new Error(`not a plural expression: ${expression}`);
  return (n) => Number(rule(Math.abs(Math.trunc(n))));
}

const truthy = (value) => value !== 0 && value !== false;
